import ArgumentParser
import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import QuizClient
import QuizText

struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: t("Play in the terminal against a Quizbox server: sign in, pick a quiz, answer, see the leaderboard."),
        discussion: t("Arrow keys and Enter, or an item's number, choose; q goes back. With standard input not a terminal, each choice is read as a line (a number), so a session can be scripted.")
    )

    @Option(help: ArgumentHelp(t("The server's address.")))
    var server = "http://localhost:8080"

    @Option(help: ArgumentHelp(t("Join the live game with this PIN (asks for a nickname; no account needed).")))
    var live: String?

    func run() async throws {
        guard let base = URL(string: server), ["http", "https"].contains(base.scheme ?? ""), base.host != nil else {
            throw CLIError("quizbox play: " + t("{address} is not an http or https address.", ["address": server]))
        }
        // One server, a person waiting: a refused connection is said at once rather than retried
        // until the request's deadline, which is what a server-side client would want.
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5), read: .seconds(30)))
        configuration.connectionPool.retryConnectionEstablishment = false
        let http = HTTPClient(configuration: configuration)
        let client = QuizboxClient(serverURL: base.appendingPathComponent("api/v1"),
                                   transport: InLanguage(AsyncHTTPClientTransport(configuration: .init(client: http)), language: t.language))
        let terminal = Terminal()
        terminal.enterRawMode()
        var failure: QuizboxClient.Error?
        do {
            try await TerminalPlayer(client: client, terminal: terminal, server: server, livePIN: live).run()
        } catch {
            failure = error
        }
        terminal.restore()
        try? await http.shutdown()
        if let failure { throw CLIError("quizbox play: \(Self.describe(failure, server: server))") }
    }

    static func describe(_ error: QuizboxClient.Error, server: String) -> String {
        switch error {
        case .unreachable(let reason):
            t("cannot reach a Quizbox server at {server} ({reason}). Is it running? Start one with `quizbox serve`, or give its address with --server.",
              ["server": server, "reason": reason])
        case .api(_, _, let message, _), .live(_, let message): t(message)
        case .unexpectedResponse(let status):
            t("the server at {server} answered HTTP {status}, which is not the Quizbox API. Is --server right?", ["server": server, "status": String(status)])
        }
    }
}

/// Asks the server for its messages (errors, refusals) in the player's language.
struct InLanguage<Base: ClientTransport>: ClientTransport {
    let base: Base
    let language: Language

    init(_ base: Base, language: Language) {
        self.base = base
        self.language = language
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if request.headerFields[.acceptLanguage] == nil { request.headerFields[.acceptLanguage] = language.rawValue }
        return try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
