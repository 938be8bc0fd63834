import Foundation
import QuizCore
import QuizStore
import QuizTestSupport
import SQLKit
import Testing

/// Writes that race. SQLite lets one writer in at a time; PostgreSQL runs them side by side, so
/// these are the checks that the store stays exact there too.
@Suite struct ConcurrentWriteTests {
    @Test(arguments: DatabaseKind.available)
    func aUsernameRegisteredTwiceAtOnceSucceedsOnce(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for name in ["Grace", "GRACE", "grace", "gRace"] {
                    group.addTask {
                        do { _ = try await store.createUser(newUser(name)); return true } catch StoreError.usernameTaken { return false } catch {
                            Issue.record("unexpected \(String(reflecting: error))")
                            return false
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            let page = try await store.users(matching: "grace", offset: 0, limit: 10)
            #expect(page.total == 1)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func demotingTwoAdminsAtOnceKeepsOne(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.createUser(newUser("ada"))
            let bob = try await store.createUser(newUser("bob"))
            _ = try await store.setRole(.admin, userId: ada.id)
            _ = try await store.setRole(.admin, userId: bob.id)
            async let first = (try? await store.setRole(.player, userId: ada.id)) != nil
            async let second = (try? await store.setRole(.player, userId: bob.id)) != nil
            let demoted = await [first, second]
            #expect(demoted.filter { $0 }.count == 1)
            let admins = try await store.users(matching: "", offset: 0, limit: 10).users.filter { $0.role == .admin }
            #expect(admins.count == 1)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func importsLandingTogetherMergeByNameAndKeepEveryQuestion(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { _ = try await store.importBank(binaryQuizBank(), at: t0) } }
                try await group.waitForAll()
            }
            let outline = try await store.outline()
            #expect(outline.map(\.name) == ["Maths"], "one subject, not one per import")
            #expect(outline.first?.topics.map(\.name) == ["Powers"])
            let quizzes = try #require(outline.first?.topics.first?.quizzes)
            #expect(quizzes.map(\.questionCount) == [5, 5, 5])
            let ids = try await store.topicQuestions(topicId: try #require(outline.first?.topics.first?.id))?.compactMap(\.id) ?? []
            #expect(Set(ids).count == 15)
        }
    }

    /// Every answer stored in a finished attempt is in its score and the player's total; one that
    /// arrives after the finish is refused, never stored uncounted.
    @Test(arguments: DatabaseKind.available)
    func answersRacingAFinishAreEitherCountedOrRefused(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(store)
            let questions = try await store.questions(quizId: quizId)
            for round in 0..<10 {
                let user = try await store.createUser(newUser("player\(round)")).id
                let attempt = try await store.startAttempt(userId: user, quizId: quizId, at: t0)
                let score = try await withThrowingTaskGroup(of: AttemptScore?.self) { group in
                    for question in questions {
                        group.addTask {
                            do {
                                _ = try await store.recordAnswer(attemptId: attempt.id, questionId: question.id!, answer: "{}",
                                                                 isCorrect: true, points: question.points, at: t0)
                            } catch StoreError.attemptFinished {}
                            return nil
                        }
                    }
                    group.addTask { try await store.finishAttempt(id: attempt.id, userId: user, at: t0) }
                    return try await group.reduce(into: AttemptScore?.none) { $0 = $0 ?? $1 }
                }
                let stored = try #require(try await store.attempt(id: attempt.id, userId: user))
                #expect(stored.points == score?.attempt.points)
                #expect(try await store.user(id: user)?.points == Int64(stored.points))
            }
        }
    }

    /// Ranks come from point buckets kept in step with every total; finishes landing together
    /// (one player finishing two attempts, others finishing theirs) must leave them exact.
    @Test(arguments: DatabaseKind.available)
    func finishesLandingTogetherKeepEveryRankExact(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(store)
            let questions = try await store.questions(quizId: quizId)
            var users: [Int64] = []
            for name in ["ada", "bob", "cy"] { users.append(try await store.createUser(newUser(name)).id) }
            // Ada plays twice, Bob and Cy once each: every attempt answers all questions right (31 points).
            // A quiz counts once at its best, so Ada's two finishes landing together add 31 once.
            let players = [users[0], users[0], users[1], users[2]]
            var attempts: [(user: Int64, attempt: Int64)] = []
            for user in players {
                let attempt = try await store.startAttempt(userId: user, quizId: quizId, at: t0)
                for question in questions {
                    _ = try await store.recordAnswer(attemptId: attempt.id, questionId: question.id!, answer: "{}",
                                                     isCorrect: true, points: question.points, at: t0)
                }
                attempts.append((user, attempt.id))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (user, attempt) in attempts {
                    group.addTask { _ = try await store.finishAttempt(id: attempt, userId: user, at: t0) }
                }
                try await group.waitForAll()
            }
            #expect(try await store.user(id: users[0])?.points == 31)
            #expect(try await store.rank(points: 31) == 1)
            let board = try await store.leaderboard(userId: users[2], limit: 3)
            #expect(board.top.map(\.points) == [31, 31, 31])
            #expect(board.top.map(\.rank) == [1, 1, 1])
            let buckets = try await store.database.read { db in
                try await db.raw("SELECT points, users FROM point_buckets ORDER BY points").all()
                    .map { "\(try $0.decode(column: "points", as: Int64.self)):\(try $0.decode(column: "users", as: Int64.self))" }
            }
            #expect(buckets == ["31:3"])
        }
    }
}

/// What only PostgreSQL can get wrong. Reported as skipped, with the reason, without a server.
@Suite(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
struct PostgresOnlyStoreTests {
    @Test func aDatabaseThatDoesNotExistIsRefusedWithTheServersReason() async throws {
        let server = try #require(TestPostgres.serverURL)
        var url = try #require(URLComponents(string: server))
        url.password = "not-shown"
        url.path = "/quizbox_no_such_database"
        let unknown = try #require(url.string)
        let error = await #expect(throws: QuizDatabase.Error.self) {
            try await QuizDatabase.postgres(url: unknown, poolSize: 1)
        }
        let message = error.map(String.init(describing:)) ?? ""
        #expect(message.contains("quizbox_no_such_database"))
        #expect(message.contains("does not exist"), "\(message)")
        #expect(!message.contains("not-shown"), "the password is never shown")
    }

    @Test func questionsAddedAfterAnImportGetFreshIds() async throws {
        try await withStore(.postgres) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let topicId = try #require(try await store.outline().first?.topics.first?.id)
            // Imported ids are explicit; the identity sequence must have been moved past them.
            let inserted = try await store.database.transaction { db in
                try await db.raw("""
                    INSERT INTO questions (topic_id, kind, text, difficulty, points, body, created_at)
                    VALUES (\(bind: topicId), 'trueFalse', 'Plain insert', 'easy', 1, '{}', 0) RETURNING id
                    """).first()?.decode(column: "id", as: Int64.self)
            }
            #expect(inserted == 6)
        }
    }

    /// Several instances starting together. (Only PostgreSQL: SQLite in one process runs every
    /// connection's blocking calls on one small thread pool, which separate processes do not share.)
    @Test func migrationsStartedTogetherApplyEachVersionOnce() async throws {
        try await withEmptyDatabase(.postgres) { location in
            // Three instances' worth of connections to one database, all starting at once.
            var databases: [QuizDatabase] = []
            for _ in 0..<3 { databases.append(try await QuizDatabase.open(location, poolSize: 1)) }
            let opened = databases
            do {
                let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                    for database in opened { group.addTask { try await Migrations.run(on: database) } }
                    return try await group.reduce(into: [Int]()) { $0 += $1 }
                }
                #expect(applied.sorted() == Migrations.knownVersions)
                #expect(try await Migrations.appliedVersions(on: opened[0]) == Migrations.knownVersions)
                let rows = try await opened[0].read { db in
                    try await db.raw("SELECT COUNT(*) AS n FROM schema_migrations").first()?.decode(column: "n", as: Int.self)
                }
                #expect(rows == Migrations.knownVersions.count)
            } catch {
                for database in opened { try? await database.close() }
                throw error
            }
            for database in opened { try await database.close() }
        }
    }

    /// Instances sharing PostgreSQL count rate limits in one table: attempts at once are all
    /// counted, and a key's window starts afresh once it has passed.
    @Test(arguments: DatabaseKind.available)
    func attemptsCountedAtOnceAreEachCountedOnce(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await store.countAttempts(keys: ["user:ada", "ip:1"], window: 60, at: t0)["user:ada"] ?? 0 }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counts.sorted() == Array(1...20))
            let later = try await store.countAttempts(keys: ["user:ada", "ip:1"], window: 60, at: t0.addingTimeInterval(59))
            #expect(later == ["user:ada": 21, "ip:1": 21])
            try await store.removeExpiredRateLimits(at: t0.addingTimeInterval(59))
            let fresh = try await store.countAttempts(keys: ["user:ada"], window: 60, at: t0.addingTimeInterval(60))
            #expect(fresh == ["user:ada": 1])
            try await store.removeExpiredRateLimits(at: t0.addingTimeInterval(121))
            #expect(try await store.countAttempts(keys: ["ip:1"], window: 60, at: t0.addingTimeInterval(121)) == ["ip:1": 1])
        }
    }
}
