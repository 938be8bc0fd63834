import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// Practice rounds (`Practice`) and single or random questions (`SingleQuestion`): signed-in
/// callers only.
struct PracticeAPI: Sendable {
    let practice: Practice
    let singleQuestion: SingleQuestion

    func getPracticeSettings(_ input: Operations.GetPracticeSettings.Input, by caller: SignedInCaller) async throws -> Operations.GetPracticeSettings.Output {
        return .ok(.init(body: .json(.init(try await practice.settings(userId: caller.user.id)))))
    }

    func startPractice(_ input: Operations.StartPractice.Input, by caller: SignedInCaller) async throws -> Operations.StartPractice.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let start: Practice.Start
        do {
            start = try await practice.start(userId: caller.user.id, settings: PracticeSettings(body.settings), acceptFewer: body.acceptFewer ?? false)
        } catch Practice.Failure.invalidSettings(let problems) {
            let problem = problems.first ?? .init(field: "settings", message: "These settings cannot be played.")
            throw APIError(.unprocessableContent, "invalid_settings", problem.message, field: problem.field)
        }
        let status: Components.Schemas.PracticeOutcome.StatusPayload = switch start.draw.status {
        case _ where start.attempt != nil: .started
        case .fewerThanAsked: .fewerThanAsked
        case .poolUsedUp: .poolUsedUp
        case .nothingMatches: .nothingMatches
        case .full: .started
        }
        return .ok(.init(body: .json(.init(
            status: status, matching: start.draw.matching, unseen: start.draw.unseen,
            attempt: start.attempt.map { .init($0, questionCount: start.draw.questionIds.count) },
            questionIds: start.attempt == nil ? nil : start.draw.questionIds
        ))))
    }

    func forgetSeenQuestions(_ input: Operations.ForgetSeenQuestions.Input, by caller: SignedInCaller) async throws -> Operations.ForgetSeenQuestions.Output {
        try await practice.forgetSeen(userId: caller.user.id)
        return .noContent(.init())
    }

    func getRandomQuestion(_ input: Operations.GetRandomQuestion.Input, by caller: SignedInCaller) async throws -> Operations.GetRandomQuestion.Output {
        do {
            let question = try await singleQuestion.random(subjectId: input.query.subjectId, topicId: input.query.topicId, userId: caller.user.id)
            return .ok(.init(body: .json(.init(presented: question, position: 1))))
        } catch let failure as SingleQuestion.Failure {
            throw APIError(failure)
        }
    }

    func getQuestion(_ input: Operations.GetQuestion.Input, by caller: SignedInCaller) async throws -> Operations.GetQuestion.Output {
        do {
            let question = try await singleQuestion.question(id: input.path.questionId, userId: caller.user.id)
            return .ok(.init(body: .json(.init(presented: question, position: 1))))
        } catch let failure as SingleQuestion.Failure {
            throw APIError(failure)
        }
    }

    func answerQuestion(_ input: Operations.AnswerQuestion.Input, by caller: SignedInCaller) async throws -> Operations.AnswerQuestion.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let answered: SingleQuestion.Answered
        do {
            answered = try await singleQuestion.answer(AnswerInput(body), questionId: input.path.questionId, userId: caller.user.id)
        } catch let failure as SingleQuestion.Failure {
            throw APIError(failure)
        }
        let stored = answered.stored
        return .ok(.init(body: .json(.init(
            verdict: .init(rawValue: answered.verdict.rawValue) ?? .wrong, pointsAwarded: stored.pointsAwarded,
            credit: answered.credit.value, counted: stored.counted,
            correctAnswer: .init(answered.question.correctAnswer), explanation: answered.question.explanation
        ))))
    }
}

extension APIError {
    init(_ failure: SingleQuestion.Failure) {
        switch failure {
        case .notFound: self = .notFound("question")
        case .noneMatches: self.init(.notFound, "no_questions", "No question matches: try another subject or topic.")
        case .badAnswer(let problem): self.init(problem)
        }
    }
}

extension PracticeSettings {
    /// From the wire; the use case checks the rules.
    init(_ wire: Components.Schemas.PracticeSettings) {
        self.init(
            subjectIds: Set(wire.subjectIds), topicIds: Set(wire.topicIds),
            difficulty: wire.difficulty.flatMap { Difficulty(rawValue: $0.rawValue) }, count: wire.count,
            kinds: Set(wire.kinds.compactMap { QuestionKind(rawValue: $0.rawValue) }),
            order: wire.order == .bank ? .bankOrder : .random, timeLimitSeconds: wire.timeLimitSeconds
        )
    }
}

extension Components.Schemas.PracticeSettings {
    init(_ settings: PracticeSettings) {
        self.init(
            subjectIds: settings.subjectIds.sorted(), topicIds: settings.topicIds.sorted(),
            difficulty: settings.difficulty.flatMap { .init(rawValue: $0.rawValue) }, count: settings.count,
            kinds: settings.kinds.sorted { $0.rawValue < $1.rawValue }.compactMap { .init(rawValue: $0.rawValue) },
            order: settings.order == .bankOrder ? .bank : .random,
            timeLimitSeconds: settings.timeLimitSeconds
        )
    }
}
