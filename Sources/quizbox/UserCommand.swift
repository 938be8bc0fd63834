import ArgumentParser
import Foundation
import QuizCore
import QuizServer
import QuizStore
import QuizText
import QuizUseCases

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: t("Manage accounts."), subcommands: [Create.self, SetRole.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: t("Create an account. The password is read from standard input, never from the command line.")
        )

        @Argument(help: ArgumentHelp(t("The username (3–32 letters, digits, '_', '.', '-').")))
        var username: String

        @Option(help: ArgumentHelp(t("player, author or admin.")))
        var role: Role = .player

        @Option(help: ArgumentHelp(t("First name (default: the username).")))
        var firstName: String?

        @Option(help: ArgumentHelp(t("Last name (default: the username).")))
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
                    print(t("Created {role} '{username}' (id {id}) in {database}.",
                            ["role": roleName(user.role), "username": user.username, "id": String(user.id), "database": config.databaseDescription]))
                } catch Register.Failure.invalid(let problems) {
                    throw CLIError("quizbox user create: " + problems.map { t($0.message) }.joined(separator: " "))
                } catch Register.Failure.usernameTaken {
                    throw CLIError("quizbox user create: " + t("the username '{username}' is taken.", ["username": username]))
                }
            }
        }
    }

    struct SetRole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-role", abstract: t("Change an account's role."))

        @Argument var username: String
        @Argument(help: ArgumentHelp(t("player, author or admin."))) var role: Role
        @OptionGroup var db: DatabaseOptions

        func run() async throws {
            try await db.withStore { store, config in
                do {
                    try await ManageUsers(store: store).setRole(role, ofUsername: username)
                    print(t("'{username}' is now {role}.", ["username": username, "role": roleName(role)]))
                } catch ManageUsers.Failure.notFound {
                    throw CLIError("quizbox user set-role: " + t("no user named '{username}'.", ["username": username]))
                }
            }
        }
    }
}

extension Role: ExpressibleByArgument {}

/// A role as people read it (the option's values stay `player`, `author`, `admin`).
func roleName(_ role: Role) -> String {
    switch role {
    case .player: t("player")
    case .author: t("author")
    case .admin: t("admin")
    }
}

/// Reads a password from standard input: with echo off and asked twice at a terminal, one line otherwise.
enum PasswordPrompt {
    static func read() throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = readLine(strippingNewline: true) else {
                throw CLIError("quizbox: " + t("expected the password on standard input."))
            }
            return line
        }
        let first = try prompt(t("Password: "))
        let second = try prompt(t("Repeat password: "))
        guard first == second else { throw CLIError("quizbox: " + t("the two passwords differ.")) }
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
        guard let line = readLine(strippingNewline: true) else { throw CLIError("quizbox: " + t("no password given.")) }
        return line
    }
}
