import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

extension APIHandler {
    func getPracticeSettings(_ input: Operations.GetPracticeSettings.Input) async throws -> Operations.GetPracticeSettings.Output {
        let user = try await requireUser()
        return .ok(.init(body: .json(.init(try await useCases.practice.settings(userId: user.id)))))
    }

    func startPractice(_ input: Operations.StartPractice.Input) async throws -> Operations.StartPractice.Output {
        let user = try await requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let start: Practice.Start
        do {
            start = try await useCases.practice.start(userId: user.id, settings: PracticeSettings(body.settings), acceptFewer: body.acceptFewer ?? false)
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

    func forgetSeenQuestions(_ input: Operations.ForgetSeenQuestions.Input) async throws -> Operations.ForgetSeenQuestions.Output {
        let user = try await requireUser()
        try await useCases.practice.forgetSeen(userId: user.id)
        return .noContent(.init())
    }

    func getRandomQuestion(_ input: Operations.GetRandomQuestion.Input) async throws -> Operations.GetRandomQuestion.Output {
        let user = try await requireUser()
        do {
            let question = try await useCases.singleQuestion.random(subjectId: input.query.subjectId, topicId: input.query.topicId, userId: user.id)
            return .ok(.init(body: .json(.init(presented: question, position: 1))))
        } catch let failure as SingleQuestion.Failure {
            throw APIError(failure)
        }
    }

    func getQuestion(_ input: Operations.GetQuestion.Input) async throws -> Operations.GetQuestion.Output {
        let user = try await requireUser()
        do {
            let question = try await useCases.singleQuestion.question(id: input.path.questionId, userId: user.id)
            return .ok(.init(body: .json(.init(presented: question, position: 1))))
        } catch let failure as SingleQuestion.Failure {
            throw APIError(failure)
        }
    }

    func answerQuestion(_ input: Operations.AnswerQuestion.Input) async throws -> Operations.AnswerQuestion.Output {
        let user = try await requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let answered: SingleQuestion.Answered
        do {
            answered = try await useCases.singleQuestion.answer(AnswerInput(body), questionId: input.path.questionId, userId: user.id)
        } catch let failure as SingleQuestion.Failure {
            throw APIError(failure)
        }
        let stored = answered.stored
        return .ok(.init(body: .json(.init(
            verdict: stored.isCorrect ? .correct : .wrong, pointsAwarded: stored.pointsAwarded, counted: stored.counted,
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
