import Foundation
import QuizCore
import QuizStore
import Synchronization

/// Counts attempts per key in fixed windows (a key's window opens at its first attempt) and says
/// when a key is over its limit. Used for log-ins, registrations, sign-ins, password changes,
/// posts and name-them-all guesses.
///
/// With `shared`, counts live in the database, so instances sharing PostgreSQL count together.
/// Without it they are kept in this process (SQLite: one process owns the file, and a table write
/// per attempt would only add work for its one writer), at most `maxKeys` of them: past that the
/// windows closest to their end are dropped first, so memory stays bounded whatever keys arrive.
package final class RateLimiter: Sendable {
    /// One limit to check: at most `limit` attempts per `window` seconds for `key`.
    package struct Check: Sendable {
        package var key: String
        package var limit: Int
        package var window: TimeInterval

        package init(key: String, limit: Int, window: TimeInterval) {
            self.key = key
            self.limit = limit
            self.window = window
        }
    }

    package let limit: Int
    package let window: TimeInterval
    package let maxKeys: Int
    private let time: any TimeSource
    private let shared: (any RateLimitStore)?
    private let windows = Mutex<[String: (expires: Date, hits: Int)]>([:])
    private let calls = Atomic<Int>(0)

    package init(limit: Int = 10, window: TimeInterval = 60, time: any TimeSource, shared: (any RateLimitStore)? = nil, maxKeys: Int = 100_000) {
        self.limit = limit
        self.window = window
        self.time = time
        self.shared = shared
        self.maxKeys = maxKeys
    }

    /// Records an attempt for every key, with this limiter's limit and window; false when any is over.
    package func allow(keys: [String]) async throws -> Bool {
        try await allow(keys.map { Check(key: $0, limit: limit, window: window) })
    }

    /// Records an attempt for every check's key; false when any of them is over its limit.
    package func allow(_ checks: [Check]) async throws -> Bool {
        let now = time.now()
        guard let shared else { return allowHere(checks, now: now) }
        // Now and then, not per request: keeps the table to recently active keys.
        if calls.add(1, ordering: .relaxed).newValue % 1_000 == 0 { try await shared.removeExpiredRateLimits(at: now) }
        var allowed = true
        for (window, group) in Dictionary(grouping: checks, by: \.window) {
            let counts = try await shared.countAttempts(keys: group.map(\.key), window: window, at: now)
            for check in group where counts[check.key, default: 0] > check.limit { allowed = false }
        }
        return allowed
    }

    /// Attempts counted for `key` in its current window, without counting one more.
    package func hits(_ key: String) async throws -> Int {
        let now = time.now()
        guard let shared else {
            return windows.withLock { windows in windows[key].map { $0.expires > now ? $0.hits : 0 } ?? 0 }
        }
        return try await shared.rateLimitHits(key: key, at: now)
    }

    private func allowHere(_ checks: [Check], now: Date) -> Bool {
        windows.withLock { windows in
            var allowed = true
            for check in checks {
                var entry: (expires: Date, hits: Int) = windows[check.key].flatMap { $0.expires > now ? $0 : nil }
                    ?? (now.addingTimeInterval(check.window), 0)
                if entry.hits >= check.limit { allowed = false } else { entry.hits += 1 }
                if windows[check.key] == nil, windows.count >= maxKeys { Self.makeRoom(in: &windows, now: now, keep: maxKeys * 3 / 4) }
                windows[check.key] = entry
            }
            return allowed
        }
    }

    /// Drops ended windows, then, if still too many, those nearest their end (their count matters
    /// least), down to `keep`.
    private static func makeRoom(in windows: inout [String: (expires: Date, hits: Int)], now: Date, keep: Int) {
        windows = windows.filter { $0.value.expires > now }
        guard windows.count > keep else { return }
        windows = Dictionary(uniqueKeysWithValues: windows.sorted { $0.value.expires < $1.value.expires }.suffix(keep).map { ($0.key, $0.value) })
    }

    package var keyCount: Int { windows.withLock { $0.count } }

}

/// The part of a client's address rate limits count by. An IPv6 client usually holds a whole /64,
/// so counting each of its addresses apart would give it 2^64 budgets.
package enum AddressKey {
    package static func of(_ address: String) -> String {
        guard address.contains(":") else { return address }
        // "::ffff:192.0.2.1" is an IPv4 client.
        if address.contains("."), let v4 = address.split(separator: ":").last { return String(v4) }
        var groups = address.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if let gap = groups.firstIndex(of: ""), groups.count < 8 || address.hasPrefix("::") {
            // Expand "::" so the first four groups are the real ones.
            let filled = groups.filter { !$0.isEmpty }
            let missing = 8 - filled.count
            let before = groups[..<gap].filter { !$0.isEmpty }
            let after = groups[gap...].filter { !$0.isEmpty }
            groups = before + Array(repeating: "0", count: max(0, missing)) + after
        }
        return groups.prefix(4).joined(separator: ":") + "::/64"
    }
}
