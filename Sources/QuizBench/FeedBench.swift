import Foundation
import QuizCore
import QuizStore
import SQLKit

/// A feed over 1,000,000 posts: 10,000 people post (100 posts each on average), the reader
/// follows 1,000 of them. `QuizBench feed` seeds a fresh SQLite file and times the store's feed
/// pages in-process; `QuizBench feed <database> <username>` seeds an existing database (a SQLite
/// file or a postgres:// URL, as scripts/bench leaves it) for `username`, for wrk to read over HTTP.
enum FeedBench {
    static let posts = 1_000_000
    static let authors = 10_000
    static let follows = 1_000

    static func run(location: String?, username: String?) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quizbench-feed-\(UUID().uuidString).sqlite").path
        defer { if location == nil { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } } }
        let database = try await QuizDatabase.open(location ?? path, poolSize: 2)
        try await Migrations.run(on: database)
        let store = CachedStore(SQLStore(database: database), lifetime: 0)
        let name = username ?? "reader"
        if username == nil {
            _ = try await store.createUser(NewUser(username: name, firstName: "Feed", lastName: "Reader", passwordHash: "!", role: .player, createdAt: Date()))
        }
        guard let reader = try await store.socialProfile(username: name, viewerId: nil) else {
            throw CocoaError(.userCancelled, userInfo: [NSLocalizedDescriptionKey: "no user \(name)"])
        }
        let seeding = ContinuousClock.now
        try await seed(database, readerId: reader.userId)
        print("seeded \(posts) posts by \(authors) people, \(name) following \(follows) of them, in \(ContinuousClock.now - seeding)")
        if location == nil { try await time(store, readerId: reader.userId) }
        try await database.close()
    }

    static func seed(_ database: QuizDatabase, readerId: Int64) async throws {
        func series(_ count: Int) -> String {
            database.dialect == .sqlite
                ? "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count)) SELECT i FROM n"
                : "SELECT generate_series(1, \(count)) AS i"
        }
        try await database.transaction { db in
            let first = (try await db.raw("SELECT COALESCE(MAX(id), 0) AS n FROM users").first()?.decode(column: "n", as: Int64.self) ?? 0) + 1
            try await db.raw("""
                INSERT INTO users (username, username_key, first_name, last_name, password_hash, role, points, created_at)
                SELECT 'poster' || i, 'poster' || i, 'Poster', 'N' || i, '!', 'player', 0, 0 FROM (\(unsafeRaw: series(authors))) AS s
                """ as SQLQueryString).run()
            try await db.raw("""
                INSERT INTO point_buckets (points, users) VALUES (0, \(bind: authors))
                ON CONFLICT (points) DO UPDATE SET users = point_buckets.users + \(bind: authors)
                """).run()
            // Spread over every author, interleaved as posts arrive in real life.
            try await db.raw("""
                INSERT INTO posts (user_id, body, created_at)
                SELECT \(unsafeRaw: String(first)) + (CAST(i AS BIGINT) * 7919) % \(unsafeRaw: String(authors)),
                  'Post number ' || i || ': something worth sharing about today''s quiz.', CAST(i AS BIGINT) * 1000
                FROM (\(unsafeRaw: series(posts))) AS s
                """ as SQLQueryString).run()
            try await db.raw("""
                INSERT INTO follows (follower_id, followee_id, created_at)
                SELECT \(bind: readerId), id, 0 FROM users
                WHERE id >= \(bind: first) AND id < \(bind: first + Int64(authors)) AND (id - \(bind: first)) % \(bind: Int64(authors / follows)) = 0
                """).run()
        }
        if database.dialect == .postgres {
            try await database.write { db in try await db.raw("ANALYZE").run() }
        }
    }

    static func time(_ store: CachedStore, readerId: Int64) async throws {
        for (label, depth) in [("first page", 0), ("fifth page", 4)] {
            var cursor: FeedCursor?
            for _ in 0..<depth { cursor = try await store.feed(userId: readerId, after: cursor, limit: 20).next }
            var times: [Double] = []
            for _ in 0..<2_000 {
                let start = ContinuousClock.now
                let page = try await store.feed(userId: readerId, after: cursor, limit: 20)
                let elapsed = ContinuousClock.now - start
                precondition(page.items.count >= 20)
                times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            }
            times.sort()
            print("| feed \(label), \(follows) follows, \(posts) posts, SQLite, in-process | "
                  + "\(Int(Double(times.count) / (times.reduce(0, +) / 1000))) pages/s | \(String(format: "%.2f", times[times.count / 2])) ms | "
                  + "\(String(format: "%.2f", times[times.count * 99 / 100])) ms |")
        }
    }
}
