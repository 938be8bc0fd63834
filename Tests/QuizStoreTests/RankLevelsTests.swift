import Foundation
import QuizCore
import QuizStore
import QuizTestSupport
import SQLKit
import Testing

/// Ranks come from `point_buckets` and the coarser `point_ranges` (migration 8) instead of
/// counting users. These check them against the count they replace, on totals that cross every
/// level's boundaries, on both databases, and with writers racing.
@Suite struct RankLevelsTests {
    /// Totals on both sides of every range boundary (64, 4,096, 262,144), ties, and big ones.
    static let edges: [Int64] = [0, 1, 63, 64, 65, 127, 128, 4_095, 4_096, 4_097, 8_191, 262_143, 262_144, 262_145, 524_288, 1_000_000]

    @Test(arguments: DatabaseKind.available)
    func everyRankEqualsACountOfTheUsersAheadOnRandomTotals(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let question = try await someQuestion(store)
            var generator = SystemRandomNumberGenerator()
            var users: [Int64] = []
            for index in 0..<40 { users.append(try await store.createUser(newUser("player\(index)")).id) }
            // Several raises each, so users move between ranges on every level, some to the same total.
            for (index, user) in users.enumerated() {
                for step in 0..<Int.random(in: 0...3, using: &generator) {
                    let points = index % 5 == 0 ? Int(Self.edges.randomElement(using: &generator)!) + 1 : Int.random(in: 1...600_000, using: &generator)
                    try await raise(store, user: user, by: points, question: question, day: step)
                }
            }
            // And a tie for certain: a newcomer raised to the same total as the first player.
            try await raise(store, user: users[0], by: 4_096, question: question, day: 10)
            let twin = try await store.createUser(newUser("twin")).id
            try await raise(store, user: twin, by: Int(try await points(store, users[0])), question: question, day: 0)
            users.append(twin)

            try await expectRanksMatchACount(store, users: users)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func writersRacingOnTheSameRangesLoseNothing(kind: DatabaseKind) async throws {
        try await withEmptyDatabase(kind) { location in
            // A pool big enough for the writers to really run side by side on PostgreSQL.
            let database = try await QuizDatabase.open(location, poolSize: 8)
            do {
                try await Migrations.run(on: database)
                let store = CachedStore(SQLStore(database: database))
                let question = try await someQuestion(store)
                var users: [Int64] = []
                for index in 0..<6 { users.append(try await store.createUser(newUser("racer\(index)")).id) }
                // Every user gets 30 raises at once, sized to cross 64s, 4,096s and 262,144s, so the
                // same rows are decremented and incremented by many transactions together.
                let raises = (0..<30).map { step in [3, 61, 64, 4_000, 70_000, 262_144][step % 6] }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for user in users {
                        for (day, amount) in raises.enumerated() {
                            group.addTask { try await raise(store, user: user, by: amount, question: question, day: day) }
                        }
                    }
                    try await group.waitForAll()
                }
                let expected = Int64(raises.reduce(0, +))
                for user in users { #expect(try await points(store, user) == expected, "no raise lost") }
                try await expectRanksMatchACount(store, users: users)
                try await database.close()
            } catch {
                try? await database.close()
                throw error
            }
        }
    }

    @Test(arguments: DatabaseKind.available)
    func migrationEightFillsTheRangesFromTheBucketsAlreadyThere(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let question = try await someQuestion(store)
            var users: [Int64] = []
            for (index, points) in [5, 70, 70, 5_000, 300_000, 0].enumerated() {
                let user = try await store.createUser(newUser("early\(index)")).id
                if points > 0 { try await raise(store, user: user, by: points, question: question, day: 0) }
                users.append(user)
            }
            // As a database from before version 8: no ranges, the migration not recorded.
            try await store.database.transaction { db in
                try await db.raw("DROP TABLE point_ranges").run()
                try await db.raw("DELETE FROM schema_migrations WHERE version = 8").run()
            }
            #expect(try await Migrations.run(on: store.database) == [8])
            try await expectRanksMatchACount(store, users: users)
        }
    }
}

/// Adds `points` to `user` through the one write path (a question answered on its own, which
/// counts once per question per day).
private func raise(_ store: CachedStore, user: Int64, by points: Int, question: Int64, day: Int) async throws {
    let answer = try await store.recordSingleAnswer(userId: user, questionId: question, answer: "{}", isCorrect: true, points: points,
                                                    at: t0.addingTimeInterval(Double(day) * 86_400))
    #expect(answer.pointsAwarded == points)
}

private func someQuestion(_ store: CachedStore) async throws -> Int64 {
    _ = try await store.importBank(binaryQuizBank(), at: t0)
    return try #require(try await store.questions(quizId: try await firstQuizId(store)).first?.id)
}

private func points(_ store: CachedStore, _ user: Int64) async throws -> Int64 {
    try await store.database.read { db in
        try await db.raw("SELECT points FROM users WHERE id = \(bind: user)").first()?.decode(column: "points", as: Int64.self) ?? -1
    }
}

/// The buckets and every level of ranges hold exactly what grouping the users gives, and every
/// rank (the board's, uncached and cached, and `rank(points:)` for totals nobody holds) is one
/// more than a count of the users with more points.
private func expectRanksMatchACount(_ store: CachedStore, users: [Int64]) async throws {
    let rows: (buckets: [String], grouped: [String], ranges: [String], groupedRanges: [String], totals: [Int64]) =
        try await store.database.read { db in
            func strings(_ sql: SQLQueryString) async throws -> [String] {
                try await db.raw(sql).all().map { row in
                    try row.allColumns.map { String(try row.decode(column: $0, as: Int64.self)) }.joined(separator: ":")
                }
            }
            let buckets = try await strings("SELECT points, users FROM point_buckets ORDER BY points")
            let grouped = try await strings("SELECT points, COUNT(*) AS n FROM users GROUP BY points ORDER BY points")
            let ranges = try await strings("SELECT CAST(level AS BIGINT) AS level, bucket, users FROM point_ranges ORDER BY level, bucket")
            var groupedRanges: [String] = []
            for (level, shift) in [(1, 6), (2, 12), (3, 18)] {
                groupedRanges += try await strings("""
                    SELECT CAST(\(literal: level) AS BIGINT) AS level, points >> \(literal: shift) AS bucket, COUNT(*) AS n
                    FROM users GROUP BY points >> \(literal: shift) ORDER BY 2
                    """)
            }
            let totals = try await db.raw("SELECT points FROM users").all().map { try $0.decode(column: "points", as: Int64.self) }
            return (buckets, grouped, ranges, groupedRanges, totals)
        }
    #expect(rows.buckets == rows.grouped, "point_buckets holds one row per total held, with its users")
    #expect(rows.ranges == rows.groupedRanges, "point_ranges holds one row per range held, on every level")

    func counted(_ points: Int64) -> Int64 { Int64(rows.totals.filter { $0 > points }.count) + 1 }
    let uncached = SQLStore(database: store.database)
    for user in users {
        let board = try await uncached.leaderboard(userId: user, limit: 3)
        #expect(board.me.rank == counted(board.me.points), "rank of \(board.me.points) points")
        #expect(board.top.allSatisfy { $0.rank == counted($0.points) })
        if let footer = board.footer { #expect(footer.rank == counted(footer.points)) }
        #expect(try await store.leaderboard(userId: user, limit: 3) == board, "the cached board agrees")
    }
    var probes = RankLevelsTests.edges + rows.totals
    for total in rows.totals { probes += [total - 1, total + 1] }
    for points in probes {
        #expect(try await uncached.rank(points: points) == counted(points), "rank(points: \(points))")
    }
}
