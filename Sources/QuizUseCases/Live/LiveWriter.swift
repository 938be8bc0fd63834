import Foundation
import QuizStore
import Synchronization

/// Group commit for live games: joins and answers that arrive while a write is in flight are
/// stored together by the next one, so a room of thousands answering at once costs a few
/// transactions, not one each. A caller returns only once its rows are committed: an
/// acknowledgement is never sent for something a crash could lose.
final class LiveWriter: Sendable {
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

    private let store: any LiveGameStore
    private let queue = Mutex(Queue())

    init(store: any LiveGameStore) {
        self.store = store
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
                try await store.saveLiveBatch(players: batch.flatMap(\.players), answers: batch.flatMap(\.answers))
                for waiting in batch { waiting.continuation.resume() }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }
}

/// Writes a game's latest state, never an older one after a newer: changes that come while a
/// write is in flight are folded into the next write.
final class LatestStateWriter: Sendable {
    /// Stores a state; false when the database refused it because another instance runs the game.
    typealias Write = @Sendable (LiveGameRecord) async throws -> Bool

    private struct State {
        var pending: LiveGameRecord?
        var writing = false
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    private let write: Write
    private let state = Mutex(State())
    private let failed: @Sendable (LiveGameRecord, any Error) -> Void

    init(write: @escaping Write, failed: @escaping @Sendable (LiveGameRecord, any Error) -> Void) {
        self.write = write
        self.failed = failed
    }

    /// Returns once this state (or a later one) is written, or its write failed: the game goes on
    /// in memory, the failure is reported, and the next change writes the whole state again.
    /// False only when the state was refused because another instance runs the game now.
    @discardableResult
    func save(_ record: LiveGameRecord) async -> Bool {
        await withCheckedContinuation { continuation in
            let start = state.withLock { state in
                state.pending = record
                state.waiters.append(continuation)
                if state.writing { return false }
                state.writing = true
                return true
            }
            if start { Task { await self.drain() } }
        }
    }

    private func drain() async {
        while true {
            let next: (LiveGameRecord, [CheckedContinuation<Bool, Never>])? = state.withLock { state in
                guard let record = state.pending else {
                    state.writing = false
                    return nil
                }
                state.pending = nil
                defer { state.waiters = [] }
                return (record, state.waiters)
            }
            guard let (record, waiters) = next else { return }
            var kept = true
            do {
                kept = try await write(record)
            } catch {
                failed(record, error)
            }
            for waiter in waiters { waiter.resume(returning: kept) }
        }
    }
}
