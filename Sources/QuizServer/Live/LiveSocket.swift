import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1
import Logging
import NIOCore
import NIOWebSocket
import QuizCore
import QuizText
import QuizUseCases
import Synchronization

/// The live games' WebSocket adapter: reads each message into a use-case call and writes the
/// answer, the events go out through `LiveHub`. Translation only: every rule is in `LiveGames`.
/// A socket is a `LiveSocketHandler` in its channel's pipeline (`ServerChannel` upgrades it) and a
/// `Session`; a task runs only while a message is being handled.
struct LiveSocket: Sendable {
    let games: LiveGames
    let hub: LiveHub
    let sessions: Sessions
    let time: any TimeSource
    let publicURL: String?
    /// Behind HTTPS (`QUIZBOX_SECURE_COOKIES`): only pages served over HTTPS may open a socket.
    let secureCookies: Bool
    /// Whose `X-Forwarded-For` names the client (`QUIZBOX_TRUSTED_PROXIES`).
    let proxies: TrustedProxies
    /// A socket that has not said who it is (host, join, resume, rejoin) this long is closed.
    let greetingTimeout: TimeInterval
    /// Pings keep a socket open through proxies and find phones that vanished.
    let pingInterval: TimeAmount
    /// Sockets open per client address: without a cap one client could resume the same player on
    /// socket after socket until the server ran out of file descriptors.
    let perAddress: OpenSockets
    let logger: Logger

    /// Messages one socket may send per second before it is told to slow down.
    static let messagesPerSecond = 20
    /// Messages waiting for the one before to be handled (a slow database); more are refused.
    static let maxWaiting = 32
    /// Greetings refused for a wrong PIN, secret or code (or too many tries) before the socket is closed.
    static let maxFailedGreetings = 3
    static let path = "/live/socket"

    /// Whether an upgrade may become a live socket: this path, and no other site's page (a page
    /// of another site must not drive a host's game with the host's cookie). A socket without an
    /// Origin is no browser's (a browser always sends one) and has no cookie a page could lend it.
    func accepts(_ head: HTTPRequestHead) -> Bool {
        guard head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == Substring(Self.path) else { return false }
        // Every Origin given must match (a client may send two).
        let origins = head.headers["origin"]
        guard !origins.isEmpty else { return true }
        guard let authority = head.headers.first(name: "host") else { return false }
        return origins.allSatisfy { isSite($0, authority: authority) }
    }

    /// A page's origin (http, https) must have the scheme, host and port of `QUIZBOX_PUBLIC_URL`
    /// when it is set; else the host and port the socket came through, over HTTPS only behind
    /// secure cookies (a port left out is the scheme's own). Clients that are not browsers (the
    /// terminal player, QuizClient, WebSocket libraries) send `ws://…` or `wss://…`, which no
    /// browser page can: they hold no visitor's cookies to borrow, so they are not checked.
    func isSite(_ origin: String, authority: String) -> Bool {
        guard let given = WebOrigin(origin) else { return false }
        if given.scheme == "ws" || given.scheme == "wss" { return true }
        if let publicURL { return WebOrigin(publicURL) == given }
        guard secureCookies ? given.scheme == "https" : ["http", "https"].contains(given.scheme) else { return false }
        let (host, port) = Self.hostAndPort(of: authority)
        return given.host == host && given.port == (port ?? WebOrigin.defaultPort(given.scheme))
    }

    /// On the channel's loop, once the upgrade's response is written: the socket's handlers.
    func attach(to channel: any Channel, head: HTTPRequestHead) throws {
        let connection = hub.makeConnection(channel: channel)
        connection.prepare()
        var token: String?
        for header in head.headers[canonicalForm: "cookie"] where token == nil {
            token = Request.cookie(SessionTokens.cookieName, in: String(header))
        }
        // Error messages in the page's language (the upgrade carries its cookies and Accept-Language).
        let language = PageMiddleware.language(
            cookie: head.headers[canonicalForm: "cookie"].lazy.compactMap { Request.cookie(PageMiddleware.languageCookie, in: String($0)) }.first,
            acceptLanguage: head.headers.first(name: "accept-language"))
        let address = proxies.client(peer: channel.remoteAddress?.ipAddress ?? "unknown",
                                     forwardedFor: head.headers["x-forwarded-for"])
        let session = Session(connection: connection, token: token, authority: head.headers.first(name: "host"),
                              address: address, t: Texts.of(language), admitted: perAddress.admit(address))
        try channel.pipeline.syncOperations.addHandlers([
            MaskedFramesOnly(),
            NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 16, maxAccumulatedFrameSize: LiveMessages.maxBytes),
            LiveSocketHandler(socket: self, session: session),
        ])
    }

    /// What one socket is: nobody yet, a host, or a player of a game; and its messages waiting.
    final class Session: Sendable {
        enum Role: Sendable { case none, host(gameId: Int64, userId: Int64), player(gameId: Int64, playerId: Int) }
        enum Next { case message(String), idle, ended }
        private struct State {
            var role = Role.none
            var waiting: [String] = []
            var running = false
            var ended = false
            var greeting: Scheduled<Void>?
            var failedGreetings = 0
        }

        let connection: LiveConnection
        /// The session cookie of the upgrade, for hosts and signed-in players.
        let token: String?
        /// The Host the socket came through, for the join address shown to a host.
        let authority: String?
        let address: String
        let t: Texts
        /// Within its address's share of sockets (else it is told so and closed).
        let admitted: Bool
        private let state = Mutex(State())

        init(connection: LiveConnection, token: String?, authority: String?, address: String, t: Texts, admitted: Bool) {
            self.connection = connection
            self.token = token
            self.authority = authority
            self.address = address
            self.t = t
            self.admitted = admitted
        }

        var role: Role {
            get { state.withLock { $0.role } }
            set { state.withLock { $0.role = newValue } }
        }

        var isGreeted: Bool {
            if case .none = role { false } else { true }
        }

        func waitForGreeting(_ timer: Scheduled<Void>) {
            state.withLock { $0.greeting = timer }
        }

        /// Counts a refused greeting; true when the socket has had its share and is to be closed.
        func greetingFailed() -> Bool {
            state.withLock { state in
                state.failedGreetings += 1
                return state.failedGreetings >= LiveSocket.maxFailedGreetings
            }
        }

        /// Greeted: the timer goes now, not when it was due.
        func greeted() {
            let timer: Scheduled<Void>? = state.withLock { state in
                defer { state.greeting = nil }
                return state.greeting
            }
            timer?.cancel()
        }

        /// Queues a message; true when no task is handling this socket's messages and one must start.
        /// nil when too many wait.
        func enqueue(_ text: String) -> Bool? {
            state.withLock { state in
                guard !state.ended else { return false }
                guard state.waiting.count < LiveSocket.maxWaiting else { return nil }
                state.waiting.append(text)
                if state.running { return false }
                state.running = true
                return true
            }
        }

        /// The next message for the running task; `.ended` once (the socket closed meanwhile).
        func next() -> Next {
            state.withLock { state in
                if state.ended {
                    state.running = false
                    state.waiting = []
                    return .ended
                }
                guard !state.waiting.isEmpty else {
                    state.running = false
                    return .idle
                }
                return .message(state.waiting.removeFirst())
            }
        }

        /// The socket closed; true when no task runs, so the caller leaves the game now.
        func end() -> Bool {
            state.withLock { state in
                state.ended = true
                state.waiting = []
                state.greeting?.cancel()
                state.greeting = nil
                return !state.running
            }
        }
    }

    /// On the loop: a message to handle after those before it.
    func receive(_ text: String, from session: Session) {
        switch session.enqueue(text) {
        case true?: Task { await drain(session) }
        case false?: break
        case nil: session.connection.send(LiveMessages.error("rate-limited", session.t("Too many messages: slow down."), of: nil))
        }
    }

    private func drain(_ session: Session) async {
        while true {
            switch session.next() {
            case .message(let text):
                await handle(text, session: session)
                if session.isGreeted { session.greeted() }
            case .idle:
                return
            case .ended:
                leave(session)
                return
            }
        }
    }

    /// On the loop, when the socket has closed.
    func ended(_ session: Session) {
        session.connection.ended()
        if session.admitted { perAddress.release(session.address) }
        if session.end() { leave(session) }
    }

    /// On the loop, as the socket opens past its address's share.
    func refuse(_ session: Session) {
        session.connection.send(LiveMessages.error("too-many-sockets", session.t("Too many open connections from your network: close some and try again."), of: nil))
        session.connection.close(.policyViolation)
    }

    /// How many live sockets each client address holds open: IPv6 clients by their /64, as the
    /// join limit counts them (one client holds a whole /64).
    final class OpenSockets: Sendable {
        let limit: Int
        private let counts = Mutex<[String: Int]>([:])

        init(limit: Int) {
            self.limit = limit
        }

        func admit(_ address: String) -> Bool {
            let address = AddressKey.of(address)
            return counts.withLock { counts in
                guard counts[address, default: 0] < limit else { return false }
                counts[address, default: 0] += 1
                return true
            }
        }

        func release(_ address: String) {
            let address = AddressKey.of(address)
            counts.withLock { counts in
                let left = counts[address, default: 1] - 1
                counts[address] = left > 0 ? left : nil
            }
        }
    }

    /// On the loop, `greetingTimeout` after the socket opened.
    func greetingDue(_ session: Session) {
        guard !session.isGreeted else { return }
        session.connection.send(LiveMessages.error("not-joined", session.t("Say who you are (host, join, resume or rejoin) when you connect."), of: nil))
        session.connection.close()
    }

    func handle(_ text: String, session: Session) async {
        let connection = session.connection
        let incoming: LiveMessages.Incoming
        do {
            incoming = try LiveMessages.read(text)
        } catch {
            connection.send(LiveMessages.error("bad-message", session.t(error.message), of: error.type))
            return
        }
        do {
            switch (incoming, session.role) {
            case (.host(let gameId), .none):
                try await games.countGreeting(from: session.address)
                guard let user = try await signedInUser(session.token) else {
                    throw Refusal("not-host", "Sign in as the game's host to run it.", "host")
                }
                await games.loadRoom(id: gameId)
                let game = try games.hostView(gameId: gameId, userId: user.id)
                session.role = .host(gameId: gameId, userId: user.id)
                hub.addHost(connection, gameId: gameId)
                connection.send(LiveMessages.hosting(game, joinURL: Self.joinURL(pin: game.pin, authority: session.authority, publicURL: publicURL)))
                games.hostConnected(true, gameId: gameId)
                catchUp(connection, gameId: gameId, audience: .host)
            case (.join(let pin, let nickname, let team), .none):
                let user = try await signedInUser(session.token)
                let joined = try await games.join(pin: pin, nickname: nickname, user: user, team: team, address: session.address)
                enter(joined, session: session)
            case (.resume(let pin, let playerId, let secret), .none):
                enter(try await games.resume(pin: pin, playerId: playerId, secret: secret, address: session.address), session: session)
            case (.rejoin(let pin, let nickname, let code), .none):
                enter(try await games.rejoin(pin: pin, nickname: nickname, code: code, address: session.address), session: session)
            case (.answer(let question, let answer), .player(let gameId, let playerId)):
                _ = try await games.answer(answer, question: question, playerId: playerId, gameId: gameId) { _ in
                    connection.send(LiveMessages.ack(question: question))
                }
            case (.command(let command), .host(let gameId, let userId)):
                try await games.command(command, gameId: gameId, userId: userId)
            case (.host, _), (.join, _), (.resume, _), (.rejoin, _):
                throw Refusal("bad-message", "This socket already joined; open another to join again.", nil)
            case (.answer, .host), (.command, .player):
                throw Refusal("not-now", "Hosts run the game and players answer.", nil)
            case (.answer, .none), (.command, .none):
                throw Refusal("not-joined", "Join a game (or host one) first.", nil)
            }
        } catch let refusal as Refusal {
            connection.send(LiveMessages.error(refusal.code, session.t(refusal.message), of: refusal.type ?? incoming.type))
        } catch let failure as LiveGames.Failure {
            let (code, message) = Self.describe(failure)
            connection.send(LiveMessages.error(code, session.t(message), of: incoming.type))
            if failure == .game(.kicked) {
                connection.close()
            } else if Self.isGuess(failure), session.greetingFailed() {
                // One socket may not go on trying PINs and secrets; a person retyping a PIN gets a new one.
                connection.close(.policyViolation)
            }
        } catch {
            logger.error("live message failed", metadata: ["error": "\(error)"])
            connection.send(LiveMessages.error("not-now", session.t("That did not work; try again."), of: incoming.type))
        }
    }

    private func enter(_ joined: LiveGames.Joined, session: Session) {
        session.role = .player(gameId: joined.game.id, playerId: joined.player.id)
        hub.addPlayer(session.connection, playerId: joined.player.id, gameId: joined.game.id)
        session.connection.send(LiveMessages.joined(joined))
        catchUp(session.connection, gameId: joined.game.id, audience: .player(joined.player.id))
    }

    private func catchUp(_ connection: LiveConnection, gameId: Int64, audience: LiveAudience) {
        let now = time.now()
        for event in games.catchUp(gameId: gameId, audience: audience) {
            switch event {
            case .result(let result): connection.send(LiveMessages.result(result))
            case .question(let view, let shuffle):
                if case .player(let id) = audience, shuffle {
                    connection.send(LiveMessages.question(view.shuffled(playerId: id), now: now))
                } else {
                    connection.send(LiveMessages.question(view, now: now))
                }
            case .ended(let podium, let standings, let teams):
                var object: [String: Any] = ["type": "ended", "podium": podium.map(LiveMessages.standing), "teams": LiveMessages.teams(teams)]
                if case .player(let id) = audience { object["you"] = LiveMessages.you(standings.first { $0.player.id == id }) }
                else { object["standings"] = standings.map(LiveMessages.standing) }
                connection.send(LiveMessages.text(object))
            default:
                let connected = audience == .host ? hub.connectedPlayers(gameId: gameId) : []
                if let text = LiveMessages.shared(event, host: audience == .host, now: now, connected: connected) { connection.send(text) }
            }
        }
    }

    private func leave(_ session: Session) {
        switch session.role {
        case .none: break
        case .host(let gameId, _):
            if !hub.remove(session.connection, gameId: gameId, playerId: nil) { games.hostConnected(false, gameId: gameId) }
        case .player(let gameId, let playerId):
            hub.remove(session.connection, gameId: gameId, playerId: playerId)
        }
    }

    /// nil without a valid session; a database that cannot be asked is an error, not "signed out"
    /// (a host would be told they are not the host, a player would join under a nickname).
    private func signedInUser(_ token: String?) async throws -> User? {
        guard let token else { return nil }
        do {
            return try await sessions.user(token: token)
        } catch is Sessions.Failure {
            return nil
        }
    }

    /// Where players join: under the configured public address, else the one the host's browser
    /// used (which is what the room can reach, behind a proxy too).
    static func joinURL(pin: String, authority: String?, publicURL: String?) -> String {
        let base = publicURL ?? authority.map { "http://\($0)" } ?? ""
        return base + "/join/" + pin
    }

    struct Refusal: Error {
        var code: String
        var message: String
        var type: String?
        init(_ code: String, _ message: String, _ type: String?) {
            self.code = code
            self.message = message
            self.type = type
        }
    }

    /// "example.org:8080" → ("example.org", 8080); "[::1]" → ("::1", nil).
    static func hostAndPort(of authority: String) -> (host: String, port: Int?) {
        let text = authority.lowercased()
        if text.hasPrefix("[") {
            let host = String(text.dropFirst().prefix { $0 != "]" })
            let rest = text.dropFirst(host.count + 2)
            return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
        }
        guard let colon = text.lastIndex(of: ":") else { return (text, nil) }
        return (String(text[..<colon]), Int(text[text.index(after: colon)...]))
    }

    /// A refusal that a wrong guess (of a PIN, a secret, a rejoin code) gets, or too many of them.
    static func isGuess(_ failure: LiveGames.Failure) -> Bool {
        switch failure {
        case .unknownGame, .badRejoin, .notResumable, .rateLimited, .notHost: true
        default: false
        }
    }

    static func describe(_ failure: LiveGames.Failure) -> (String, String) {
        switch failure {
        case .unknownGame: ("unknown-game", "No game is running with that PIN. Check it with your host.")
        case .notHost: ("not-host", "Only the game's host can run it.")
        case .badRejoin: ("bad-rejoin", "That nickname and code do not match a player of this game.")
        case .notResumable: ("bad-rejoin", "This device is no longer a player of that game: it has ended, or the game goes on on the device that used your rejoin code. Join again to play.")
        case .rateLimited: ("rate-limited", "Too many tries from your network. Wait a minute and try again.")
        case .quizNotFound, .noPlayableQuestions, .badSettings(_), .tooManyGames: ("not-now", "That game cannot be set up.")
        case .game(let error):
            switch error {
            case .locked: ("locked", "The host has locked this game: no new players.")
            case .full: ("full", "This game is full: it has as many players as it can take.")
            case .nicknameTaken: ("nickname-taken", "Someone in this game already has that nickname. Pick another.")
            case .nicknameInvalid: ("nickname-invalid", "A nickname is 1 to 20 characters, with letters or signs that show (no invisible ones, no stacked accents).")
            case .kicked: ("kicked", "The host removed you from this game.")
            case .notOpen: ("not-open", "That question is not open.")
            case .alreadyAnswered: ("already-answered", "You already answered: your first answer counts.")
            case .badAnswer: ("bad-answer", "That answer does not fit this question.")
            case .notNow: ("not-now", "Not now: the game is not at that step.")
            case .ended: ("unknown-game", "This game has ended.")
            case .unknownPlayer: ("bad-rejoin", "You are not a player of this game.")
            }
        }
    }
}

extension LiveMessages.Incoming {
    var type: String {
        switch self {
        case .host: "host"
        case .join: "join"
        case .resume: "resume"
        case .rejoin: "rejoin"
        case .answer: "answer"
        case .command(let command):
            switch command {
            case .settings: "settings"
            case .start: "start"
            case .close: "close"
            case .next: "next"
            case .end: "end"
            case .kick: "kick"
            case .lock: "lock"
            }
        }
    }
}

/// The scheme, host and port of a page's origin, a port left out being the scheme's own.
struct WebOrigin: Equatable {
    var scheme: String
    var host: String
    var port: Int?

    init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? Self.defaultPort(scheme)
    }

    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
