import Foundation
import QuizClient
import QuizMath
import QuizText

/// The screens of `quizbox play`, in order: sign in, the main menu, and what it leads to.
/// Every call goes through `QuizboxClient`, as an app's would.
struct TerminalPlayer {
    let client: QuizboxClient
    let terminal: Terminal
    let server: String
    /// A live game to join straight away, without an account.
    var livePIN: String?

    func run() async throws(QuizboxClient.Error) {
        // Before asking for a password: a server that is down should be said at once.
        _ = try await client.subjects()
        terminal.line(t("{quizbox} at {server}", ["quizbox": Style.bold("Quizbox"), "server": server]))
        if let livePIN {
            guard let nickname = ask(t("Your nickname: ")) else { return }
            try await joinLive(pin: livePIN, nickname: nickname)
            return
        }
        guard let user = try await signIn() else { return }
        terminal.line(t("Signed in as {username}.", ["username": user.username]))
        let actions = [t("Play a quiz"), t("Practice"), t("Answer a random question"), t("Name them all"), t("Leaderboard"), t("Join a live game")]
        while true {
            terminal.line()
            guard case .item(let action) = Menu(title: Style.bold(t("What next?")), items: actions, backLabel: t("quit")).choose(on: terminal) else {
                break
            }
            do {
                switch action {
                case 0: try await playQuiz()
                case 1: try await practice()
                case 2: try await randomQuestion()
                case 3: try await nameThemAll()
                case 4: try await showLeaderboard()
                default:
                    // Signed in, the server plays this player under their username whatever the nickname.
                    if let pin = ask(t("Game PIN: ")) { try await joinLive(pin: pin, nickname: user.username) }
                }
            } catch .api(_, _, let message, _), .live(_, let message) {
                // Refused by the server (a quiz just unpublished, a rate limit…): say so and carry on.
                terminal.line(Style.red(t(message)))
            }
        }
        // The session ends with the program: the token is revoked, not left to expire.
        try? await client.logOut()
        terminal.line(t("Bye!"))
    }

    /// Signs in or creates an account; nil when the player leaves instead.
    private func signIn() async throws(QuizboxClient.Error) -> QuizboxClient.User? {
        let menu = Menu(title: nil, items: [t("Sign in"), t("Create an account")], backLabel: t("quit"))
        while true {
            guard case .item(let choice) = menu.choose(on: terminal) else { return nil }
            do {
                if choice == 1 {
                    guard let username = ask(t("Username: ")), let first = ask(t("First name: ")), let last = ask(t("Last name: ")),
                          let password = ask(t("Password: "), hidden: true) else { return nil }
                    guard ask(t("Repeat password: "), hidden: true) == password else {
                        terminal.line(Style.red(t("The two passwords differ.")))
                        continue
                    }
                    _ = try await client.register(username: username, firstName: first, lastName: last, password: password)
                    return try await client.logIn(username: username, password: password)
                }
                guard let username = ask(t("Username: ")), let password = ask(t("Password: "), hidden: true) else { return nil }
                return try await client.logIn(username: username, password: password)
            } catch .api(_, _, let message, _) {
                terminal.line(Style.red(t(message)))
            }
        }
    }

    /// A line of input after `prompt`; nil at the end of input.
    func ask(_ prompt: String, hidden: Bool = false) -> String? {
        terminal.write(prompt)
        return terminal.readLine(hidden: hidden)
    }

    func showLeaderboard() async throws(QuizboxClient.Error) {
        let board = try await client.leaderboard(limit: 10)
        terminal.line()
        terminal.line(Style.bold(t("Leaderboard")))
        let width = max(board.top.map(\.username.count).max() ?? 0, 8)
        for entry in board.top {
            let name = entry.username.padding(toLength: width, withPad: " ", startingAt: 0)
            let line = "  #\(entry.rank)  \(name)  \(pointsText(entry.points))"
            terminal.line(entry.username == board.me.username ? Style.bold(line) : line)
        }
        if let footer = board.footer, !board.top.contains(where: { $0.username == footer.username }) {
            terminal.line("  …")
            terminal.line("  #\(footer.rank)  \(footer.username)  \(pointsText(footer.points))")
        }
        terminal.line(t("You: #{rank} with {points}.", ["rank": String(board.me.rank), "points": pointsText(board.me.points)]))
        pause()
    }

    func pause() {
        // Through a pipe the output just scrolls on: nobody is reading between screens.
        if terminal.interactive { terminal.pause(Style.dim(t("Press any key to go on."))) }
    }

    /// "1 point", "12 points".
    func pointsText(_ count: some BinaryInteger) -> String {
        t.count(Int(count), "{n} point", "{n} points", ["n": plain(count)])
    }

    /// An answer as the server shows it, with true and false in the player's language.
    func answerText(_ display: String) -> String {
        display == "True" || display == "False" ? t(display) : MathText.plainText(display)
    }
}

/// ANSI styles, only where a person is watching.
enum Style {
    static let enabled = isatty(STDOUT_FILENO) == 1
    static func bold(_ text: String) -> String { wrap(text, "1") }
    static func dim(_ text: String) -> String { wrap(text, "2") }
    static func red(_ text: String) -> String { wrap(text, "31") }
    static func green(_ text: String) -> String { wrap(text, "32") }
    private static func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
}
