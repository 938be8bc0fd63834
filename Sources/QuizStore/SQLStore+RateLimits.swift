import Foundation
import SQLKit

extension SQLStore {
    /// Counts one attempt for each key and returns each key's count in its current window
    /// (this attempt included). A key's window opens at its first attempt and lasts `window`
    /// seconds. One upsert statement for all the keys: atomic on its own, one round trip, and
    /// instances sharing the database count together.
    public func countAttempts(keys: [String], window: TimeInterval, at now: Date) async throws -> [String: Int] {
        let unique = Set(keys).sorted()  // a statement may touch a row once; sorted, so rows lock in one order
        guard !unique.isEmpty else { return [:] }
        let expires = now.addingTimeInterval(window).millis
        var query = SQLQueryString("INSERT INTO rate_limits (limit_key, hits, expires_at) VALUES ")
        for (index, key) in unique.enumerated() {
            query.appendLiteral(index == 0 ? "(" : ", (")
            query.appendInterpolation(bind: key)
            query.appendLiteral(", 1, ")
            query.appendInterpolation(bind: expires)
            query.appendLiteral(")")
        }
        query.appendInterpolation("""
             ON CONFLICT (limit_key) DO UPDATE SET
              hits = CASE WHEN rate_limits.expires_at > \(bind: now.millis) THEN rate_limits.hits + 1 ELSE 1 END,
              expires_at = CASE WHEN rate_limits.expires_at > \(bind: now.millis) THEN rate_limits.expires_at
                           ELSE excluded.expires_at END
            RETURNING limit_key, hits
            """ as SQLQueryString)
        let finished = query
        return try await database.write { db in
            try await db.raw(finished).all().reduce(into: [String: Int]()) { counts, row in
                counts[try row.string("limit_key")] = try row.int("hits")
            }
        }
    }

    /// Drops windows that have ended, so the table holds only keys active lately.
    public func removeExpiredRateLimits(at now: Date) async throws {
        try await database.write { db in
            try await db.raw("DELETE FROM rate_limits WHERE expires_at <= \(bind: now.millis)").run()
        }
    }
}

extension SQLStore {
    /// Attempts counted for `key` in its current window, without counting one more.
    public func rateLimitHits(key: String, at now: Date) async throws -> Int {
        try await database.read { db in
            try await db.raw("SELECT hits FROM rate_limits WHERE limit_key = \(bind: key) AND expires_at > \(bind: now.millis)")
                .first().map { try $0.int("hits") } ?? 0
        }
    }
}
