import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOWebSocket
import QuizCore
import QuizLiveProtocol
import Synchronization

/// One player's WebSocket to a live game, opened by ``QuizboxClient/joinLiveGame(pin:nickname:team:)``.
///
/// `events` yields what the server says after `joined`, in order, starting with the game's
/// current state (the open question, the last reveal…), and finishes when the socket closes
/// (after `ended` or `kicked`, or when the network fails).
public final class LiveGameConnection: Sendable {
    /// Who this player is in the game; keep `player.id` and `secret` to resume after a lost connection.
    public let joined: LiveEvent.Joined
    public let events: AsyncStream<LiveEvent>
    private let outgoing: AsyncStream<String>.Continuation
    private let task: Task<Void, Never>

    /// Sends an answer to the open question `question` (its `index`); the server replies `ack`
    /// or an `error` (`not-open`, `already-answered`, `bad-answer`).
    public func answer(question: Int, with answer: Answer) {
        // A slide is read, not answered: live games move on past one without a message.
        guard let wire = Self.wire(answer) else { return }
        outgoing.yield(LiveClientMessage.answer(question: question, answer: wire).text)
    }

    /// Closes the socket; the player stays in the game and may resume.
    public func close() {
        outgoing.finish()
        task.cancel()
    }

    deinit { close() }

    /// Opens the socket, says `greeting` and waits for `joined`.
    static func open(url: String, cookie: String?, greeting: LiveClientMessage) async throws(QuizboxClient.Error) -> LiveGameConnection {
        let (outStream, outgoing) = AsyncStream.makeStream(of: String.self)
        let (firstStream, first) = AsyncStream.makeStream(of: LiveEvent.self)
        let (events, eventsIn) = AsyncStream.makeStream(of: LiveEvent.self)
        let failure = SharedString(nil)
        outgoing.yield(greeting.text)
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        // Silent unless the app bootstraps logging for it: a client library must not print.
        let logger = Logger(label: "quizbox.live", factory: { _ in SwiftLogNoOpLogHandler() })
        let task = Task {
            defer {
                first.finish()
                eventsIn.finish()
            }
            do {
                try await WebSocketClient.connect(url: url, configuration: .init(additionalHeaders: headers), logger: logger) { inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await text in outStream { try await outbound.write(.text(text)) }
                            // Closed by the app (or refused): say goodbye, so the server lets go of the socket.
                            try? await outbound.close(.normalClosure, reason: nil)
                        }
                        var greeted = false
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            guard case .text(let text) = message, let event = LiveEvent(text: text) else { continue }
                            if greeted {
                                eventsIn.yield(event)
                            } else if case .joined = event {
                                greeted = true
                                first.yield(event)
                            } else if case .error = event {
                                first.yield(event)
                            }
                        }
                        group.cancelAll()
                    }
                }
            } catch {
                failure.value.withLock { $0 = QuizboxClient.reason(error) }
            }
        }
        for await event in firstStream {
            switch event {
            case .joined(let joined): return LiveGameConnection(joined: joined, events: events, outgoing: outgoing, task: task)
            case .error(let code, let message, _):
                outgoing.finish()
                task.cancel()
                throw .live(code: code, message: message)
            default: continue
            }
        }
        // The socket failed or closed first, or the caller was cancelled: either way let it go.
        outgoing.finish()
        task.cancel()
        throw .unreachable(failure.value.withLock { $0 } ?? "the live game closed the connection")
    }

    private init(joined: LiveEvent.Joined, events: AsyncStream<LiveEvent>, outgoing: AsyncStream<String>.Continuation, task: Task<Void, Never>) {
        self.joined = joined
        self.events = events
        self.outgoing = outgoing
        self.task = task
    }

    /// The protocol's answer: one field named after the kind.
    static func wire(_ answer: Answer) -> LiveClientMessage.Answer? {
        switch answer {
        case .choice(let id): .choice(id)
        case .choices(let ids): .choices(ids.sorted())
        case .bool(let value): .value(value)
        case .text(let text): .text(text)
        case .number(let number): .number(.value(number))
        case .order(let ids): .order(ids)
        case .matches(let matches): .matches(matches)
        case .gaps(let gaps):
            .gaps(gaps.mapValues { gap in
                switch gap {
                case .choice(let id): .choice(id)
                case .text(let text): .text(text)
                }
            })
        case .read: nil
        }
    }
}
