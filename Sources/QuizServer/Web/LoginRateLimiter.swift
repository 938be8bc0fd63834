import Foundation
import QuizCore
import QuizStore
import Synchronization

/// At most `limit` log-in attempts per window for one account and for one client address,
/// so passwords cannot be guessed at speed. Also limits name-them-all guesses.
///
/// With `shared`, counts live in the database, so instances sharing PostgreSQL count together;
/// a key's window opens at its first attempt. Without it they are kept in this process (SQLite:
/// one process owns the file, and a table write per attempt would only add work for its one writer).
final class LoginRateLimiter: Sendable {
    let limit: Int
    let window: TimeInterval
    private let time: any TimeSource
    private let shared: SQLStore?
    private let attempts = Mutex<[String: [Date]]>([:])
    private let calls = Atomic<Int>(0)

    init(limit: Int = 10, window: TimeInterval = 60, time: any TimeSource, shared: SQLStore? = nil) {
        self.limit = limit
        self.window = window
        self.time = time
        self.shared = shared
    }

    /// Records an attempt for every key; false when any of them is over the limit.
    func allow(keys: [String]) async throws -> Bool {
        let now = time.now()
        guard let shared else { return allowHere(keys: keys, now: now) }
        // Now and then, not per request: keeps the table to recently active keys.
        if calls.add(1, ordering: .relaxed).newValue % 1_000 == 0 { try await shared.removeExpiredRateLimits(at: now) }
        let counts = try await shared.countAttempts(keys: keys, window: window, at: now)
        return counts.values.allSatisfy { $0 <= limit }
    }

    private func allowHere(keys: [String], now: Date) -> Bool {
        attempts.withLock { attempts in
            if attempts.count > 100_000 { attempts = attempts.filter { $0.value.last.map { now.timeIntervalSince($0) < window } ?? false } }
            var allowed = true
            for key in keys {
                var recent = (attempts[key] ?? []).filter { now.timeIntervalSince($0) < window }
                if recent.count >= limit { allowed = false } else { recent.append(now) }
                attempts[key] = recent
            }
            return allowed
        }
    }

    static let message = "Too many log-in attempts. Wait a minute and try again."
}
