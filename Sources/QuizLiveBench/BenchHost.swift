import Foundation
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
        guard let message = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let type = message["type"] as? String else { return }
        if type == "players" { game.rosters.add(1, ordering: .relaxed) }
        if type == "players" || type == "progress" { return }
        let number: Int64 = switch type {
        case "hosting": ((message["game"] as? [String: Any])?["questionCount"] as? NSNumber)?.int64Value ?? 0
        case "question": (message["deadline"] as? NSNumber)?.int64Value ?? 0
        default: 0
        }
        events.yield(HostEvent(type: type, index: message["index"] as? Int ?? -1, at: now,
                               wallMilliseconds: Int64(Date().timeIntervalSince1970 * 1000), number: number,
                               text: type == "error" ? text : ""))
    }

    func closed() {
        ready(nil)
        events.finish()
    }
}
