import Foundation
import QuizCore
import QuizStore
import QuizTestSupport
import Testing

/// An assignment of `quizId` open from t0 for an hour, a player "Ann" without an account, and her
/// first attempt (of up to `allowed`).
func assignmentWithAttempt(_ store: SQLStore, quizId: Int64, owner: Int64, code: String = "123456", allowed: Int = 1) async throws
    -> (Assignment, AssignmentAttemptRecord) {
    let questions = try await store.questions(quizId: quizId).compactMap(\.id)
    let assignment = try #require(try await store.createAssignment(Assignment(
        code: code, quizId: quizId, ownerUserId: owner, title: "Homework", questionIds: questions, opensAt: t0, closesAt: t0 + 3600,
        settings: AssignmentSettings(attemptsAllowed: allowed), createdAt: t0)))
    let player = try #require(try await store.addAssignmentPlayer(AssignmentPlayerRecord(
        assignmentId: assignment.id, nickname: "Ann", userId: nil, secretHash: "s", codeHash: "c", joinedAt: t0)))
    let attempt = try #require(try await store.startAssignmentAttempt(playerId: player.id, questionIds: questions, maxMarks: 5_000,
                                                                       allowed: allowed, at: t0))
    return (assignment, attempt)
}

/// Assignments, their players, attempts and answers, on every database.
@Suite struct AssignmentStoreTests {
    private func setUp(_ store: CachedStore) async throws -> (quizId: Int64, owner: Int64) {
        _ = try await store.importBank(binaryQuizBank(), at: t0)
        return (try await firstQuizId(store), try await store.createUser(newUser("teacher")).id)
    }

    @Test(arguments: DatabaseKind.available)
    func anAssignmentIsReadBackByIdAndCodeAndItsCodeIsItsOwn(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let (quizId, owner) = try await setUp(cached)
            let store = cached.sql
            let settings = AssignmentSettings(attemptsAllowed: 3, grading: .average, timing: .questionsOwn, speedPoints: true,
                                              shuffleQuestions: true, answersShown: .afterClose)
            let draft = Assignment(code: "654321", quizId: quizId, ownerUserId: owner, title: "Week 1", questionIds: [3, 1, 2],
                                   opensAt: t0, closesAt: t0 + 86_400, settings: settings, createdAt: t0)
            let created = try #require(try await store.createAssignment(draft))
            #expect(try await store.assignment(id: created.id) == created)
            #expect(try await store.assignment(code: "654321") == created)
            #expect(try await store.createAssignment(draft) == nil, "the code is taken")
            try await store.setAssignmentWindow(id: created.id, opensAt: t0 + 10, closesAt: t0 + 20)
            #expect(try await store.assignment(id: created.id)?.closesAt == t0 + 20)
            #expect(try await store.assignments(ownerUserId: owner, limit: 10, at: t0).map(\.assignment.id) == [created.id])
            #expect(try await store.assignments(ownerUserId: owner + 1, limit: 10, at: t0).isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aNicknameTooLikeOneTakenAndASecondJoinOfAUserAreRefused(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let (quizId, owner) = try await setUp(cached)
            let store = cached.sql
            let (assignment, _) = try await assignmentWithAttempt(store, quizId: quizId, owner: owner)
            func player(_ name: String, user: Int64? = nil) -> AssignmentPlayerRecord {
                AssignmentPlayerRecord(assignmentId: assignment.id, nickname: name, userId: user, secretHash: "s", codeHash: "c", joinedAt: t0)
            }
            #expect(try await store.addAssignmentPlayer(player("ÀNN")) == nil, "Ann joined")
            let teacher = try #require(try await store.addAssignmentPlayer(player("teacher", user: owner)))
            #expect(try await store.addAssignmentPlayer(player("teacher (2)", user: owner)) == nil)
            #expect(try await store.assignmentPlayer(assignmentId: assignment.id, userId: owner) == teacher)
            #expect(try await store.assignmentPlayer(assignmentId: assignment.id, nickname: "ann")?.nickname == "Ann")
            try await store.replaceAssignmentSecret(playerId: teacher.id, secretHash: "new")
            #expect(try await store.assignmentPlayer(id: teacher.id)?.secretHash == "new")
            #expect(try await store.assignmentPlayers(assignmentId: assignment.id).map(\.nickname) == ["Ann", "teacher"])
            #expect(try await store.assignments(ownerUserId: owner, limit: 10, at: t0).first?.players == 2)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func attemptsAreNumberedOneAtATimeUpToTheAllowed(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let (quizId, owner) = try await setUp(cached)
            let store = cached.sql
            let (_, first) = try await assignmentWithAttempt(store, quizId: quizId, owner: owner, allowed: 2)
            let again = try await store.startAssignmentAttempt(playerId: first.playerId, questionIds: [9], maxMarks: 1, allowed: 2, at: t0 + 5)
            #expect(again == first, "the unfinished attempt is given back")
            #expect(try await store.finishAssignmentAttempt(id: first.id, at: t0 + 60, pointsTo: nil) == 0)
            #expect(try await store.finishAssignmentAttempt(id: first.id, at: t0 + 70, pointsTo: nil) == nil)
            let second = try #require(try await store.startAssignmentAttempt(playerId: first.playerId, questionIds: first.questionIds.reversed(),
                                                                             maxMarks: 5_000, allowed: 2, at: t0 + 80))
            #expect(second.number == 2)
            #expect(try await store.assignmentAttempt(id: second.id)?.questionIds == first.questionIds.reversed())
            _ = try await store.finishAssignmentAttempt(id: second.id, at: t0 + 90, pointsTo: nil)
            #expect(try await store.startAssignmentAttempt(playerId: first.playerId, questionIds: [], maxMarks: 0, allowed: 2, at: t0 + 99) == nil)
            #expect(try await store.assignmentAttempts(playerId: first.playerId).map(\.finishedAt) == [t0 + 60, t0 + 90])
        }
    }

    @Test(arguments: DatabaseKind.available)
    func theFirstAnswerToAShownQuestionStandsWhileTheAssignmentIsOpen(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let (quizId, owner) = try await setUp(cached)
            let store = cached.sql
            let (assignment, attempt) = try await assignmentWithAttempt(store, quizId: quizId, owner: owner)
            let question = attempt.questionIds[0]
            #expect(try await store.recordAssignmentAnswer(attemptId: attempt.id, position: 0, answer: "{}", correct: true, marks: 1, at: t0) == .notShown,
                    "not shown yet")
            #expect(try await store.showAssignmentQuestion(attemptId: attempt.id, position: 0, questionId: question, at: t0 + 1) == t0 + 1)
            #expect(try await store.showAssignmentQuestion(attemptId: attempt.id, position: 0, questionId: question, at: t0 + 9) == t0 + 1)
            let given = GivenAnswer(.bool(true)).stored
            #expect(try await store.recordAssignmentAnswer(attemptId: attempt.id, position: 0, answer: given, correct: true, marks: 1_000,
                                                           at: t0 + 2) == .recorded)
            #expect(try await store.recordAssignmentAnswer(attemptId: attempt.id, position: 0, answer: "{}", correct: false, marks: 0,
                                                           at: t0 + 3) == .alreadyAnswered)
            _ = try await store.showAssignmentQuestion(attemptId: attempt.id, position: 1, questionId: attempt.questionIds[1], at: t0 + 4)
            #expect(try await store.recordAssignmentAnswer(attemptId: attempt.id, position: 1, answer: given, correct: true, marks: 1,
                                                           at: assignment.closesAt) == .refused, "closed")
            let rows = try await store.assignmentAnswers(attemptId: attempt.id)
            #expect(rows.map(\.position) == [0, 1])
            #expect(rows[0].given == GivenAnswer(.bool(true)) && rows[0].marks == 1_000 && rows[0].answeredAt == t0 + 2)
            #expect(rows[1].answer == nil)
            _ = try await store.finishAssignmentAttempt(id: attempt.id, at: t0 + 5, pointsTo: nil)
            #expect(try await store.recordAssignmentAnswer(attemptId: attempt.id, position: 1, answer: given, correct: true, marks: 1,
                                                           at: t0 + 6) == .refused, "finished")
            #expect(try await store.assignmentAnswers(assignmentId: assignment.id) == rows)
        }
    }

    @Test func everyAcknowledgedAnswerIsInTheFileAfterARestart() async throws {
        try await withEmptyDatabase(.sqlite) { path in
            var recorded: [Int64: Int] = [:]
            let database = try await QuizDatabase.open(path, poolSize: 2)
            do {
                try await Migrations.run(on: database)
                let store = SQLStore(database: database)
                _ = try await store.importBank(binaryQuizBank(), at: t0)
                let owner = try await store.createUser(newUser("teacher")).id
                let quizId = try #require(try await store.allQuizzes().first?.quiz.id)
                let (_, attempt) = try await assignmentWithAttempt(store, quizId: quizId, owner: owner)
                for (position, question) in attempt.questionIds.enumerated() {
                    _ = try await store.showAssignmentQuestion(attemptId: attempt.id, position: position, questionId: question, at: t0)
                    if try await store.recordAssignmentAnswer(attemptId: attempt.id, position: position, answer: GivenAnswer(.bool(true)).stored,
                                                              correct: true, marks: position, at: t0 + 1) == .recorded {
                        recorded[question] = position
                    }
                }
                try await database.close()
            } catch {
                try? await database.close()
                throw error
            }
            let reopened = try await QuizDatabase.open(path, poolSize: 2)
            let answers = try await SQLStore(database: reopened).assignmentAnswers(assignmentId: 1)
            try await reopened.close()
            #expect(recorded.count == 5)
            #expect(Dictionary(uniqueKeysWithValues: answers.map { ($0.questionId, $0.marks) }) == recorded)
        }
    }
}

extension AssignmentStoreTests {
    @Test(arguments: DatabaseKind.available)
    func finishingAddsOnlyWhatBeatsTheBestFinishedAttemptToTheLeaderboard(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let (quizId, owner) = try await setUp(cached)
            let store = cached.sql
            let (_, first) = try await assignmentWithAttempt(store, quizId: quizId, owner: owner, allowed: 3)
            let student = try await store.createUser(newUser("student")).id
            #expect(try await cached.user(id: student)?.points == 0, "cached before")
            // Thousandths of a point: 2.4 points, then 3.6, then 1.
            var added: [Int64?] = []
            for (number, marks) in [2_400, 3_600, 1_000].enumerated() {
                let attempt = try #require(try await store.startAssignmentAttempt(playerId: first.playerId, questionIds: first.questionIds,
                                                                                  maxMarks: 5_000, allowed: 3, at: t0 + Double(number)))
                _ = try await store.showAssignmentQuestion(attemptId: attempt.id, position: 0, questionId: attempt.questionIds[0], at: t0)
                _ = try await store.recordAssignmentAnswer(attemptId: attempt.id, position: 0, answer: "{}", correct: true, marks: marks, at: t0)
                added.append(try await cached.finishAssignmentAttempt(id: attempt.id, at: t0 + 10, pointsTo: student))
            }
            #expect(added == [2, 2, 0])
            #expect(try await store.user(id: student)?.points == 4)
            #expect(try await cached.user(id: student)?.points == 4)
            #expect(try await store.finishAssignmentAttempt(id: first.id, at: t0 + 20, pointsTo: student) == nil, "finished before")
        }
    }
}

extension AssignmentStoreTests {
    /// On PostgreSQL with connections enough for the starts to overlap (SQLite has one writer).
    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func startsAtOnceMakeOneAttempt() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let database = try await QuizDatabase.open(url, poolSize: 8)
            do {
                try await startAtOnce(on: database)
                try await database.close()
            } catch {
                try? await database.close()
                throw error
            }
        }
    }

    private func startAtOnce(on database: QuizDatabase) async throws {
        try await Migrations.run(on: database)
        let cached = CachedStore(SQLStore(database: database))
        let (quizId, owner) = try await setUp(cached)
        let store = cached.sql
        let (assignment, first) = try await assignmentWithAttempt(store, quizId: quizId, owner: owner, allowed: 1)
        let bob = try #require(try await store.addAssignmentPlayer(AssignmentPlayerRecord(
            assignmentId: assignment.id, nickname: "Bob", userId: nil, secretHash: "s", codeHash: "c", joinedAt: t0)))
        let started = try await withThrowingTaskGroup(of: Int64?.self) { group in
            for _ in 0..<16 {
                group.addTask { try await store.startAssignmentAttempt(playerId: bob.id, questionIds: first.questionIds, maxMarks: 1, allowed: 1, at: t0)?.id }
            }
            return try await group.reduce(into: Set<Int64?>()) { $0.insert($1) }
        }
        #expect(started.count == 1 && started.first! != nil)
        #expect(try await store.assignmentAttempts(playerId: bob.id).count == 1)
    }
}

extension AssignmentStoreTests {
    /// Shows and answers arriving together are written in batches: each still gets its own
    /// outcome, the first answer to a question decides, and a row that cannot be written (an
    /// attempt that is gone) fails alone.
    @Test(arguments: DatabaseKind.available)
    func showsAndAnswersAtOnceEachGetTheirOwnOutcome(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let (quizId, owner) = try await setUp(cached)
            let store = cached.sql
            let (assignment, first) = try await assignmentWithAttempt(store, quizId: quizId, owner: owner)
            var attempts = [first]
            for n in 1..<24 {
                let player = try #require(try await store.addAssignmentPlayer(AssignmentPlayerRecord(
                    assignmentId: assignment.id, nickname: "Player \(n)", userId: nil, secretHash: "s", codeHash: "c", joinedAt: t0)))
                attempts.append(try #require(try await store.startAssignmentAttempt(playerId: player.id, questionIds: first.questionIds,
                                                                                     maxMarks: 5_000, allowed: 1, at: t0)))
            }
            let gone: Int64 = 9_999_999
            let shown = await withTaskGroup(of: (Int64, Result<Date, StoreError>).self) { group in
                for attempt in attempts.map(\.id) + [gone] {
                    for offset in [1.0, 2.0] {
                        group.addTask {
                            do {
                                return (attempt, .success(try await store.showAssignmentQuestion(
                                    attemptId: attempt, position: 0, questionId: first.questionIds[0], at: t0 + offset)))
                            } catch {
                                return (attempt, .failure(error as? StoreError ?? .identityTaken))
                            }
                        }
                    }
                }
                return await group.reduce(into: [Int64: [Result<Date, StoreError>]]()) { $0[$1.0, default: []].append($1.1) }
            }
            #expect(shown[gone] == [.failure(.notFound), .failure(.notFound)])
            for attempt in attempts {
                let times = try #require(shown[attempt.id]).map { try $0.get() }
                #expect(times.count == 2 && times[0] == times[1], "both shows of a question tell when it was first shown")
            }
            let outcomes = try await withThrowingTaskGroup(of: (Int64, Int, AssignmentAnswerOutcome).self) { group in
                for attempt in attempts.map(\.id) + [gone] {
                    for marks in [1_000, 7] {
                        group.addTask {
                            (attempt, marks, try await store.recordAssignmentAnswer(attemptId: attempt, position: 0, answer: "{}", correct: marks > 7,
                                                                                     marks: marks, at: t0 + 3))
                        }
                    }
                }
                return try await group.reduce(into: [Int64: [Int: AssignmentAnswerOutcome]]()) { $0[$1.0, default: [:]][$1.1] = $1.2 }
            }
            #expect(outcomes[gone] == [1_000: .refused, 7: .refused])
            let stored = Dictionary(uniqueKeysWithValues: try await store.assignmentAnswers(assignmentId: assignment.id).map { ($0.attemptId, $0) })
            for attempt in attempts {
                let mine = try #require(outcomes[attempt.id])
                #expect(Set(mine.values) == [.recorded, .alreadyAnswered], "one of the two answers stands")
                let kept = try #require(mine.first { $0.value == .recorded }?.key)
                #expect(stored[attempt.id]?.marks == kept && stored[attempt.id]?.answeredAt == t0 + 3)
            }
        }
    }

    /// "My assignments" counts a player whose attempt the close cut off as finished, as the report does.
    @Test(arguments: DatabaseKind.available)
    func anAttemptCutOffByTheCloseCountsAsFinishedInTheList(kind: DatabaseKind) async throws {
        try await withStore(kind) { cached in
            let (quizId, owner) = try await setUp(cached)
            let store = cached.sql
            let (assignment, _) = try await assignmentWithAttempt(store, quizId: quizId, owner: owner)
            #expect(try await store.assignments(ownerUserId: owner, limit: 10, at: t0 + 60).first?.finished == 0, "still playing")
            #expect(try await store.assignments(ownerUserId: owner, limit: 10, at: assignment.closesAt).first?.finished == 1, "cut off by the close")
        }
    }
}
