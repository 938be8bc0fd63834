import Foundation
import QuizCore
import QuizStore
import SQLKit

/// "Top 3 + me" over 1,000,000 users, uncached (as on PostgreSQL, where caching is off by
/// default), on SQLite or on the PostgreSQL database at `url`.
enum LeaderboardBench {
    static func run(postgresURL: String?, users: Int = 1_000_000) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quizbench-board-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database: QuizDatabase
        if let postgresURL {
            database = try await QuizDatabase.postgres(url: postgresURL, poolSize: 2)
        } else {
            database = try await QuizDatabase.sqlite(path: path, poolSize: 2)
        }
        try await Migrations.run(on: database)
        let isSQLite = postgresURL == nil
        let series = isSQLite
            ? "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(users)) SELECT i FROM n"
            : "SELECT generate_series(1, \(users)) AS i"
        let seeding = ContinuousClock.now
        try await database.transaction { db in
            try await db.raw("""
                INSERT INTO users (username, username_key, first_name, last_name, password_hash, role, points, created_at)
                SELECT 'player' || i, 'player' || i, 'Player', 'N', '!', 'player', (CAST(i AS BIGINT) * 7919) % 5000, 0 FROM (\(unsafeRaw: series)) AS s
                """ as SQLQueryString).run()
            try await db.raw("DELETE FROM point_buckets").run()
            try await db.raw("INSERT INTO point_buckets (points, users) SELECT points, COUNT(*) FROM users GROUP BY points").run()
            for statement in PointLevels.rebuild { try await db.raw(SQLQueryString(statement)).run() }
        }
        let seeded = ContinuousClock.now - seeding
        let store = CachedStore(SQLStore(database: database), lifetime: 0)
        var generator = SplitMix(seed: 3)
        for _ in 0..<100 { _ = try await store.leaderboard(userId: Int64(generator.next() % UInt64(users)) + 1, limit: 3) }
        var times: [Double] = []
        for _ in 0..<2_000 {
            let id = Int64(generator.next() % UInt64(users)) + 1
            let start = ContinuousClock.now
            let board = try await store.leaderboard(userId: id, limit: 3)
            let elapsed = ContinuousClock.now - start
            precondition(board.top.count == 3)
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        try await database.close()
        times.sort()
        let name = isSQLite ? "SQLite" : "PostgreSQL"
        print("| leaderboard top 3 + me, \(users) users, \(name), uncached (seeded in \(seeded)) | \(Int(Double(times.count) / (times.reduce(0, +) / 1000))) boards/s | "
              + "\(String(format: "%.2f", times[times.count / 2])) ms | \(String(format: "%.2f", times[times.count * 99 / 100])) ms | p99 < 2 ms |")
    }
}
