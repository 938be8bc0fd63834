import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

// Authoring the catalog and managing roles. Every route needs an author or admin (roles: admin).
extension APIHandler {
    func requireAdmin() async throws -> User {
        let user = try await requireUser()
        guard user.role == .admin else { throw APIError(.forbidden, "forbidden", "This needs an admin account.") }
        return user
    }

    /// Turns the store's refusals into errors a client can act on.
    func managing<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch StoreError.notFound {
            throw APIError.notFound(what)
        } catch let error as AuthoringError {
            throw APIError(authoring: error)
        }
    }

    func getOutline(_ input: Operations.GetOutline.Input) async throws -> Operations.GetOutline.Output {
        _ = try await requireAuthor()
        let subjects = try await store.outline().map(Components.Schemas.OutlineSubject.init)
        return .ok(.init(body: .json(.init(subjects: subjects))))
    }

    // MARK: - Subjects, topics, quizzes

    func createSubject(_ input: Operations.CreateSubject.Input) async throws -> Operations.CreateSubject.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        return .created(.init(body: .json(.init(id: try await create(.subject, in: nil, name: body.name, description: body.description)))))
    }

    func updateSubject(_ input: Operations.UpdateSubject.Input) async throws -> Operations.UpdateSubject.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        try await change(.subject, id: input.path.subjectId, CatalogChange(name: body.name, description: body.description, position: body.position))
        return .noContent(.init())
    }

    func deleteSubject(_ input: Operations.DeleteSubject.Input) async throws -> Operations.DeleteSubject.Output {
        try await delete(.subject, id: input.path.subjectId)
        return .noContent(.init())
    }

    func createTopic(_ input: Operations.CreateTopic.Input) async throws -> Operations.CreateTopic.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let id = try await create(.topic, in: input.path.subjectId, name: body.name, description: body.description)
        return .created(.init(body: .json(.init(id: id))))
    }

    func updateTopic(_ input: Operations.UpdateTopic.Input) async throws -> Operations.UpdateTopic.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        try await change(.topic, id: input.path.topicId, CatalogChange(name: body.name, description: body.description, position: body.position))
        return .noContent(.init())
    }

    func deleteTopic(_ input: Operations.DeleteTopic.Input) async throws -> Operations.DeleteTopic.Output {
        try await delete(.topic, id: input.path.topicId)
        return .noContent(.init())
    }

    func createQuiz(_ input: Operations.CreateQuiz.Input) async throws -> Operations.CreateQuiz.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let id = try await create(.quiz, in: input.path.topicId, name: body.title, description: body.description)
        return .created(.init(body: .json(.init(id: id))))
    }

    /// Checks the names, then adds it at the end of `parent` (nil for a subject).
    private func create(_ level: CatalogLevel, in parent: Int64?, name: String, description: String?) async throws -> Int64 {
        _ = try await requireAuthor()
        try Self.checkNames(name: name, description: description ?? "", nameField: level == .quiz ? "title" : "name")
        return try await managing(level == .quiz ? "topic" : "subject") {
            try await store.create(level, parent: parent, name: name, description: description ?? "")
        }
    }

    private func delete(_ level: CatalogLevel, id: Int64) async throws {
        _ = try await requireAuthor()
        try await managing(level.rawValue) { try await store.delete(level, id: id) }
    }

    func getManagedQuiz(_ input: Operations.GetManagedQuiz.Input) async throws -> Operations.GetManagedQuiz.Output {
        _ = try await requireAuthor()
        guard let managed = try await store.managedQuiz(id: input.path.quizId) else { throw APIError.notFound("quiz") }
        let quiz = managed.quiz
        return .ok(.init(body: .json(.init(
            id: quiz.id, topicId: quiz.topicId, title: quiz.title, description: quiz.description, published: quiz.isPublished,
            questions: managed.questions.map { .init($0, topicId: quiz.topicId) }
        ))))
    }

    func updateQuiz(_ input: Operations.UpdateQuiz.Input) async throws -> Operations.UpdateQuiz.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        try await change(.quiz, id: input.path.quizId, CatalogChange(name: body.title, description: body.description,
                                                                      position: body.position, published: body.published))
        return .noContent(.init())
    }

    func deleteQuiz(_ input: Operations.DeleteQuiz.Input) async throws -> Operations.DeleteQuiz.Output {
        try await delete(.quiz, id: input.path.quizId)
        return .noContent(.init())
    }

    func setQuizQuestions(_ input: Operations.SetQuizQuestions.Input) async throws -> Operations.SetQuizQuestions.Output {
        _ = try await requireAuthor()
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        guard body.questionIds.count <= 1_000 else {
            throw APIError(.unprocessableContent, "too_many_questions", "A quiz holds at most 1000 questions.", field: "questionIds")
        }
        try await managing("quiz") { try await store.setQuizQuestions(quizId: input.path.quizId, questionIds: body.questionIds) }
        return .noContent(.init())
    }

    /// The fields given change, all at once; checked before anything is stored.
    private func change(_ level: CatalogLevel, id: Int64, _ change: CatalogChange) async throws {
        _ = try await requireAuthor()
        try Self.checkNames(name: change.name, description: change.description, nameField: level == .quiz ? "title" : "name")
        try await managing(level.rawValue) { try await store.update(level, id: id, change) }
    }

    static func checkNames(name: String?, description: String?, nameField: String = "name") throws {
        if let first = CatalogText.validationErrors(name: name, description: description, nameField: nameField).first {
            throw APIError(.unprocessableContent, "invalid_\(first.field)", "\(first.field) \(first.message).", field: first.field)
        }
    }

    // MARK: - Questions

    func listTopicQuestions(_ input: Operations.ListTopicQuestions.Input) async throws -> Operations.ListTopicQuestions.Output {
        _ = try await requireAuthor()
        guard let questions = try await store.topicQuestions(topicId: input.path.topicId) else { throw APIError.notFound("topic") }
        return .ok(.init(body: .json(.init(questions: questions.map { .init($0, topicId: input.path.topicId) }))))
    }

    func createQuestion(_ input: Operations.CreateQuestion.Input) async throws -> Operations.CreateQuestion.Output {
        _ = try await requireAuthor()
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let question = try Self.validQuestion(body, id: nil)
        let id = try await managing("topic") { try await store.createQuestion(question, topicId: input.path.topicId, at: time.now()) }
        var stored = question
        stored.id = id
        return .created(.init(body: .json(.init(stored, topicId: input.path.topicId))))
    }

    func getManagedQuestion(_ input: Operations.GetManagedQuestion.Input) async throws -> Operations.GetManagedQuestion.Output {
        _ = try await requireAuthor()
        guard let (topicId, question) = try await store.managedQuestion(id: input.path.questionId) else { throw APIError.notFound("question") }
        return .ok(.init(body: .json(.init(question, topicId: topicId))))
    }

    func updateQuestion(_ input: Operations.UpdateQuestion.Input) async throws -> Operations.UpdateQuestion.Output {
        _ = try await requireAuthor()
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let question = try Self.validQuestion(body, id: input.path.questionId)
        try await managing("question") { try await store.updateQuestion(question) }
        guard let (topicId, stored) = try await store.managedQuestion(id: input.path.questionId) else { throw APIError.notFound("question") }
        return .ok(.init(body: .json(.init(stored, topicId: topicId))))
    }

    func deleteQuestion(_ input: Operations.DeleteQuestion.Input) async throws -> Operations.DeleteQuestion.Output {
        _ = try await requireAuthor()
        try await managing("question") { try await store.deleteQuestion(id: input.path.questionId, at: time.now()) }
        return .noContent(.init())
    }

    static func validQuestion(_ wire: Components.Schemas.AuthoredQuestion, id: Int64?) throws -> Question {
        switch QuestionDraft(wire).question(id: id) {
        case .success(let question): return question
        case .failure(let problems):
            let first = problems.errors[0]
            throw APIError(.unprocessableContent, "invalid_question",
                           "The question breaks \(problems.errors.count) rule(s), first: \(first.field) \(first.message).",
                           field: first.field, problems: problems.errors.map { FormatProblem(path: $0.field, message: $0.message) })
        }
    }

    // MARK: - Users and roles

    func listUsers(_ input: Operations.ListUsers.Input) async throws -> Operations.ListUsers.Output {
        _ = try await requireAdmin()
        let search = input.query.search ?? ""
        guard search.count <= 64 else { throw APIError(.unprocessableContent, "invalid_search", "Search for at most 64 characters.", field: "search") }
        let limit = try APIError.checked(input.query.limit, "limit", default: 20, in: 1...100)
        let offset = try APIError.checked(input.query.offset, "offset", default: 0, in: 0...10_000_000)
        let page = try await store.users(matching: search, offset: offset, limit: limit)
        return .ok(.init(body: .json(.init(users: page.users.map(Components.Schemas.User.init), total: page.total))))
    }

    func setUserRole(_ input: Operations.SetUserRole.Input) async throws -> Operations.SetUserRole.Output {
        _ = try await requireAdmin()
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let role = Role(rawValue: body.role.rawValue) ?? .player
        let user = try await managing("user") { try await store.setRole(role, userId: input.path.userId) }
        return .ok(.init(body: .json(.init(user))))
    }
}

extension APIError {
    static let sendJSON = APIError.unsupportedMediaType

    init(authoring error: AuthoringError) {
        switch error {
        case .lastAdmin:
            self.init(.conflict, "last_admin", "This is the last admin: make someone else an admin first.", field: "role")
        case .notEmpty:
            self.init(.conflict, "not_empty", "It still holds quizzes or questions: delete or move them first.")
        case .quizHasAttempts:
            self.init(.conflict, "quiz_has_attempts", "People have played this quiz, so it is kept for their scores: unpublish it instead.")
        case .kindLocked:
            self.init(.conflict, "kind_locked", "Players have answered this question, so its kind stays; add a new question instead.", field: "kind")
        case .questionNotInTopic(let id):
            self.init(.unprocessableContent, "question_not_in_topic", "Question \(id) is not in this quiz's topic.", field: "questionIds")
        }
    }
}

extension QuestionDraft {
    init(_ wire: Components.Schemas.AuthoredQuestion) {
        self.init()
        kind = QuestionKind(rawValue: wire.kind.rawValue) ?? .singleChoice
        text = wire.text
        explanation = wire.explanation
        difficulty = wire.difficulty.flatMap { Difficulty(rawValue: $0.rawValue) } ?? .medium
        points = wire.points ?? Question.defaultPoints
        choices = (wire.choices ?? []).map { ChoiceDraft(text: $0.text, correct: $0.correct) }
        answer = wire.answer
        answers = wire.answers ?? []
        value = wire.value
        tolerance = wire.tolerance
        unit = wire.unit
        items = (wire.items ?? []).map { NameAllItem(answer: $0.answer, alternates: $0.alternates ?? []) }
        timeLimitSeconds = wire.timeLimitSeconds
        typoTolerance = wire.typoTolerance ?? false
    }
}

extension Components.Schemas.AuthoredQuestion {
    init(_ question: Question, topicId: Int64) {
        let draft = QuestionDraft(question)
        let hasChoices = question.kind == .singleChoice || question.kind == .multipleChoice
        self.init(
            id: question.id, topicId: topicId, kind: .init(rawValue: question.kind.rawValue) ?? .singleChoice,
            text: question.text, explanation: question.explanation, difficulty: .init(rawValue: question.difficulty.rawValue),
            points: question.points,
            choices: hasChoices ? draft.choices.map { .init(text: $0.text, correct: $0.correct) } : nil,
            answer: draft.answer, answers: question.kind == .typedAnswer ? draft.answers : nil,
            value: draft.value, tolerance: draft.tolerance, unit: draft.unit,
            items: question.kind == .nameAll ? draft.items.map { .init(answer: $0.answer, alternates: $0.alternates) } : nil,
            timeLimitSeconds: draft.timeLimitSeconds, typoTolerance: question.kind == .nameAll ? draft.typoTolerance : nil
        )
    }
}

extension Components.Schemas.OutlineSubject {
    init(_ subject: OutlineSubject) {
        self.init(id: subject.id, name: subject.name, description: subject.description, topics: subject.topics.map { topic in
            .init(id: topic.id, name: topic.name, description: topic.description, questionCount: topic.questionCount,
                  quizzes: topic.quizzes.map {
                      .init(id: $0.id, title: $0.title, description: $0.description, published: $0.isPublished, questionCount: $0.questionCount)
                  })
        })
    }
}
