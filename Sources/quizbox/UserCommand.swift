import ArgumentParser
import Foundation
import QuizCore
import QuizServer
import QuizStore
import QuizUseCases

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts.", subcommands: [Create.self, SetRole.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account. The password is read from standard input, never from the command line."
        )

        @Argument(help: "The username (3–32 letters, digits, '_', '.', '-').")
        var username: String

        @Option(help: "player, author or admin.")
        var role: Role = .player

        @Option(help: "First name (default: the username).")
        var firstName: String?

        @Option(help: "Last name (default: the username).")
        var lastName: String?

        @OptionGroup var db: DatabaseOptions

        func run() async throws {
            let password = try PasswordPrompt.read()
            try await db.withStore { store, config in
                let registration = Registration(
                    username: username, firstName: firstName ?? username, lastName: lastName ?? username, password: password)
                let register = Register(store: store, hasher: PasswordHasher(cost: config.bcryptCost),
                                        minimumPasswordLength: config.minimumPasswordLength, limiter: nil, time: SystemTimeSource())
                do {
                    let user = try await register(registration, role: role, address: nil)
                    print("Created \(user.role.rawValue) '\(user.username)' (id \(user.id)) in \(config.databaseDescription).")
                } catch Register.Failure.invalid(let problems) {
                    throw CLIError("quizbox user create: " + problems.map(\.message).joined(separator: " "))
                } catch Register.Failure.usernameTaken {
                    throw CLIError("quizbox user create: the username '\(username)' is taken.")
                }
            }
        }
    }

    struct SetRole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-role", abstract: "Change an account's role.")

        @Argument var username: String
        @Argument(help: "player, author or admin.") var role: Role
        @OptionGroup var db: DatabaseOptions

        func run() async throws {
            try await db.withStore { store, config in
                do {
                    try await ManageUsers(store: store).setRole(role, ofUsername: username)
                    print("'\(username)' is now \(role.rawValue).")
                } catch ManageUsers.Failure.notFound {
                    throw CLIError("quizbox user set-role: no user named '\(username)'.")
                }
            }
        }
    }
}

extension Role: ExpressibleByArgument {}

/// Reads a password from standard input: with echo off and asked twice at a terminal, one line otherwise.
enum PasswordPrompt {
    static func read() throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = readLine(strippingNewline: true) else {
                throw CLIError("quizbox: expected the password on standard input.")
            }
            return line
        }
        let first = try prompt("Password: ")
        let second = try prompt("Repeat password: ")
        guard first == second else { throw CLIError("quizbox: the two passwords differ.") }
        return first
    }

    private static func prompt(_ text: String) throws -> String {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true) else { throw CLIError("quizbox: no password given.") }
        return line
    }
}
