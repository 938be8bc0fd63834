import Foundation
import QuizCore
import QuizTestSupport
import SQLKit
import Synchronization
import Testing

@testable import QuizStore

/// Reads of the change counters that the test answers by hand, in the order they were asked for.
private final class HeldReads: Sendable {
    let asked: AsyncStream<CheckedContinuation<[Int64], any Error>>
    private let ask: AsyncStream<CheckedContinuation<[Int64], any Error>>.Continuation
    let count = Atomic<Int>(0)

    init() {
        (asked, ask) = AsyncStream.makeStream()
    }

    func load() async throws -> [Int64] {
        count.add(1, ordering: .relaxed)
        return try await withCheckedThrowingContinuation { ask.yield($0) }
    }
}

@Suite struct ChangeTrackerTests {
    /// A request must not trust a read of the counters that began before it did: a write that
    /// answered just before the request may have bumped them after that read.
    @Test func aRequestWaitsForAReadThatStartedAfterIt() async throws {
        let reads = HeldReads()
        let tracker = ChangeTracker(load: { try await reads.load() }, bump: { _ in })
        var asked = reads.asked.makeAsyncIterator()

        async let early = tracker.changed(since: tracker.ticket())
        let first = try #require(await asked.next())
        // This request arrives while the first read is in flight.
        let ticket = tracker.ticket()
        async let late = tracker.changed(since: ticket)
        first.resume(returning: [1, 1, 1, 1])
        #expect(try await early == .all, "the first look drops everything")
        let second = try #require(await asked.next(), "the late request starts a read of its own")
        second.resume(returning: [2, 1, 3, 1])
        #expect(try await late == [.catalog, .ranking])
        #expect(reads.count.load(ordering: .relaxed) == 2)
    }

    /// Requests that arrive together share one read, and a request reuses a read that started
    /// after it arrived instead of starting another.
    @Test func requestsThatArriveTogetherShareOneRead() async throws {
        let reads = HeldReads()
        let tracker = ChangeTracker(load: { try await reads.load() }, bump: { _ in })
        var asked = reads.asked.makeAsyncIterator()
        let ticket = tracker.ticket()
        let results = Task {
            try await withThrowingTaskGroup(of: ChangeKinds.self) { group in
                for _ in 0..<20 { group.addTask { try await tracker.changed(since: ticket) } }
                return try await group.reduce(into: [ChangeKinds]()) { $0.append($1) }
            }
        }
        let read = try #require(await asked.next())
        read.resume(returning: [5, 5, 5, 5])
        let kinds = try await results.value
        #expect(kinds.count == 20)
        #expect(kinds.filter { $0 == .all }.count == 1, "only the first to look drops anything")
        #expect(try await tracker.changed(since: ticket) == [], "the same request asks again: no new read")
        #expect(reads.count.load(ordering: .relaxed) == 1)

        // A request arriving now needs a new read; counters that did not move change nothing.
        async let next = tracker.changed(since: tracker.ticket())
        let again = try #require(await asked.next())
        again.resume(returning: [5, 5, 5, 5])
        #expect(try await next == [])
        #expect(reads.count.load(ordering: .relaxed) == 2)
    }

    @Test func aFailedReadFailsItsRequestsAndTheNextStartsAfresh() async throws {
        let reads = HeldReads()
        let tracker = ChangeTracker(load: { try await reads.load() }, bump: { _ in })
        var asked = reads.asked.makeAsyncIterator()
        let failing = Task { try await tracker.changed(since: tracker.ticket()) }
        try #require(await asked.next()).resume(throwing: QuizDatabase.Error.unavailable("down"))
        await #expect(throws: QuizDatabase.Error.self) { try await failing.value }
        async let next = tracker.changed(since: tracker.ticket())
        try #require(await asked.next()).resume(returning: [1, 1, 1, 1])
        #expect(try await next == .all)
    }
}

/// Two stores with caching on, each with its own pool on one PostgreSQL database: two instances.
/// What one writes, the other's very next read shows, with no time passing on the shared clock.
@Suite(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
struct SharedCacheTests {
    func withTwoStores(firstCaching: Bool = true, _ body: (CachedStore, CachedStore) async throws -> Void) async throws {
        try await TestPostgres.withFreshDatabase { url in
            let first = try await QuizDatabase.open(url, poolSize: 2)
            let second = try await QuizDatabase.open(url, poolSize: 2)
            let time = ManualTimeSource(t0)
            do {
                try await Migrations.run(on: first)
                try await body(CachedStore(SQLStore(database: first), lifetime: firstCaching ? 3600 : 0, time: time),
                               CachedStore(SQLStore(database: second), lifetime: 3600, time: time))
            } catch {
                try? await first.close()
                try? await second.close()
                throw error
            }
            try await first.close()
            try await second.close()
        }
    }

    @Test func aQuestionEditedOnOneIsServedEditedByTheOther() async throws {
        try await withTwoStores { a, b in
            _ = try await a.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(a)
            var question = try #require(try await b.questions(quizId: quizId).first)
            let generation = try await b.currentCatalogGeneration()
            question.text = "Worth one point?"
            try await a.updateQuestion(question)
            #expect(try await b.questions(quizId: quizId).first?.text == "Worth one point?")
            #expect(try await b.question(id: question.id!)?.text == "Worth one point?")
            let edited = try await b.currentCatalogGeneration()
            #expect(edited > generation, "response caches above the store are dropped too")
            // A quiz renamed on one.
            #expect(try await b.quiz(id: quizId)?.title == "Powers of two")
            try await a.update(.quiz, id: quizId, CatalogChange(name: "Twos"))
            #expect(try await b.quiz(id: quizId)?.title == "Twos")
            #expect(try await b.currentCatalogGeneration() > edited)
        }
    }

    /// An instance (or `quizbox` command) with its caches off still tells the ones that cache.
    @Test func aWriterThatCachesNothingStillTellsTheOthers() async throws {
        try await withTwoStores(firstCaching: false) { a, b in
            _ = try await a.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(a)
            #expect(try await b.quiz(id: quizId)?.title == "Powers of two")
            try await a.update(.quiz, id: quizId, CatalogChange(name: "Twos"))
            #expect(try await b.quiz(id: quizId)?.title == "Twos")
        }
    }

    @Test func aSessionEndedOrARoleChangedOnOneIsSeenByTheOther() async throws {
        try await withTwoStores { a, b in
            let ada = try await a.createUser(newUser("ada"))
            try await a.createSession(tokenHash: "h1", userId: ada.id, createdAt: t0, expiresAt: t0.addingTimeInterval(3600))
            #expect(try await b.session(tokenHash: "h1")?.user.role == .player)
            try await a.setRole(.author, username: "ada")
            #expect(try await b.session(tokenHash: "h1")?.user.role == .author)
            #expect(try await b.user(id: ada.id)?.role == .author)
            try await a.deleteSession(tokenHash: "h1")
            #expect(try await b.session(tokenHash: "h1") == nil)
        }
    }

    @Test func pointsEarnedOnOneMoveTheOthersLeaderboard() async throws {
        try await withTwoStores { a, b in
            _ = try await a.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(a)
            let ada = try await a.createUser(newUser("ada"))
            let bob = try await a.createUser(newUser("bob"))
            #expect(try await b.leaderboard(userId: ada.id, limit: 3).me.rank == 1)
            try await earn(5, user: bob.id, quizId: quizId, store: a)
            let board = try await b.leaderboard(userId: ada.id, limit: 3)
            #expect(board.top.first?.username == "bob")
            #expect(board.me.rank == 2)
            #expect(try await b.user(id: bob.id)?.points == 5)
            #expect(try await b.rank(points: 0) == 2)
            // A user registered on one is counted on the other.
            _ = try await a.createUser(newUser("cyd"))
            #expect(try await b.leaderboard(userId: ada.id, limit: 3).top.count == 3)
        }
    }

    @Test func anAnswerOrAFinishOnOneShowsInTheOthersAttempt() async throws {
        try await withTwoStores { a, b in
            _ = try await a.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(a)
            let ada = try await a.createUser(newUser("ada"))
            let question = try #require(try await a.questions(quizId: quizId).first)
            let attempt = try await a.startAttempt(userId: ada.id, quizId: quizId, at: t0)
            #expect(try await b.attempt(id: attempt.id, userId: ada.id)?.answers.isEmpty == true)
            #expect(try await a.recordAnswer(attemptId: attempt.id, questionId: question.id!, answer: "{}", isCorrect: true,
                                             points: question.points, at: t0))
            #expect(try await b.attempt(id: attempt.id, userId: ada.id)?.answers.map(\.questionId) == [question.id!])
            _ = try await a.finishAttempt(id: attempt.id, userId: ada.id, at: t0)
            #expect(try await b.attempt(id: attempt.id, userId: ada.id)?.isFinished == true)
        }
    }

    @Test func aPostOrAFollowOnOneShowsInTheOthersFeed() async throws {
        try await withTwoStores { a, b in
            let ada = try await a.createUser(newUser("ada"))
            let bob = try await a.createUser(newUser("bob"))
            #expect(try await b.feed(userId: ada.id, after: nil, limit: 20).items.isEmpty)
            _ = try await a.follow(followerId: ada.id, followeeId: bob.id, at: t0)
            _ = try await a.createPost(NewPost(userId: bob.id, body: "Hello from bob", createdAt: t0))
            let items = try await b.feed(userId: ada.id, after: nil, limit: 20).items
            #expect(items.compactMap { if case .post(let post) = $0 { post.body } else { nil } } == ["Hello from bob"])
        }
    }
}

/// A connection whose transaction could not be rolled back is closed, never lent again: the next
/// writer's COMMIT would otherwise commit the failed request's half-written rows with its own.
@Suite struct PoisonedConnectionTests {
    struct Boom: Error {}

    @Test(arguments: DatabaseKind.available)
    func aConnectionLeftInATransactionIsClosedNotReused(_ kind: DatabaseKind) async throws {
        try await withEmptyDatabase(kind) { location in
            // One connection, so a reused one would be this one.
            let database = try await QuizDatabase.open(location, poolSize: 1)
            do {
                try await database.write { db in try await db.raw("CREATE TABLE probe (x INTEGER)").run() }
                await #expect(throws: Boom.self) {
                    try await database.write { db in
                        try await db.raw(kind == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN").run()
                        try await db.raw("INSERT INTO probe (x) VALUES (1)").run()
                        // As when ROLLBACK itself failed on a live connection.
                        throw PoisonedConnection(cause: Boom())
                    }
                }
                try await database.transaction { db in try await db.raw("INSERT INTO probe (x) VALUES (2)").run() }
                let rows = try await database.read { db in try await db.raw("SELECT x FROM probe ORDER BY x").all() }
                #expect(try rows.map { try $0.decode(column: "x", as: Int.self) } == [2])
                try await database.close()
            } catch {
                try? await database.close()
                throw error
            }
        }
    }
}
