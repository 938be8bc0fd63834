import Foundation
import QuizStore
import Synchronization

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
