import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import QuizCore
import QuizText
import QuizUseCases
import Synchronization

/// The request context of a WebSocket upgrade: who is connecting, from where.
struct LiveSocketContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let remoteAddress: String
    /// Events are written straight into it (`LiveConnection`).
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        channel = source.channel
    }
}

/// The live games' WebSocket adapter: reads each message into a use-case call and writes the
/// answer, the events go out through `LiveHub`. Translation only: every rule is in `LiveGames`.
struct LiveSocket: Sendable {
    let games: LiveGames
    let hub: LiveHub
    let sessions: Sessions
    let time: any TimeSource
    let publicURL: String?
    /// A socket that has not said who it is (host, join, resume, rejoin) this long is closed.
    let greetingTimeout: TimeInterval
    let logger: Logger

    /// Messages one socket may send per second before it is told to slow down.
    static let messagesPerSecond = 20
    static let path = "/live/socket"

    func register(on router: Router<LiveSocketContext>) {
        router.ws(RouterPath(stringLiteral: Self.path)) { request, _ in
            // A page of another site must not drive a host's game with the host's cookie. Host names
            // are compared without ports: some clients send their origin without one.
            if let origin = request.headers[.origin], let authority = request.head.authority {
                guard let originHost = URL(string: origin)?.host?.lowercased(),
                      originHost == Self.hostName(of: authority) else { return .dontUpgrade }
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            // Kicked or the game over: the server closes its side, after what it sent before. A close
            // that fails finds the socket already gone, which is what was wanted.
            let connection = hub.makeConnection(channel: context.requestContext.channel) {
                Task { try? await outbound.close(.normalClosure, reason: nil) }
            }
            connection.prepare()
            var session = Session(connection: connection, request: context.request, address: context.requestContext.remoteAddress)
            // Error messages in the page's language (the upgrade carries its cookies and Accept-Language).
            let t = session.t
            // Pings keep an idle socket open: one that never joins anything must not hold a place.
            let greeted = Atomic<Bool>(false)
            let greeting = Task {
                try await Task.sleep(for: .milliseconds(Int(greetingTimeout * 1000)))
                if !greeted.load(ordering: .relaxed) {
                    connection.send(LiveMessages.error("not-joined", t("Say who you are (host, join, resume or rejoin) when you connect."), of: nil))
                    connection.close()
                }
            }
            do {
                for try await message in inbound.messages(maxSize: LiveMessages.maxBytes) {
                    guard case .text(let text) = message else {
                        connection.send(LiveMessages.error("bad-message", t("Messages are JSON text."), of: nil))
                        continue
                    }
                    guard session.allow(now: time.now()) else {
                        connection.send(LiveMessages.error("rate-limited", t("Too many messages: slow down."), of: nil))
                        continue
                    }
                    await handle(text, session: &session)
                    // Greeted: the sleeping timer goes now, not 30 s later (a crowd joining holds thousands).
                    if case .none = session.role {} else if !greeting.isCancelled {
                        greeted.store(true, ordering: .relaxed)
                        greeting.cancel()
                    }
                }
            } catch {
                // Too large a message, or the socket broke: either way this connection is over.
                connection.send(LiveMessages.error("bad-message", t("Messages are at most 4 KiB."), of: nil))
            }
            greeting.cancel()
            connection.ended()
            leave(session)
        }
    }

    /// What one socket is: nobody yet, a host, or a player of a game.
    struct Session {
        enum Role { case none, host(gameId: Int64, userId: Int64), player(gameId: Int64, playerId: Int) }
        let connection: LiveConnection
        let request: Request
        let address: String
        let t: Texts
        var role = Role.none
        var windowStart = Date.distantPast
        var inWindow = 0

        init(connection: LiveConnection, request: Request, address: String) {
            self.connection = connection
            self.request = request
            self.address = address
            t = Texts.of(PageMiddleware.language(request))
        }

        mutating func allow(now: Date) -> Bool {
            if now.timeIntervalSince(windowStart) >= 1 {
                windowStart = now
                inWindow = 0
            }
            inWindow += 1
            return inWindow <= LiveSocket.messagesPerSecond
        }
    }

    func handle(_ text: String, session: inout Session) async {
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
                guard let user = try await signedInUser(session.request) else {
                    throw Refusal("not-host", "Sign in as the game's host to run it.", "host")
                }
                await games.loadRoom(id: gameId)
                let game = try games.hostView(gameId: gameId, userId: user.id)
                session.role = .host(gameId: gameId, userId: user.id)
                hub.addHost(connection, gameId: gameId)
                connection.send(LiveMessages.hosting(game, joinURL: Self.joinURL(pin: game.pin, request: session.request, publicURL: publicURL)))
                games.hostConnected(true, gameId: gameId)
                catchUp(connection, gameId: gameId, audience: .host)
            case (.join(let pin, let nickname, let team), .none):
                let user = try await signedInUser(session.request)
                let joined = try await games.join(pin: pin, nickname: nickname, user: user, team: team, address: session.address)
                enter(joined, session: &session)
            case (.resume(let pin, let playerId, let secret), .none):
                enter(try await games.resume(pin: pin, playerId: playerId, secret: secret), session: &session)
            case (.rejoin(let pin, let nickname, let code), .none):
                enter(try await games.rejoin(pin: pin, nickname: nickname, code: code, address: session.address), session: &session)
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
            if failure == .game(.kicked) { connection.close() }
        } catch {
            logger.error("live message failed", metadata: ["error": "\(error)"])
            connection.send(LiveMessages.error("not-now", session.t("That did not work; try again."), of: incoming.type))
        }
    }

    private func enter(_ joined: LiveGames.Joined, session: inout Session) {
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
                    connection.send(LiveMessages.question(view.shuffled(gameId: gameId, playerId: id), now: now))
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
    private func signedInUser(_ request: Request) async throws -> User? {
        guard let token = request.cookie(SessionTokens.cookieName) else { return nil }
        do {
            return try await sessions.user(token: token)
        } catch is Sessions.Failure {
            return nil
        }
    }

    /// Where players join: under the configured public address, else the one the host's browser
    /// used (which is what the room can reach, behind a proxy too).
    static func joinURL(pin: String, request: Request, publicURL: String?) -> String {
        let base = publicURL ?? request.head.authority.map { "http://\($0)" } ?? ""
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

    /// "example.org:8080" → "example.org"; "[::1]:8080" → "::1".
    static func hostName(of authority: String) -> String {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") { return String(host.dropFirst().prefix { $0 != "]" }) }
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        return String(host)
    }

    static func describe(_ failure: LiveGames.Failure) -> (String, String) {
        switch failure {
        case .unknownGame: ("unknown-game", "No game is running with that PIN. Check it with your host.")
        case .notHost: ("not-host", "Only the game's host can run it.")
        case .badRejoin: ("bad-rejoin", "That nickname and code do not match a player of this game.")
        case .rateLimited: ("rate-limited", "Too many tries from your network. Wait a minute and try again.")
        case .quizNotFound, .noPlayableQuestions, .badSettings(_), .tooManyGames: ("not-now", "That game cannot be set up.")
        case .game(let error):
            switch error {
            case .locked: ("locked", "The host has locked this game: no new players.")
            case .full: ("full", "This game is full: it has as many players as it can take.")
            case .nicknameTaken: ("nickname-taken", "Someone in this game already has that nickname. Pick another.")
            case .nicknameInvalid: ("nickname-invalid", "A nickname is 1 to 20 characters.")
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
