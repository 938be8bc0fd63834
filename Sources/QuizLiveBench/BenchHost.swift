import Foundation
import QuizLiveProtocol
import Synchronization

/// What a host's screen got, handed to the task that plays the host.
struct HostEvent: Sendable {
    var type: String
    var index: Int
    var at: UInt64
    /// When it came, on the wall clock (ms), to compare with the server's times.
    var wallMilliseconds: Int64
    /// `hosting`: the question count; `question`: its deadline (server ms).
    var number: Int64
    var text: String
}

/// The host's socket: says `host`, then passes on every message but the roster.
final class BenchHost: BenchPeer {
    private let game: BenchGame
    private let events: AsyncStream<HostEvent>.Continuation
    private let ready: @Sendable (BenchSender?) -> Void

    init(game: BenchGame, events: AsyncStream<HostEvent>.Continuation, ready: @escaping @Sendable (BenchSender?) -> Void) {
        self.game = game
        self.events = events
        self.ready = ready
    }

    func opened(_ socket: BenchSocket) {
        socket.send(#"{"v":1,"type":"host","game":\#(game.id)}"#)
        ready(socket.sender())
    }

    func received(_ text: String, at now: UInt64) {
        // The roster comes on every join and runs to 500 players: skip it unread.
        if text.utf8.count > 2_000, text.contains(#""type":"players""#) {
            game.rosters.add(1, ordering: .relaxed)
            return
        }
        guard let message = try? LiveServerMessage(text: text) else { return }
        let (index, number): (Int, Int64)
        switch message {
        case .players:
            game.rosters.add(1, ordering: .relaxed)
            return
        case .progress, .cloud: return
        case .hosting(let hosting): (index, number) = (-1, Int64(hosting.game.questionCount))
        case .question(let question): (index, number) = (question.index, question.deadline)
        case .reveal(let reveal): (index, number) = (reveal.index, 0)
        case .result(let result): (index, number) = (result.index, 0)
        default: (index, number) = (-1, 0)
        }
        let said: String = switch message {
        case .error: text
        case .question(let question): question.kind.rawValue
        case .reveal(let reveal): reveal.cloud.map { "\($0.words.count) words" } ?? ""
        default: ""
        }
        events.yield(HostEvent(type: message.kind.rawValue, index: index, at: now,
                               wallMilliseconds: Int64(Date().timeIntervalSince1970 * 1000), number: number, text: said))
    }

    func closed() {
        ready(nil)
        events.finish()
    }
}
