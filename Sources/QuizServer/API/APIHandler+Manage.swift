import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

// Authoring the catalog and its questions (`CatalogAuthoring`, `QuestionAuthoring`) and managing
// roles (`ManageUsers`): each call decodes, asks its use case as the signed-in user, and maps.
extension APIHandler {
    /// Calls a use case as the signed-in user; its refusals become the API's errors.
    private func asUser<T>(_ body: (User) async throws -> T) async throws -> T {
        let user = try await requireUser()
        do {
            return try await body(user)
        } catch let failure as CatalogAuthoring.Failure {
            throw APIError(failure)
        } catch let failure as QuestionAuthoring.Failure {
            throw APIError(failure)
        } catch let failure as ManageUsers.Failure {
            throw APIError(failure)
        }
    }

    private var catalog: CatalogAuthoring { useCases.catalogAuthoring }
    private var questions: QuestionAuthoring { useCases.questionAuthoring }

    func getOutline(_ input: Operations.GetOutline.Input) async throws -> Operations.GetOutline.Output {
        let subjects = try await asUser { try await catalog.outline(by: $0) }
        return .ok(.init(body: .json(.init(subjects: subjects.map(Components.Schemas.OutlineSubject.init)))))
    }

    // MARK: - Subjects, topics, quizzes

    func createSubject(_ input: Operations.CreateSubject.Input) async throws -> Operations.CreateSubject.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let id = try await asUser { try await catalog.create(.subject, in: nil, name: body.name, description: body.description ?? "", by: $0) }
        return .created(.init(body: .json(.init(id: id))))
    }

    func updateSubject(_ input: Operations.UpdateSubject.Input) async throws -> Operations.UpdateSubject.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let change = CatalogChange(name: body.name, description: body.description, position: body.position)
        try await asUser { try await catalog.update(.subject, input.path.subjectId, change, by: $0) }
        return .noContent(.init())
    }

    func deleteSubject(_ input: Operations.DeleteSubject.Input) async throws -> Operations.DeleteSubject.Output {
        try await asUser { try await catalog.delete(.subject, input.path.subjectId, by: $0) }
        return .noContent(.init())
    }

    func createTopic(_ input: Operations.CreateTopic.Input) async throws -> Operations.CreateTopic.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let id = try await asUser {
            try await catalog.create(.topic, in: input.path.subjectId, name: body.name, description: body.description ?? "", by: $0)
        }
        return .created(.init(body: .json(.init(id: id))))
    }

    func updateTopic(_ input: Operations.UpdateTopic.Input) async throws -> Operations.UpdateTopic.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let change = CatalogChange(name: body.name, description: body.description, position: body.position)
        try await asUser { try await catalog.update(.topic, input.path.topicId, change, by: $0) }
        return .noContent(.init())
    }

    func deleteTopic(_ input: Operations.DeleteTopic.Input) async throws -> Operations.DeleteTopic.Output {
        try await asUser { try await catalog.delete(.topic, input.path.topicId, by: $0) }
        return .noContent(.init())
    }

    func createQuiz(_ input: Operations.CreateQuiz.Input) async throws -> Operations.CreateQuiz.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let id = try await asUser {
            try await catalog.create(.quiz, in: input.path.topicId, name: body.title, description: body.description ?? "", by: $0)
        }
        return .created(.init(body: .json(.init(id: id))))
    }

    func getManagedQuiz(_ input: Operations.GetManagedQuiz.Input) async throws -> Operations.GetManagedQuiz.Output {
        let managed = try await asUser { try await catalog.quiz(input.path.quizId, by: $0) }
        let quiz = managed.quiz
        return .ok(.init(body: .json(.init(
            id: quiz.id, topicId: quiz.topicId, title: quiz.title, description: quiz.description, published: quiz.isPublished,
            questions: managed.questions.map { .init($0, topicId: quiz.topicId) }
        ))))
    }

    func updateQuiz(_ input: Operations.UpdateQuiz.Input) async throws -> Operations.UpdateQuiz.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let change = CatalogChange(name: body.title, description: body.description, position: body.position, published: body.published)
        try await asUser { try await catalog.update(.quiz, input.path.quizId, change, by: $0) }
        return .noContent(.init())
    }

    func deleteQuiz(_ input: Operations.DeleteQuiz.Input) async throws -> Operations.DeleteQuiz.Output {
        try await asUser { try await catalog.delete(.quiz, input.path.quizId, by: $0) }
        return .noContent(.init())
    }

    func setQuizQuestions(_ input: Operations.SetQuizQuestions.Input) async throws -> Operations.SetQuizQuestions.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        try await asUser { try await catalog.setQuestions(body.questionIds, ofQuiz: input.path.quizId, by: $0) }
        return .noContent(.init())
    }

    // MARK: - Questions

    func listTopicQuestions(_ input: Operations.ListTopicQuestions.Input) async throws -> Operations.ListTopicQuestions.Output {
        let topicId = input.path.topicId
        let bank = try await asUser { try await questions.bank(ofTopic: topicId, by: $0) }
        return .ok(.init(body: .json(.init(questions: bank.map { .init($0, topicId: topicId) }))))
    }

    func createQuestion(_ input: Operations.CreateQuestion.Input) async throws -> Operations.CreateQuestion.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let draft = try QuestionDraft(body)
        let stored = try await asUser { try await questions.create(draft, inTopic: input.path.topicId, by: $0) }
        return .created(.init(body: .json(.init(stored.question, topicId: stored.topicId))))
    }

    func getManagedQuestion(_ input: Operations.GetManagedQuestion.Input) async throws -> Operations.GetManagedQuestion.Output {
        let stored = try await asUser { try await questions.question(input.path.questionId, by: $0) }
        return .ok(.init(body: .json(.init(stored.question, topicId: stored.topicId))))
    }

    func updateQuestion(_ input: Operations.UpdateQuestion.Input) async throws -> Operations.UpdateQuestion.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let draft = try QuestionDraft(body)
        let stored = try await asUser { try await questions.update(input.path.questionId, to: draft, by: $0) }
        return .ok(.init(body: .json(.init(stored.question, topicId: stored.topicId))))
    }

    func deleteQuestion(_ input: Operations.DeleteQuestion.Input) async throws -> Operations.DeleteQuestion.Output {
        _ = try await asUser { try await questions.delete(input.path.questionId, by: $0) }
        return .noContent(.init())
    }

    // MARK: - Users and roles

    func listUsers(_ input: Operations.ListUsers.Input) async throws -> Operations.ListUsers.Output {
        let limit = try APIError.checked(input.query.limit, "limit", default: 20, in: 1...100)
        let offset = try APIError.checked(input.query.offset, "offset", default: 0, in: 0...10_000_000)
        let page = try await asUser { try await useCases.manageUsers.search(input.query.search ?? "", offset: offset, limit: limit, by: $0) }
        return .ok(.init(body: .json(.init(users: page.users.map(Components.Schemas.User.init), total: page.total))))
    }

    func setUserRole(_ input: Operations.SetUserRole.Input) async throws -> Operations.SetUserRole.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let role = Role(rawValue: body.role.rawValue) ?? .player
        let user = try await asUser { try await useCases.manageUsers.setRole(role, ofUser: input.path.userId, by: $0) }
        return .ok(.init(body: .json(.init(user))))
    }
}

extension APIError {
    static let sendJSON = APIError.unsupportedMediaType

    init(_ failure: CatalogAuthoring.Failure) {
        switch failure {
        case .notAuthor:
            self = .needsAuthor
        case .notFound(let level):
            self = .notFound(level.rawValue)
        case .invalid(let errors):
            let first = errors[0]
            self.init(.unprocessableContent, "invalid_\(first.field)", "\(first.field) \(first.message).", field: first.field)
        case .notEmpty:
            self.init(.conflict, "not_empty", failure.message)
        case .quizHasAttempts:
            self.init(.conflict, "quiz_has_attempts", failure.message)
        case .questionNotInTopic:
            self.init(.unprocessableContent, "question_not_in_topic", failure.message, field: "questionIds")
        case .tooManyQuestions:
            self.init(.unprocessableContent, "too_many_questions", failure.message, field: "questionIds")
        case .nameAllInQuiz:
            self.init(.unprocessableContent, "name_all_in_quiz", failure.message, field: "questionIds")
        case .badCover:
            self.init(.unprocessableContent, "bad_cover", failure.message, field: "cover")
        case .tooManyPictures:
            self.init(.tooManyRequests, "too_many_pictures", failure.message)
        }
    }

    init(_ failure: QuestionAuthoring.Failure) {
        switch failure {
        case .notAuthor:
            self = .needsAuthor
        case .topicNotFound:
            self = .notFound("topic")
        case .questionNotFound:
            self = .notFound("question")
        case .invalid(let errors):
            self.init(.unprocessableContent, "invalid_question", failure.message, field: errors.first?.field,
                      problems: errors.map { FormatProblem(path: $0.field, message: $0.message) })
        case .kindLocked:
            self.init(.conflict, "kind_locked", failure.message, field: "kind")
        case .nameAllInQuiz:
            self.init(.unprocessableContent, "name_all_in_quiz", failure.message, field: "kind")
        case .tooManyPictures:
            self.init(.tooManyRequests, "rate_limited", failure.message, field: "picture")
            retryAfter = 3600
        }
    }

    init(_ failure: ManageUsers.Failure) {
        switch failure {
        case .notAdmin:
            self.init(.forbidden, "forbidden", failure.message)
        case .searchTooLong:
            self.init(.unprocessableContent, "invalid_search", failure.message, field: "search")
        case .notFound:
            self = .notFound("user")
        case .lastAdmin:
            self.init(.conflict, "last_admin", failure.message, field: "role")
        }
    }
}

extension QuestionDraft {
    /// Throws only for a picture that is not base64; everything else is the use case's to judge.
    init(_ wire: Components.Schemas.AuthoredQuestion) throws {
        self.init()
        if wire.removePicture == true {
            picture = .remove
        } else if let encoded = wire.picture?.data {
            guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
                throw APIError(.unprocessableContent, "invalid_question", "The picture is not valid base64.", field: "picture.data")
            }
            picture = .replace(data)
        }
        pictureAlt = wire.picture?.alt
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
            timeLimitSeconds: draft.timeLimitSeconds, typoTolerance: question.kind == .nameAll ? draft.typoTolerance : nil,
            picture: question.picture.map(Components.Schemas.QuestionPicture.init)
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
