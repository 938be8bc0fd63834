import Foundation
import SQLKit

extension SQLStore {
    /// Counts one attempt for each key and returns each key's count in its current window
    /// (this attempt included). A key's window opens at its first attempt and lasts `window`
    /// seconds. One upsert per key, so instances sharing the database count together.
    public func countAttempts(keys: [String], window: TimeInterval, at now: Date) async throws -> [String: Int] {
        let expires = now.addingTimeInterval(window).millis
        return try await database.transaction { db in
            var counts: [String: Int] = [:]
            // Sorted, so two transactions touching the same keys lock them in one order.
            for key in Set(keys).sorted() {
                let row = try await db.raw("""
                    INSERT INTO rate_limits (limit_key, hits, expires_at) VALUES (\(bind: key), 1, \(bind: expires))
                    ON CONFLICT (limit_key) DO UPDATE SET
                      hits = CASE WHEN rate_limits.expires_at > \(bind: now.millis) THEN rate_limits.hits + 1 ELSE 1 END,
                      expires_at = CASE WHEN rate_limits.expires_at > \(bind: now.millis) THEN rate_limits.expires_at
                                   ELSE excluded.expires_at END
                    RETURNING hits
                    """).first()
                counts[key] = try row?.int("hits") ?? 1
            }
            return counts
        }
    }

    /// Drops windows that have ended, so the table holds only keys active lately.
    public func removeExpiredRateLimits(at now: Date) async throws {
        try await database.write { db in
            try await db.raw("DELETE FROM rate_limits WHERE expires_at <= \(bind: now.millis)").run()
        }
    }
}
