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
    static let path = "/live/socket"

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

    /// On the loop, `greetingTimeout` after the socket opened.
    func greetingDue(_ session: Session) {
        guard !session.isGreeted else { return }
        session.connection.send(LiveMessages.error("not-joined", session.t("Say who you are (host, join, resume or rejoin) when you connect."), of: nil))
        session.connection.close()
    }

    /// Where players join: under the configured public address, else the one the host's browser
    /// used (which is what the room can reach, behind a proxy too).
    static func joinURL(pin: String, authority: String?, publicURL: String?) -> String {
        let base = publicURL ?? authority.map { "http://\($0)" } ?? ""
        return base + "/join/" + pin
    }

    /// The socket is gone: the hub forgets it, and a host's last socket tells the game.
    func leave(_ session: Session) {
        switch session.role {
        case .none: break
        case .host(let gameId, _):
            if !hub.remove(session.connection, gameId: gameId, playerId: nil) { games.hostConnected(false, gameId: gameId) }
        case .player(let gameId, let playerId):
            hub.remove(session.connection, gameId: gameId, playerId: playerId)
        }
    }
}
