import Foundation
import QuizCore
import QuizStore
import Testing

/// What authoring must do in every store: drafts stay hidden, edits never rescore, roles keep an admin.
@Suite struct AuthoringStoreTests {
    func pick(_ text: String, correct: Int = 1) -> Question {
        Question(text: text, body: .singleChoice([Choice(id: 1, text: "Yes", isCorrect: correct == 1),
                                                  Choice(id: 2, text: "No", isCorrect: correct == 2)]))
    }

    /// A subject › topic › draft quiz holding one question; returns (topic, quiz, question).
    func draftQuiz(_ store: CachedStore, subject: String = "Music") async throws -> (Int64, Int64, Int64) {
        let subjectId = try await store.create(.subject, parent: nil, name: subject, description: "")
        let topicId = try await store.create(.topic, parent: subjectId, name: "Opera", description: "")
        let quizId = try await store.create(.quiz, parent: topicId, name: "Arias", description: "Famous ones")
        let questionId = try await store.createQuestion(pick("Is Tosca by Puccini?"), topicId: topicId, at: t0)
        try await store.setQuizQuestions(quizId: quizId, questionIds: [questionId])
        return (topicId, quizId, questionId)
    }

    @Test(arguments: DatabaseKind.available)
    func aDraftQuizIsHiddenFromPlayersUntilPublished(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            #expect(try await store.subjects().map(\.name) == ["Maths"])
            let (_, quizId, _) = try await draftQuiz(store)
            let player = try await store.createUser(newUser("ada"))

            #expect(try await store.subjects().map(\.name) == ["Maths"], "a subject with only drafts is not shown")
            // Found by id (a player already in it can finish it), but not listed.
            #expect(try await store.quiz(id: quizId)?.isListed == false)
            #expect(try await store.allQuizzes().map(\.quiz.title) == ["Powers of two"])
            await #expect(throws: StoreError.notFound) { try await store.startAttempt(userId: player.id, quizId: quizId, at: t0) }
            let outline = try await store.outline()
            #expect(outline.map(\.name) == ["Maths", "Music"])
            #expect(outline[1].topics[0].quizzes.map(\.isPublished) == [false])
            #expect(try await store.managedQuiz(id: quizId)?.questions.map(\.text) == ["Is Tosca by Puccini?"])

            let powers = try #require(try await store.subjects().first?.id)
            let powersTopic = try #require(try await store.topics(subjectId: powers)?.first?.id)
            let extra = try await store.create(.quiz, parent: powersTopic, name: "More powers", description: "")
            #expect(try await store.quizzes(topicId: powersTopic)?.map(\.title) == ["Powers of two"], "a draft in a listed topic stays hidden")
            #expect(try await store.topics(subjectId: powers)?.first?.quizCount == 1)
            try await store.setPublished(true, quizId: extra)
            #expect(try await store.quizzes(topicId: powersTopic)?.map(\.title) == ["Powers of two", "More powers"])

            try await store.setPublished(true, quizId: quizId)
            #expect(try await store.subjects().map(\.name) == ["Maths", "Music"])
            #expect(try await store.quiz(id: quizId)?.questionCount == 1)
            #expect(try await store.questions(quizId: quizId).count == 1)
            _ = try await store.startAttempt(userId: player.id, quizId: quizId, at: t0)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func subjectsTopicsAndQuizzesAreRenamedAndReordered(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let ids = [try await store.create(.subject, parent: nil, name: "A", description: ""),
                       try await store.create(.subject, parent: nil, name: "B", description: ""),
                       try await store.create(.subject, parent: nil, name: "C", description: "")]
            try await store.move(.subject, id: ids[2], to: 1)
            #expect(try await store.outline().map(\.name) == ["C", "A", "B"])
            try await store.move(.subject, id: ids[2], to: 99)
            #expect(try await store.outline().map(\.name) == ["A", "B", "C"])
            try await store.rename(.subject, id: ids[0], name: "Alpha", description: nil)
            try await store.rename(.subject, id: ids[0], name: nil, description: "First")
            let first = try #require(try await store.outline().first)
            #expect(first.name == "Alpha")
            #expect(first.description == "First")
            await #expect(throws: StoreError.notFound) { try await store.rename(.topic, id: 999, name: "x", description: nil) }
            await #expect(throws: StoreError.notFound) { try await store.create(.topic, parent: 999, name: "x", description: "") }
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aQuizHoldsOnlyQuestionsOfItsTopicInTheOrderGiven(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let (topicId, quizId, first) = try await draftQuiz(store)
            let second = try await store.createQuestion(pick("Is Carmen by Bizet?"), topicId: topicId, at: t0)
            let (_, _, stranger) = try await draftQuiz(store, subject: "Art")
            try await store.setQuizQuestions(quizId: quizId, questionIds: [second, first])
            #expect(try await store.managedQuiz(id: quizId)?.questions.map(\.id) == [second, first])
            await #expect(throws: AuthoringError.questionNotInTopic(stranger)) {
                try await store.setQuizQuestions(quizId: quizId, questionIds: [first, stranger])
            }
            #expect(try await store.managedQuiz(id: quizId)?.questions.map(\.id) == [second, first], "a refused change changes nothing")
            try await store.setQuizQuestions(quizId: quizId, questionIds: [first])
            #expect(try await store.managedQuiz(id: quizId)?.questions.map(\.id) == [first])
            #expect(try await store.topicQuestions(topicId: topicId)?.count == 2, "removing from a quiz keeps it in the bank")
            let third = try await store.createQuestion(pick("Is Aida by Verdi?"), topicId: topicId, appendingTo: quizId, at: t0)
            #expect(try await store.managedQuiz(id: quizId)?.questions.map(\.id) == [first, third])
            let (otherTopic, _, _) = try await draftQuiz(store, subject: "Film")
            await #expect(throws: StoreError.notFound) {
                try await store.createQuestion(pick("Elsewhere?"), topicId: otherTopic, appendingTo: quizId, at: t0)
            }
            #expect(try await store.topicQuestions(topicId: otherTopic)?.count == 1, "a refused question is not stored")
        }
    }

    @Test(arguments: DatabaseKind.available)
    func editingOrDeletingAnsweredQuestionsLeavesPastScoresAndPointsAlone(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(store)
            let user = try await store.createUser(newUser("grace"))
            let played = try await earn(5, user: user.id, quizId: quizId, store: store)
            #expect(played.attempt.points == 5)
            #expect(played.totalPoints == 31)
            let questions = try await store.questions(quizId: quizId)

            var edited = questions[0]
            edited.text = "Worth one, reworded?"
            edited.points = 50
            try await store.updateQuestion(edited)
            #expect(try await store.questions(quizId: quizId)[0].text == "Worth one, reworded?", "the edit shows at once")
            var retyped = questions[1]
            retyped.body = .typedAnswer(["two"])
            await #expect(throws: AuthoringError.kindLocked) { try await store.updateQuestion(retyped) }
            try await store.deleteQuestion(id: questions[2].id!, at: t0)

            let score = try #require(try await store.score(attemptId: played.attempt.id, userId: user.id))
            #expect(score.attempt.points == 5)
            #expect(score.attempt.correctCount == 2)
            #expect(score.questionCount == 5)
            #expect(score.totalPoints == 31)
            #expect(try await store.user(id: user.id)?.points == 5)
            #expect(try await store.questions(quizId: quizId).count == 4)
            let history = try await store.history(userId: user.id, since: t0, limit: 10)
            #expect(history.contains { $0.questionText == "Worth 4?" }, "an archived question keeps its text in history")
            #expect(try await store.managedQuestion(id: questions[2].id!) == nil)

            await #expect(throws: AuthoringError.quizHasAttempts) { try await store.delete(.quiz, id: quizId) }
            let topicId = try #require(try await store.outline().first?.topics.first?.id)
            await #expect(throws: AuthoringError.notEmpty) { try await store.delete(.topic, id: topicId) }
            #expect(try await store.quiz(id: quizId) != nil)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func unansweredQuestionsAndEmptyContainersAreDeletedOutright(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let (topicId, quizId, questionId) = try await draftQuiz(store)
            try await store.deleteQuestion(id: questionId, at: t0)
            #expect(try await store.topicQuestions(topicId: topicId) == [])
            let subjectId = try #require(try await store.outline().first?.id)
            await #expect(throws: AuthoringError.notEmpty) { try await store.delete(.subject, id: subjectId) }
            try await store.delete(.quiz, id: quizId)
            try await store.delete(.topic, id: topicId)
            try await store.delete(.subject, id: subjectId)
            #expect(try await store.outline().isEmpty)
            await #expect(throws: StoreError.notFound) { try await store.delete(.subject, id: subjectId) }
        }
    }

    @Test(arguments: DatabaseKind.available)
    func rolesChangeButTheLastAdminStays(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let root = try await store.createUser(newUser("root"))
            let ada = try await store.createUser(newUser("ada"))
            _ = try await store.setRole(.admin, userId: root.id)
            await #expect(throws: AuthoringError.lastAdmin) { try await store.setRole(.player, userId: root.id) }
            #expect(try await store.setRole(.admin, userId: ada.id).role == .admin)
            #expect(try await store.setRole(.author, userId: root.id).role == .author)
            #expect(try await store.user(id: root.id)?.role == .author, "the cached user sees the change at once")
            await #expect(throws: StoreError.notFound) { try await store.setRole(.author, userId: 999) }
        }
    }

    @Test(arguments: DatabaseKind.available)
    func usersAreFoundByPartOfTheirNameAPageAtATime(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            for name in ["anna", "hannah", "bob", "an_na", "anxna"] { _ = try await store.createUser(newUser(name)) }
            let page = try await store.users(matching: "AN", offset: 0, limit: 2)
            #expect(page.total == 4)
            #expect(page.users.map(\.username) == ["an_na", "anna"])
            #expect(try await store.users(matching: "an", offset: 2, limit: 2).users.map(\.username) == ["anxna", "hannah"])
            #expect(try await store.users(matching: "n_", offset: 0, limit: 10).users.map(\.username) == ["an_na"], "_ is not a wildcard")
            #expect(try await store.users(matching: "", offset: 0, limit: 10).total == 5)
        }
    }
}
