import Foundation
import QuizStore
import Synchronization

/// The answer log of live games, with group commit: answers (and, on one instance, joins) that
/// arrive while a write is in flight are stored together by the next one, so a room of thousands
/// answering at once costs a few transactions, not one each. Across instances it stores the
/// answers of games this instance still owns only (`NotOwner` for the others: see `LiveOwner.keep`).
/// A caller returns only once its rows are committed: an acknowledgement is never sent for
/// something a crash could lose.
final class LiveAnswerLog: Sendable {
    private struct Waiting {
        var players: [LivePlayerRecord]
        var answers: [LiveAnswerRecord]
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Queue {
        var waiting: [Waiting] = []
        var flushing = false
    }

    /// Rows per transaction, so one batch never holds the writer for long.
    static let maxRows = 5_000

    /// The answers of a game this instance no longer holds (across instances): not stored.
    struct NotOwner: Error {}

    private let store: any LiveGameStore
    /// Across instances: answers are stored only for games this instance still holds.
    private let owner: (store: any LiveClusterStore, instance: String)?
    private let queue = Mutex(Queue())

    init(store: any LiveGameStore, owner: (store: any LiveClusterStore, instance: String)? = nil) {
        self.store = store
        self.owner = owner
    }

    func save(players: [LivePlayerRecord] = [], answers: [LiveAnswerRecord] = []) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let start = queue.withLock { queue in
                queue.waiting.append(Waiting(players: players, answers: answers, continuation: continuation))
                if queue.flushing { return false }
                queue.flushing = true
                return true
            }
            if start { Task { await self.flush() } }
        }
    }

    private func flush() async {
        while true {
            let batch: [Waiting] = queue.withLock { queue in
                var rows = 0
                var count = 0
                for waiting in queue.waiting {
                    rows += waiting.players.count + waiting.answers.count
                    count += 1
                    if rows >= Self.maxRows { break }
                }
                let batch = Array(queue.waiting.prefix(count))
                queue.waiting.removeFirst(count)
                if batch.isEmpty { queue.flushing = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                var refused: Set<Int64> = []
                if let owner {
                    let players = batch.flatMap(\.players)
                    if !players.isEmpty { try await store.saveLiveBatch(players: players, answers: []) }
                    refused = try await owner.store.saveOwnedLiveAnswers(batch.flatMap(\.answers), owner: owner.instance)
                } else {
                    try await store.saveLiveBatch(players: batch.flatMap(\.players), answers: batch.flatMap(\.answers))
                }
                for waiting in batch {
                    if !refused.isEmpty, waiting.answers.contains(where: { refused.contains($0.gameId) }) {
                        waiting.continuation.resume(throwing: NotOwner())
                    } else {
                        waiting.continuation.resume()
                    }
                }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }
}
