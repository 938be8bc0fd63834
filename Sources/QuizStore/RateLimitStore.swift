import Foundation

/// Rate-limit counters kept in the database, so instances sharing PostgreSQL count together.
public protocol RateLimitStore: Sendable {
    /// Counts one attempt for each key; returns each key's count in its current window.
    func countAttempts(keys: [String], window: TimeInterval, at now: Date) async throws -> [String: Int]
    /// Attempts counted for `key` in its current window, without counting one more.
    func rateLimitHits(key: String, at now: Date) async throws -> Int
    func removeExpiredRateLimits(at now: Date) async throws
}

extension SQLStore: RateLimitStore {}
