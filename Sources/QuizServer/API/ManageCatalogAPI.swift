import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

/// Authoring the catalog (`CatalogAuthoring`): the outline, subjects, topics and quizzes, and which
/// questions a quiz holds. Authors and admins only.
struct ManageCatalogAPI: Sendable {
    let catalog: CatalogAuthoring

    /// The use case's refusals as the API's errors.
    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        try await APIError.translating({ (failure: CatalogAuthoring.Failure) in APIError(failure) }, body)
    }

    func getOutline(_ input: Operations.GetOutline.Input, by caller: AuthorCaller) async throws -> Operations.GetOutline.Output {
        let subjects = try await refusing { try await catalog.outline(by: caller.user) }
        return .ok(.init(body: .json(.init(subjects: subjects.map(Components.Schemas.OutlineSubject.init)))))
    }

    func createSubject(_ input: Operations.CreateSubject.Input, by caller: AuthorCaller) async throws -> Operations.CreateSubject.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let id = try await refusing { try await catalog.create(.subject, in: nil, name: body.name, description: body.description ?? "", by: caller.user) }
        return .created(.init(body: .json(.init(id: id))))
    }

    func updateSubject(_ input: Operations.UpdateSubject.Input, by caller: AuthorCaller) async throws -> Operations.UpdateSubject.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let change = CatalogChange(name: body.name, description: body.description, position: body.position)
        try await refusing { try await catalog.update(.subject, input.path.subjectId, change, by: caller.user) }
        return .noContent(.init())
    }

    func deleteSubject(_ input: Operations.DeleteSubject.Input, by caller: AuthorCaller) async throws -> Operations.DeleteSubject.Output {
        try await refusing { try await catalog.delete(.subject, input.path.subjectId, by: caller.user) }
        return .noContent(.init())
    }

    func createTopic(_ input: Operations.CreateTopic.Input, by caller: AuthorCaller) async throws -> Operations.CreateTopic.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let id = try await refusing {
            try await catalog.create(.topic, in: input.path.subjectId, name: body.name, description: body.description ?? "", by: caller.user)
        }
        return .created(.init(body: .json(.init(id: id))))
    }

    func updateTopic(_ input: Operations.UpdateTopic.Input, by caller: AuthorCaller) async throws -> Operations.UpdateTopic.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let change = CatalogChange(name: body.name, description: body.description, position: body.position)
        try await refusing { try await catalog.update(.topic, input.path.topicId, change, by: caller.user) }
        return .noContent(.init())
    }

    func deleteTopic(_ input: Operations.DeleteTopic.Input, by caller: AuthorCaller) async throws -> Operations.DeleteTopic.Output {
        try await refusing { try await catalog.delete(.topic, input.path.topicId, by: caller.user) }
        return .noContent(.init())
    }

    func createQuiz(_ input: Operations.CreateQuiz.Input, by caller: AuthorCaller) async throws -> Operations.CreateQuiz.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let id = try await refusing {
            try await catalog.create(.quiz, in: input.path.topicId, name: body.title, description: body.description ?? "", by: caller.user)
        }
        return .created(.init(body: .json(.init(id: id))))
    }

    func getManagedQuiz(_ input: Operations.GetManagedQuiz.Input, by caller: AuthorCaller) async throws -> Operations.GetManagedQuiz.Output {
        let managed = try await refusing { try await catalog.quiz(input.path.quizId, by: caller.user) }
        let quiz = managed.quiz
        return .ok(.init(body: .json(.init(
            id: quiz.id, topicId: quiz.topicId, title: quiz.title, description: quiz.description, published: quiz.isPublished,
            questions: managed.questions.map { .init($0, topicId: quiz.topicId) }
        ))))
    }

    func updateQuiz(_ input: Operations.UpdateQuiz.Input, by caller: AuthorCaller) async throws -> Operations.UpdateQuiz.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let change = CatalogChange(name: body.title, description: body.description, position: body.position, published: body.published)
        try await refusing { try await catalog.update(.quiz, input.path.quizId, change, by: caller.user) }
        return .noContent(.init())
    }

    func deleteQuiz(_ input: Operations.DeleteQuiz.Input, by caller: AuthorCaller) async throws -> Operations.DeleteQuiz.Output {
        try await refusing { try await catalog.delete(.quiz, input.path.quizId, by: caller.user) }
        return .noContent(.init())
    }

    func setQuizQuestions(_ input: Operations.SetQuizQuestions.Input, by caller: AuthorCaller) async throws -> Operations.SetQuizQuestions.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        try await refusing { try await catalog.setQuestions(body.questionIds, ofQuiz: input.path.quizId, by: caller.user) }
        return .noContent(.init())
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
