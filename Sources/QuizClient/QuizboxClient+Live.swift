import Foundation
import QuizLiveProtocol

/// Live games: hosting one through the API, and joining one as a player over its WebSocket.
extension QuizboxClient {
    public typealias LiveGame = Components.Schemas.LiveGame
    public typealias NewLiveGame = Components.Schemas.NewLiveGame

    /// Sets up a live game of a quiz, waiting in its lobby; its host runs it over the socket
    /// (docs/live-protocol.md). Players join with its `pin`.
    public func createLiveGame(_ settings: NewLiveGame) async throws(Error) -> LiveGame {
        try await perform {
            switch try await client.createLiveGame(body: .json(settings)) {
            case .created(let created): return try created.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Joins the live game with this 6-digit PIN. Signed in, the player plays under their
    /// username (and joining again is the same player); otherwise under `nickname`.
    /// Throws ``Error/live(code:message:)`` when the game refuses (`unknown-game`, `locked`,
    /// `nickname-taken`…), ``Error/unreachable(_:)`` when the socket cannot be opened.
    public func joinLiveGame(pin: String, nickname: String, team: Int? = nil) async throws(Error) -> LiveGameConnection {
        try await LiveGameConnection.open(url: liveSocketURL, cookie: sessionCookie, greeting: .join(pin: pin, nickname: nickname, team: team))
    }

    /// Back into a game after a lost connection, as the same player with the same score.
    public func resumeLiveGame(pin: String, player: Int, secret: String) async throws(Error) -> LiveGameConnection {
        try await LiveGameConnection.open(url: liveSocketURL, cookie: sessionCookie,
                                          greeting: .resume(pin: pin, player: player, secret: secret))
    }

    /// Back into a game from another device, with the short code the first one showed
    /// (`joined.code`); the old device's secret stops working.
    public func rejoinLiveGame(pin: String, nickname: String, code: String) async throws(Error) -> LiveGameConnection {
        try await LiveGameConnection.open(url: liveSocketURL, cookie: sessionCookie,
                                          greeting: .rejoin(pin: pin, nickname: nickname, code: code))
    }

    /// `ws(s)://host/live/socket`: the socket lives beside the pages, not under the API's base.
    public var liveSocketURL: String {
        var components = URLComponents(url: serverURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix("/api/v1") { path.removeLast("/api/v1".count) }
        components.path = path + "/live/socket"
        components.query = nil
        return components.string ?? "ws://localhost:8080/live/socket"
    }

    /// The socket knows a signed-in player by the session cookie, as a browser sends it.
    private var sessionCookie: String? { token.map { "quizbox_session=\($0)" } }
}
