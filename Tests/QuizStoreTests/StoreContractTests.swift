import Foundation
import QuizCore
import QuizStore
import SQLKit
import Testing

/// What every store implementation must do, run against each available database.
@Suite struct StoreContractTests {
    @Test(arguments: DatabaseKind.available)
    func usernamesAreUniqueIgnoringCase(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.createUser(newUser("Ada"))
            await #expect(throws: StoreError.usernameTaken) { try await store.createUser(newUser("ADA")) }
            let found = try #require(try await store.credentials(username: "ada"))
            #expect(found.user == ada)
            #expect(found.passwordHash == "$2b$04$hash")
            #expect(try await store.user(id: ada.id)?.username == "Ada")
        }
    }

    @Test(arguments: DatabaseKind.available)
    func sessionsResolveToTheirUserUntilDeleted(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let user = try await store.createUser(newUser("grace"))
            try await store.createSession(tokenHash: "abc", userId: user.id, createdAt: t0, expiresAt: t0 + 60)
            let session = try #require(try await store.session(tokenHash: "abc"))
            #expect(session.user.id == user.id)
            #expect(session.expiresAt == t0 + 60)
            try await store.deleteSession(tokenHash: "abc")
            #expect(try await store.session(tokenHash: "abc") == nil)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func expiredSessionsAreSweptAndLiveOnesKept(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let user = try await store.createUser(newUser("linus"))
            try await store.createSession(tokenHash: "old", userId: user.id, createdAt: t0, expiresAt: t0 + 10)
            try await store.createSession(tokenHash: "new", userId: user.id, createdAt: t0, expiresAt: t0 + 100)
            #expect(try await store.deleteSessions(expiredBefore: t0 + 50) == 1)
            #expect(try await store.session(tokenHash: "old") == nil)
            #expect(try await store.session(tokenHash: "new") != nil)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func importedBankIsBrowsableInOrderAndMergesByName(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            #expect(try await store.isEmpty())
            let first = try await store.importBank(binaryQuizBank(), at: t0)
            #expect(first == ImportSummary(subjects: 1, topics: 1, quizzes: 1, questions: 5))
            let second = try await store.importBank(binaryQuizBank(), at: t0)
            #expect(second == ImportSummary(subjects: 0, topics: 0, quizzes: 1, questions: 5))
            let subjects = try await store.subjects()
            #expect(subjects.map(\.name) == ["Maths"])
            let topics = try #require(try await store.topics(subjectId: subjects[0].id))
            let quizzes = try #require(try await store.quizzes(topicId: topics[0].id))
            #expect(quizzes.count == 2)
            #expect(quizzes[0].questionCount == 5)
            #expect(quizzes[0].totalPoints == 31)
            let questions = try await store.questions(quizId: quizzes[0].id)
            #expect(questions.map(\.points) == [1, 2, 4, 8, 16])
            #expect(questions.allSatisfy { $0.body == .trueFalse(true) })
            #expect(try await store.topics(subjectId: 9_999) == nil)
            #expect(try await store.quizzes(topicId: 9_999) == nil)
            #expect(try await store.quiz(id: 9_999) == nil)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func everyQuestionKindRoundTripsThroughTheStore(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let questions: [Question] = [
                Question(text: "Pick", explanation: "Because", difficulty: .hard, points: 2, body: .singleChoice([
                    Choice(id: 1, text: "A", isCorrect: false), Choice(id: 2, text: "B", isCorrect: true),
                ])),
                Question(text: "Pick many", body: .multipleChoice([
                    Choice(id: 1, text: "A", isCorrect: true), Choice(id: 2, text: "B", isCorrect: true),
                    Choice(id: 3, text: "C", isCorrect: false),
                ])),
                Question(text: "True?", body: .trueFalse(false)),
                Question(text: "Name the song", body: .trueFalse(true),
                         audio: QuestionAudio(hash: String(repeating: "a", count: 64), type: .ogg, description: "Eight bars of a waltz", seconds: 12.345)),
                Question(text: "Capital of France?", body: .typedAnswer(["Paris", "Paree"]), timeLimitSeconds: 45),
                Question(text: "How high?", body: .numeric(value: 8848.5, tolerance: 10, unit: "m", units: [NumericUnit(name: "km", multiplier: 0.001)])),
                Question(text: "Capital of Italy?", body: .typedAnswer(["Rome"], partial: [Alternative("Roma antica", fraction: Fraction(0.25)!)])),
                Question(text: "Name them", body: .nameAll(items: [NameAllItem(answer: "Mars", alternates: ["Red planet"])],
                                                          timeLimitSeconds: 120, typoTolerance: true)),
                Question(text: "Partly", body: .singleChoice([
                    Choice(id: 1, text: "A", isCorrect: true), Choice(id: 2, text: "B", isCorrect: false, fraction: Fraction(0.25)),
                ])),
                Question(text: "Order", body: .ordering(Ordering(items: ["a", "b", "c"])), timeLimitSeconds: 240),
                Question(text: "Match", body: .matching(Matching(pairs: [.init(prompt: "x", answer: "1"), .init(prompt: "y", answer: "2")],
                                                                 extras: ["3"]))),
                Question(text: "Gaps", body: .gapFill(GapFill(text: "[[1]] and [[2]] and [[3]]", gaps: [
                    .init(.choice([Alternative("p"), Alternative("q", fraction: Fraction(-0.5)!)]), weight: 2),
                    .init(.typed([Alternative("r")])),
                    .init(.number(value: 2.5, tolerance: 0.1, units: [NumericUnit(name: "t/ha"), NumericUnit(name: "kg/ha", multiplier: 1000)])),
                ]))),
                Question(text: "Vote", body: .poll(Poll(choices: ["yes", "no"]))),
                Question(text: "Words", body: .wordCloud),
                Question(text: "Guess", body: .estimate(Estimate(minimum: -5, maximum: 5, step: 0.5, value: 1.5, margin: 2, unit: "°C"))),
                Question(text: "Read this", points: 0, body: .slide),
            ]
            let inQuiz = questions.filter { $0.kind != .nameAll }
            let bank = Bank(subjects: [BankSubject(name: "S", topics: [BankTopic(name: "T", quizzes: [
                BankQuiz(title: "Q", questions: inQuiz),
            ], questions: questions.filter { $0.kind == .nameAll })])])
            _ = try await store.importBank(bank, at: t0)
            let stored = try await store.questions(quizId: try await firstQuizId(store))
            #expect(stored.map { var q = $0; q.id = nil; return q } == inQuiz)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func exportingGivesBackWhatWasImported(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            var bank = binaryQuizBank()
            bank.subjects[0].description = "Numbers"
            bank.subjects[0].topics[0].questions = [
                Question(text: "Name the first primes", body: .nameAll(items: [NameAllItem(answer: "2"), NameAllItem(answer: "3")],
                                                                       timeLimitSeconds: 60, typoTolerance: false)),
            ]
            bank.subjects[0].topics[0].quizzes.append(BankQuiz(title: "Second", description: "More", questions: [
                Question(text: "Odd?", body: .trueFalse(false)),
            ]))
            _ = try await store.importBank(bank, at: t0)
            #expect(try await store.exportBank(.everything) == bank)
            #expect(try await store.exportBank(.topic(1)) == bank)
            let second = try await store.exportBank(.quiz(2))
            #expect(second.subjects[0].topics[0].quizzes.map(\.title) == ["Second"])
            #expect(second.subjects[0].topics[0].questions.isEmpty, "a quiz export carries only the quiz")
            await #expect(throws: StoreError.notFound) { try await store.exportBank(.topic(999)) }
            await #expect(throws: StoreError.notFound) { try await store.exportBank(.quiz(999)) }
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aFailedTransactionLeavesNothingBehind(kind: DatabaseKind) async throws {
        struct Boom: Error {}
        try await withStore(kind) { store in
            await #expect(throws: Boom.self) {
                try await store.database.transaction { db in
                    try await db.raw("INSERT INTO subjects (name, description, position) VALUES ('Half', '', 1)").run()
                    throw Boom()
                }
            }
            let empty = try await store.isEmpty()
            #expect(empty)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func anAttemptReadAgainShowsEveryAnswerAndTheFinish(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let user = try await store.createUser(newUser("ada"))
            let quizId = try await firstQuizId(store)
            let questions = try await store.questions(quizId: quizId)
            let attempt = try await store.startAttempt(userId: user.id, quizId: quizId, at: t0)
            // Each read comes right after a write, as the question page does after a POST.
            #expect(try await store.attempt(id: attempt.id, userId: user.id)?.answers.isEmpty == true)
            for (count, question) in questions.enumerated() {
                _ = try await store.recordAnswer(attemptId: attempt.id, questionId: question.id!, answer: "{}", isCorrect: true, points: 1, at: t0)
                #expect(try await store.attempt(id: attempt.id, userId: user.id)?.answers.count == count + 1)
            }
            _ = try await store.finishAttempt(id: attempt.id, userId: user.id, at: t0)
            #expect(try await store.attempt(id: attempt.id, userId: user.id)?.isFinished == true)
            let other = try await store.createUser(newUser("bob"))
            #expect(try await store.attempt(id: attempt.id, userId: other.id) == nil)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func answeringTheSameQuestionTwiceIsRecordedOnce(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let user = try await store.createUser(newUser("ada"))
            let quizId = try await firstQuizId(store)
            let question = try #require(try await store.questions(quizId: quizId).first)
            let attempt = try await store.startAttempt(userId: user.id, quizId: quizId, at: t0)
            #expect(try await store.recordAnswer(attemptId: attempt.id, questionId: question.id!, answer: "{}", isCorrect: true, points: 1, at: t0))
            #expect(try await !store.recordAnswer(attemptId: attempt.id, questionId: question.id!, answer: "{}", isCorrect: false, points: 0, at: t0))
            let stored = try #require(try await store.attempt(id: attempt.id, userId: user.id))
            #expect(stored.answers.count == 1)
            #expect(stored.answers[0].isCorrect)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func answersArrivingTogetherEachGetTheirOwnOutcome(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let user = try await store.createUser(newUser("ada"))
            let questions = try await store.questions(quizId: 1).compactMap(\.id)
            let open = try await store.startAttempt(userId: user.id, quizId: 1, at: t0)
            let done = try await store.startAttempt(userId: user.id, quizId: 1, at: t0)
            _ = try await store.finishAttempt(id: done.id, userId: user.id, at: t0)
            enum Outcome: Hashable { case stored, repeated, finished, missing }
            let outcomes = try await withThrowingTaskGroup(of: (Int64, Outcome).self) { group in
                for question in questions {
                    for _ in 0..<3 {
                        group.addTask {
                            let stored = try await store.recordAnswer(attemptId: open.id, questionId: question, answer: "{}",
                                                                      isCorrect: true, points: 1, at: t0)
                            return (question, stored ? .stored : .repeated)
                        }
                    }
                }
                for (attempt, outcome) in [(done.id, Outcome.finished), (9_999, .missing)] {
                    group.addTask {
                        do {
                            _ = try await store.recordAnswer(attemptId: attempt, questionId: questions[0], answer: "{}",
                                                             isCorrect: true, points: 1, at: t0)
                            return (-1, .stored)
                        } catch StoreError.attemptFinished where outcome == .finished {
                            return (-1, .finished)
                        } catch StoreError.notFound where outcome == .missing {
                            return (-1, .missing)
                        }
                    }
                }
                return try await group.reduce(into: [(Int64, Outcome)]()) { $0.append($1) }
            }
            for question in questions {
                let mine = outcomes.filter { $0.0 == question }.map(\.1)
                #expect(mine.filter { $0 == .stored }.count == 1)
                #expect(mine.filter { $0 == .repeated }.count == 2)
            }
            #expect(outcomes.filter { $0.1 == .finished }.count == 1)
            #expect(outcomes.filter { $0.1 == .missing }.count == 1)
            let stored = try await store.attempt(id: open.id, userId: user.id)
            #expect(stored?.answers.count == questions.count)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func someoneElsesAttemptIsNotFound(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let ada = try await store.createUser(newUser("ada"))
            let bob = try await store.createUser(newUser("bob"))
            let attempt = try await store.startAttempt(userId: ada.id, quizId: 1, at: t0)
            #expect(try await store.attempt(id: attempt.id, userId: bob.id) == nil)
            await #expect(throws: StoreError.notFound) { try await store.finishAttempt(id: attempt.id, userId: bob.id, at: t0) }
        }
    }

    @Test(arguments: DatabaseKind.available)
    func finishingTwiceAddsThePointsOnceAndRefusesLaterAnswers(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let user = try await store.createUser(newUser("ada"))
            let first = try await earn(5, user: user.id, quizId: 1, store: store, at: t0 + 30)
            #expect(first.newlyFinished)
            #expect(first.userPoints == 5)
            #expect(first.attempt.correctCount == 2)
            #expect(first.questionCount == 5)
            #expect(first.totalPoints == 31)
            #expect(first.attempt.timeTaken == 0)
            let again = try await store.finishAttempt(id: first.attempt.id, userId: user.id, at: t0 + 60)
            #expect(!again.newlyFinished)
            #expect(again.userPoints == 5)
            #expect(try await store.user(id: user.id)?.points == 5)
            await #expect(throws: StoreError.attemptFinished) {
                try await store.recordAnswer(attemptId: first.attempt.id, questionId: 1, answer: "{}", isCorrect: true, points: 1, at: t0)
            }
            #expect(try await store.quizzesFinished(userId: user.id) == 1)
            let read = try await store.score(attemptId: first.attempt.id, userId: user.id)
            #expect(read?.userPoints == 5)
            #expect(read?.attempt.points == 5)
            #expect(read?.newlyFinished == false)
            let other = try await store.createUser(newUser("bob"))
            #expect(try await store.score(attemptId: first.attempt.id, userId: other.id) == nil)
            let open = try await store.startAttempt(userId: user.id, quizId: 1, at: t0)
            #expect(try await store.score(attemptId: open.id, userId: user.id) == nil, "unfinished attempts have no score yet")
        }
    }

    @Test(arguments: DatabaseKind.available)
    func tiesShareARankAndTheNextRankSkips(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            var ids: [String: Int64] = [:]
            for (name, points) in [("ann", 30), ("bea", 20), ("cid", 20), ("dan", 10), ("eve", 0)] {
                let user = try await store.createUser(newUser(name))
                ids[name] = user.id
                try await earn(points, user: user.id, quizId: 1, store: store)
            }
            let board = try await store.leaderboard(userId: ids["eve"]!, limit: 4)
            #expect(board.top.map(\.rank) == [1, 2, 2, 4])
            #expect(board.top.map(\.username) == ["ann", "bea", "cid", "dan"])
            #expect(board.me == Ranking(rank: 5, username: "eve", points: 0))
            #expect(board.footer == board.me)

            let mine = try await store.leaderboard(userId: ids["bea"]!, limit: 3)
            #expect(mine.me.rank == 2)
            #expect(mine.footer == Ranking(rank: 5, username: "eve", points: 0), "in the top: the last-placed user is shown")

            let everyone = try await store.leaderboard(userId: ids["ann"]!, limit: 10)
            #expect(everyone.top.count == 5)
            #expect(everyone.footer == nil, "everyone is already listed")
            #expect(try await store.rank(points: 20) == 2)
            #expect(try await store.rank(points: 25) == 2)
            #expect(try await store.rank(points: 0) == 5)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func withoutCachingTheBoardAndRanksAreTheSame(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            var ids: [Int64] = []
            for (name, points) in [("ann", 30), ("bea", 20), ("cid", 20), ("dan", 10), ("eve", 0), ("fay", 0)] {
                let user = try await store.createUser(newUser(name))
                ids.append(user.id)
                try await earn(points, user: user.id, quizId: 1, store: store)
            }
            // As on PostgreSQL with several instances: nothing is kept between calls.
            let uncached = SQLStore(database: store.database)
            for id in ids {
                for limit in [1, 3, 10] {
                    #expect(try await uncached.leaderboard(userId: id, limit: limit) == store.leaderboard(userId: id, limit: limit))
                }
            }
            for points: Int64 in [0, 5, 20, 30, 99] {
                #expect(try await uncached.rank(points: points) == store.rank(points: points))
            }
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aPlayerTiedWithTheLastShownRowButNotListedGetsTheFooter(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            var last: Int64 = 0
            for name in ["ann", "bob", "cat", "zed"] {
                let user = try await store.createUser(newUser(name))
                try await earn(7, user: user.id, quizId: 1, store: store)
                last = user.id
            }
            let board = try await store.leaderboard(userId: last, limit: 3)
            #expect(board.top.map(\.rank) == [1, 1, 1])
            #expect(board.footer == Ranking(rank: 1, username: "zed", points: 7))
        }
    }

    @Test func sqliteRunsInWriteAheadLogMode() async throws {
        try await withStore(.sqlite) { store in
            let mode = try await store.database.read { db in
                try await db.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
            }
            #expect(mode == "wal")
        }
    }

    /// The first instance to ask writes the secret; every later ask, on any instance, reads it.
    @Test(arguments: DatabaseKind.available)
    func aSecretIsMadeOnceAndThenReadBack(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let first = try await store.sql.secret(named: "choices", at: Date()) { [1, 2, 254, 255] }
            #expect(first == [1, 2, 254, 255])
            let again = try await SQLStore(database: store.database).secret(named: "choices", at: Date()) { [9, 9] }
            #expect(again == first)
            #expect(try await store.sql.secret(named: "other", at: Date()) { [7] } == [7])
        }
    }

    @Test(arguments: DatabaseKind.available)
    func migrationsApplyOnce(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let appliedNow = try await Migrations.run(on: store.database)
            let applied = try await Migrations.appliedVersions(on: store.database)
            #expect(appliedNow.isEmpty)
            #expect(applied == Migrations.knownVersions)
            #expect(applied.last == Migrations.latestVersion)
        }
    }
}
