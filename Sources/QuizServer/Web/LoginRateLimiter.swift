import Foundation
import QuizCore
import Synchronization

/// At most `limit` log-in attempts per window for one account and for one client address,
/// so passwords cannot be guessed at speed. Counted in this process.
final class LoginRateLimiter: Sendable {
    let limit: Int
    let window: TimeInterval
    private let time: any TimeSource
    private let attempts = Mutex<[String: [Date]]>([:])

    init(limit: Int = 10, window: TimeInterval = 60, time: any TimeSource) {
        self.limit = limit
        self.window = window
        self.time = time
    }

    /// Records an attempt for every key; false when any of them is over the limit.
    func allow(keys: [String]) -> Bool {
        let now = time.now()
        return attempts.withLock { attempts in
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
