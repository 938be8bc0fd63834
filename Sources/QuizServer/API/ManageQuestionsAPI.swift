import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

/// Authoring questions (`QuestionAuthoring`): a topic's bank, and each question with its picture.
/// Authors and admins only.
struct ManageQuestionsAPI: Sendable {
    let questions: QuestionAuthoring

    /// The use case's refusals as the API's errors.
    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        try await APIError.translating({ (failure: QuestionAuthoring.Failure) in APIError(failure) }, body)
    }

    func listTopicQuestions(_ input: Operations.ListTopicQuestions.Input, by caller: AuthorCaller) async throws -> Operations.ListTopicQuestions.Output {
        let topicId = input.path.topicId
        let bank = try await refusing { try await questions.bank(ofTopic: topicId, by: caller.user) }
        return .ok(.init(body: .json(.init(questions: bank.map { .init($0, topicId: topicId) }))))
    }

    func createQuestion(_ input: Operations.CreateQuestion.Input, by caller: AuthorCaller) async throws -> Operations.CreateQuestion.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let draft = try QuestionDraft(body)
        let stored = try await refusing { try await questions.create(draft, inTopic: input.path.topicId, by: caller.user) }
        return .created(.init(body: .json(.init(stored.question, topicId: stored.topicId))))
    }

    func getManagedQuestion(_ input: Operations.GetManagedQuestion.Input, by caller: AuthorCaller) async throws -> Operations.GetManagedQuestion.Output {
        let stored = try await refusing { try await questions.question(input.path.questionId, by: caller.user) }
        return .ok(.init(body: .json(.init(stored.question, topicId: stored.topicId))))
    }

    func updateQuestion(_ input: Operations.UpdateQuestion.Input, by caller: AuthorCaller) async throws -> Operations.UpdateQuestion.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let draft = try QuestionDraft(body)
        let stored = try await refusing { try await questions.update(input.path.questionId, to: draft, by: caller.user) }
        return .ok(.init(body: .json(.init(stored.question, topicId: stored.topicId))))
    }

    func deleteQuestion(_ input: Operations.DeleteQuestion.Input, by caller: AuthorCaller) async throws -> Operations.DeleteQuestion.Output {
        _ = try await refusing { try await questions.delete(input.path.questionId, by: caller.user) }
        return .noContent(.init())
    }
}

extension APIError {
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
