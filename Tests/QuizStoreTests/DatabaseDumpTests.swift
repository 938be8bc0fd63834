import Foundation
import QuizCore
import QuizStore
import QuizTestSupport
import Synchronization
import Testing

/// `quizbox export-db` / `import-db` at the store level: a whole instance moves between SQLite
/// and PostgreSQL with every row as it was.
@Suite struct DatabaseDumpTests {
    @Test(arguments: DatabaseKind.available)
    func aWholeInstanceMovesToAnotherDatabaseAndBackWithEveryRow(target: DatabaseKind) async throws {
        try await withStore(.sqlite) { original in
            try await fill(original)
            let first = try await dump(original)
            try await withStore(target) { moved in
                try await DatabaseDump.import(first.split(separator: "\n", omittingEmptySubsequences: false), into: moved.database)
                #expect(try await dump(moved) == first)
                // Ids continue after the copied ones, and what was played still counts.
                let newcomer = try await moved.createUser(newUser("newcomer"))
                #expect(newcomer.id > 3)
                let board = try await moved.leaderboard(userId: newcomer.id, limit: 3)
                #expect(board.top.map(\.username) == ["ada", "bob", "cy"])
                #expect(try await moved.credentials(username: "ada")?.passwordHash == "$2b$04$hash")
                let octo = try #require(try await moved.credentials(username: "octo"))
                #expect(octo.passwordHash == nil)
                #expect(try await moved.identity(provider: "github", subject: "9")?.userId == octo.user.id)
                #expect(try await moved.takePendingSignIn(stateHash: "s", at: t0) == nil)
                try await withStore(.sqlite) { back in
                    let second = try await dump(moved)
                    try await DatabaseDump.import(second.split(separator: "\n", omittingEmptySubsequences: false), into: back.database)
                    #expect(try await dump(back) == second)
                }
            }
        }
    }

    @Test func aDumpGoesOnlyIntoAnEmptyDatabaseAndAllOrNothing() async throws {
        try await withStore(.sqlite) { original in
            try await fill(original)
            let text = try await dump(original)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            await #expect(throws: DatabaseDump.DumpError.notEmpty) {
                try await DatabaseDump.import(lines, into: original.database)
            }
            try await withStore(.sqlite) { target in
                var broken = lines
                let row = try #require(broken.lastIndex { $0.hasPrefix("[") })
                broken[row] = "[1, 2"
                await #expect(throws: DatabaseDump.DumpError.unreadable(line: row + 1, reason: "not a line of a Quizbox database dump")) {
                    try await DatabaseDump.import(broken, into: target.database)
                }
                #expect(try await target.isEmpty(), "nothing of a failed import stays")
                var older = lines
                older[0] = #"{"quizbox":"database dump","schemaVersion":1}"#
                await #expect(throws: DatabaseDump.DumpError.wrongSchema(found: 1, expected: Migrations.latestVersion)) {
                    try await DatabaseDump.import(older, into: target.database)
                }
            }
        }
    }

    /// A dump from before migration 15 may hold a name-them-all question inside a quiz: it loads
    /// with the question in its topic's bank only, as the migration left every other database.
    @Test func aDumpFromBeforeNameThemAllLeftQuizzesLoadsWithoutThemInQuizzes() async throws {
        try await withStore(.sqlite) { original in
            try await fill(original)
            let quizId = try await firstQuizId(original)
            let nameAll = try #require(try await original.nameAllQuestions().first?.question.id)
            var lines = try await dump(original).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines[0] = #"{"quizbox":"database dump","schemaVersion":14}"#
            let table = try #require(lines.firstIndex { $0.hasPrefix("{") && $0.contains(#""quiz_questions""#) })
            lines.insert("[\(quizId),\(nameAll),999]", at: table + 1)
            try await withStore(.sqlite) { target in
                try await DatabaseDump.import(lines.map { Substring($0) }, into: target.database)
                #expect(try await target.questions(quizId: quizId).contains { $0.kind == .nameAll } == false)
                #expect(try await target.nameAllQuestions().contains { $0.question.id == nameAll }, "still in its bank")
            }
        }
    }

    /// Something in every table: users and a session, points and buckets, a draft quiz and an
    /// archived question, finished and practice attempts, a question seen, answered on its own,
    /// and a game with finds that ended.
    private func fill(_ store: CachedStore) async throws {
        _ = try await store.importBank(binaryQuizBank(), at: t0)
        let quizId = try await firstQuizId(store)
        var users: [Int64] = []
        for (name, points) in [("ada", 31), ("bob", 12), ("cy", 3)] {
            let user = try await store.createUser(newUser(name)).id
            users.append(user)
            try await earn(points, user: user, quizId: quizId, store: store)
        }
        try await store.createSession(tokenHash: "abc", userId: users[0], createdAt: t0, expiresAt: t0.addingTimeInterval(3600))
        let topicId = try #require(try await store.outline().first?.topics.first?.id)
        _ = try await store.create(.quiz, parent: topicId, name: "Draft", description: "not yet published")
        let questionIds = try await store.questions(quizId: quizId).compactMap(\.id)
        try await store.deleteQuestion(id: questionIds[0], at: t0)
        let practice = try await store.startPractice(userId: users[1], settings: PracticeSettings(count: 1), title: "Practice",
                                                     questionIds: [questionIds[1]], at: t0)
        _ = try await store.markShown(attemptId: practice.id, questionId: questionIds[1], at: t0)
        _ = try await store.recordSingleAnswer(userId: users[2], questionId: questionIds[2], answer: "{}", isCorrect: true, points: 4, at: t0)
        _ = try await store.importBank(Bank(subjects: [BankSubject(name: "Science", topics: [BankTopic(name: "Space", questions: [
            Question(text: "Name the planets.", body: .nameAll(items: ["Mercury", "Venus"].map { NameAllItem(answer: $0) },
                                                               timeLimitSeconds: 60, typoTolerance: true)),
        ])])]), at: t0)
        let nameAll = try #require(try await store.nameAllQuestions().first?.question.id)
        let game = try await store.startGame(userId: users[0], questionId: nameAll, at: t0)
        _ = try await store.recordFind(gameId: game.id, item: 1, at: t0)
        _ = try await store.endGame(id: game.id, reason: .gaveUp, at: t0.addingTimeInterval(5), points: 1)
        // An account made through a provider: no password, one linked identity; a sign-in in flight is not copied.
        var octo = newUser("octo")
        octo.passwordHash = nil
        _ = try await store.createUser(octo, linking: ExternalIdentity(provider: "github", subject: "9", userId: 0,
                                                                       providerUsername: "octocat", createdAt: t0))
        try await store.savePendingSignIn(PendingSignIn(stateHash: "s", provider: "github", codeVerifier: "v", nonce: "n",
                                                        linkUserId: nil, next: "/home", createdAt: t0, expiresAt: t0 + 600))
        // An assignment with a player without an account, an attempt and an answer.
        let (_, attempt) = try await assignmentWithAttempt(store.sql, quizId: quizId, owner: users[0])
        _ = try await store.sql.showAssignmentQuestion(attemptId: attempt.id, position: 0, questionId: attempt.questionIds[0], at: t0)
        _ = try await store.sql.recordAssignmentAnswer(attemptId: attempt.id, position: 0, answer: #"{"value":true}"#, correct: true,
                                                       marks: 2_000, at: t0)
    }

    private func dump(_ store: CachedStore) async throws -> String {
        let text = Mutex(Data())
        try await DatabaseDump.export(store.database) { data in text.withLock { $0.append(data) } }
        return String(decoding: text.withLock { $0 }, as: UTF8.self)
    }
}
