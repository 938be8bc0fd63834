import Foundation
import QuizCore
import QuizStore
import Testing

/// A `CachedStore` beside a bare `SQLStore` on the same database, as a server beside SQL typed by
/// hand: the bare store's writes tell no one, so the cached reads show them once their lifetime
/// has passed, or once a write of the same kind through the `CachedStore` drops them (on
/// PostgreSQL too: the change counters hear only of writes through a `CachedStore`). Reads through
/// the bare store always go to the database.
@Suite struct CachedStoreTests {
    static let lifetime: TimeInterval = 60

    func withStores(_ kind: DatabaseKind, _ body: (CachedStore, SQLStore, ManualTimeSource) async throws -> Void) async throws {
        try await withDatabase(kind) { database in
            let time = ManualTimeSource(t0)
            try await body(CachedStore(SQLStore(database: database), lifetime: Self.lifetime, time: time), SQLStore(database: database), time)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aBareStoresCatalogEditShowsOnceTheLifetimeHasPassed(kind: DatabaseKind) async throws {
        try await withStores(kind) { cached, bare, time in
            _ = try await cached.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(cached)
            var question = try #require(try await cached.questions(quizId: quizId).first)
            let questionId = try #require(question.id)
            #expect(try await cached.quiz(id: quizId)?.title == "Powers of two")
            #expect(try await cached.question(id: questionId)?.text == "Worth 1?")
            let generation = try await cached.currentCatalogGeneration()
            question.text = "Worth one point?"
            try await bare.updateQuestion(question)
            try await bare.update(.quiz, id: quizId, CatalogChange(name: "Twos"))
            #expect(try await bare.quiz(id: quizId)?.title == "Twos", "the bare store reads the database")
            #expect(try await bare.questions(quizId: quizId).first?.text == "Worth one point?")
            #expect(try await cached.quiz(id: quizId)?.title == "Powers of two", "nobody told the cache")
            #expect(try await cached.questions(quizId: quizId).first?.text == "Worth 1?")
            #expect(try await cached.question(id: questionId)?.text == "Worth 1?")
            #expect(try await cached.currentCatalogGeneration() == generation)
            time.advance(by: Self.lifetime - 1)
            #expect(try await cached.quiz(id: quizId)?.title == "Powers of two", "still within the lifetime")
            time.advance(by: 2)
            #expect(try await cached.quiz(id: quizId)?.title == "Twos")
            #expect(try await cached.questions(quizId: quizId).first?.text == "Worth one point?")
            #expect(try await cached.question(id: questionId)?.text == "Worth one point?")
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aWriteThroughTheCachedStoreDropsItsKindWhole(kind: DatabaseKind) async throws {
        try await withStores(kind) { cached, bare, _ in
            _ = try await cached.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(cached)
            #expect(try await cached.quiz(id: quizId)?.title == "Powers of two")
            try await bare.update(.quiz, id: quizId, CatalogChange(name: "Twos"))
            #expect(try await cached.quiz(id: quizId)?.title == "Powers of two")
            let generation = try await cached.currentCatalogGeneration()
            try await cached.update(.quiz, id: quizId, CatalogChange(description: "Doubling"))
            #expect(try await cached.quiz(id: quizId)?.title == "Twos", "the bare store's edit shows with this one")
            #expect(try await cached.currentCatalogGeneration() > generation)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aBareStoresRoleChangeAndLogOutShowOnceTheLifetimeHasPassed(kind: DatabaseKind) async throws {
        try await withStores(kind) { cached, bare, time in
            let ada = try await cached.createUser(newUser("ada"))
            try await bare.createSession(tokenHash: "h1", userId: ada.id, createdAt: t0, expiresAt: t0.addingTimeInterval(7200))
            #expect(try await cached.session(tokenHash: "h1")?.user.role == .player)
            #expect(try await cached.user(id: ada.id)?.role == .player)
            try await bare.setRole(.author, username: "ada")
            #expect(try await bare.user(id: ada.id)?.role == .author)
            #expect(try await cached.session(tokenHash: "h1")?.user.role == .player)
            #expect(try await cached.user(id: ada.id)?.role == .player)
            time.advance(by: Self.lifetime + 1)
            #expect(try await cached.session(tokenHash: "h1")?.user.role == .author)
            #expect(try await cached.user(id: ada.id)?.role == .author)
            try await bare.deleteSession(tokenHash: "h1")
            #expect(try await bare.session(tokenHash: "h1") == nil)
            #expect(try await cached.session(tokenHash: "h1") != nil, "a log-out elsewhere waits for the lifetime")
            time.advance(by: Self.lifetime + 1)
            #expect(try await cached.session(tokenHash: "h1") == nil)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aBareStoresAnswersAndPointsShowOnceTheLifetimeHasPassed(kind: DatabaseKind) async throws {
        try await withStores(kind) { cached, bare, time in
            _ = try await cached.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(cached)
            let ada = try await cached.createUser(newUser("ada"))
            let bob = try await cached.createUser(newUser("bob"))
            let question = try #require(try await cached.questions(quizId: quizId).last)
            let attempt = try await bare.startAttempt(userId: bob.id, quizId: quizId, at: t0)
            #expect(try await cached.attempt(id: attempt.id, userId: bob.id)?.answers.isEmpty == true)
            #expect(try await cached.leaderboard(userId: ada.id, limit: 3).me.rank == 1)
            #expect(try await cached.user(id: bob.id)?.points == 0)
            #expect(try await bare.recordAnswer(attemptId: attempt.id, questionId: question.id!, answer: "{}", isCorrect: true,
                                                points: question.points, at: t0))
            #expect(try await bare.finishAttempt(id: attempt.id, userId: bob.id, at: t0).userPoints == 16)
            #expect(try await bare.leaderboard(userId: ada.id, limit: 3).me.rank == 2)
            #expect(try await bare.rank(points: 0) == 2)
            #expect(try await cached.attempt(id: attempt.id, userId: bob.id)?.answers.isEmpty == true, "nobody told the cache")
            #expect(try await cached.leaderboard(userId: ada.id, limit: 3).me.rank == 1)
            #expect(try await cached.rank(points: 0) == 1)
            #expect(try await cached.user(id: bob.id)?.points == 0, "a cached user keeps their points")
            time.advance(by: Self.lifetime + 1)
            let attemptNow = try await cached.attempt(id: attempt.id, userId: bob.id)
            #expect(attemptNow?.answers.map(\.questionId) == [question.id!])
            #expect(attemptNow?.isFinished == true)
            let board = try await cached.leaderboard(userId: ada.id, limit: 3)
            #expect(board.top.first?.username == "bob")
            #expect(board.me.rank == 2)
            #expect(try await cached.rank(points: 0) == 2)
            #expect(try await cached.user(id: bob.id)?.points == 16)
        }
    }
}
