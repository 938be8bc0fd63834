import Foundation
import QuizCore
import QuizStore
import Testing

/// Practice rounds, question clocks, questions on their own and name-them-all games, on every database.
@Suite struct PlayStoreContractTests {
    @Test(arguments: DatabaseKind.available)
    func aPracticeRoundIsStoredWhollyOrNotAtAll(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let user = try await store.createUser(newUser("ada"))
            let ids = try await store.practiceCandidates().map(\.id)
            let listed = try await store.allQuizzes().count
            // A repeated question breaks the round's primary key halfway through: nothing may remain.
            await #expect(throws: (any Error).self) {
                _ = try await store.startPractice(userId: user.id, settings: PracticeSettings(count: 2), title: "Practice",
                                                  questionIds: [ids[0], ids[0]], at: t0)
            }
            #expect(try await store.seenQuestions(userId: user.id).isEmpty)
            #expect(try await store.practiceSettings(userId: user.id) == nil)

            let settings = PracticeSettings(difficulty: .hard, count: 2, order: .bankOrder, timeLimitSeconds: 30)
            let attempt = try await store.startPractice(userId: user.id, settings: settings, title: "Practice · 2 questions",
                                                        questionIds: [ids[1], ids[0]], at: t0)
            #expect(try await store.questions(quizId: attempt.quizId).map(\.id) == [ids[1], ids[0]])
            let quiz = try #require(try await store.quiz(id: attempt.quizId))
            #expect(quiz.practiceUserId == user.id)
            #expect(quiz.timeLimitSeconds == 30)
            #expect(try await store.allQuizzes().count == listed, "a practice round is not in the catalog")
            #expect(try await store.seenQuestions(userId: user.id) == [ids[0], ids[1]])
            #expect(try await store.practiceSettings(userId: user.id) == settings)
            try await store.forgetSeenQuestions(userId: user.id)
            #expect(try await store.seenQuestions(userId: user.id).isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aQuestionsClockStartsTheFirstTimeItIsShown(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let user = try await store.createUser(newUser("ada"))
            let ids = try await store.practiceCandidates().map(\.id)
            let attempt = try await store.startPractice(userId: user.id, settings: PracticeSettings(count: 1), title: "P",
                                                        questionIds: [ids[0]], at: t0)
            #expect(try await store.shownAt(attemptId: attempt.id, questionId: ids[0]) == nil)
            #expect(try await store.markShown(attemptId: attempt.id, questionId: ids[0], at: t0) == t0)
            #expect(try await store.markShown(attemptId: attempt.id, questionId: ids[0], at: t0 + 50) == t0)
            #expect(try await store.shownAt(attemptId: attempt.id, questionId: ids[0]) == t0)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aQuestionAnsweredOnItsOwnCountsOncePerDay(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let ada = try await store.createUser(newUser("ada"))
            let bob = try await store.createUser(newUser("bob"))
            let question = try #require(try await store.practiceCandidates().first?.id)
            let first = try await store.recordSingleAnswer(userId: ada.id, questionId: question, answer: "{}", isCorrect: true, points: 2, at: t0)
            #expect(first.counted && first.pointsAwarded == 2)
            let again = try await store.recordSingleAnswer(userId: ada.id, questionId: question, answer: "{}", isCorrect: true, points: 2, at: t0 + 60)
            #expect(!again.counted && again.pointsAwarded == 0)
            let tomorrow = try await store.recordSingleAnswer(userId: ada.id, questionId: question, answer: "{}", isCorrect: true, points: 2, at: t0 + 86_400)
            #expect(tomorrow.counted && tomorrow.pointsAwarded == 2)
            #expect(try await store.user(id: ada.id)?.points == 4)
            #expect(try await store.leaderboard(userId: bob.id, limit: 3).top.first?.username == "ada")
            #expect(try await store.singleAnswer(id: again.id, userId: ada.id) == again)
            #expect(try await store.singleAnswer(id: again.id, userId: bob.id) == nil)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aGameCountsEachFindAndItsEndOnce(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let items = ["Red", "Green", "Blue"].map { NameAllItem(answer: $0) }
            _ = try await store.importBank(Bank(subjects: [BankSubject(name: "Art", topics: [BankTopic(name: "Colour", questions: [
                Question(text: "Name the primary colours of light.", body: .nameAll(items: items, timeLimitSeconds: 60, typoTolerance: false)),
            ])])]), at: t0)
            let user = try await store.createUser(newUser("ada"))
            let listed = try await store.nameAllQuestions()
            #expect(listed.map(\.topicName) == ["Colour"])
            let game = try await store.startGame(userId: user.id, questionId: try #require(listed.first?.question.id), at: t0)
            #expect(try await store.recordFind(gameId: game.id, item: 2, at: t0 + 1))
            #expect(try await !store.recordFind(gameId: game.id, item: 2, at: t0 + 2))
            #expect(try await store.recordFind(gameId: game.id, item: 0, at: t0 + 3))
            #expect(try await store.game(id: game.id)?.found == [2, 0])
            #expect(try await store.endGame(id: game.id, reason: .gaveUp, at: t0 + 4, points: 2))
            #expect(try await !store.endGame(id: game.id, reason: .timeUp, at: t0 + 60, points: 2))
            let stored = try #require(try await store.game(id: game.id))
            #expect(stored.endReason == .gaveUp && stored.endedAt == t0 + 4 && stored.points == 2)
            #expect(try await store.user(id: user.id)?.points == 2)
            await #expect(throws: StoreError.notFound) {
                _ = try await store.startGame(userId: user.id, questionId: 999, at: t0)
            }
        }
    }
}
