import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

extension APIHandler {
    var playing: Playing { Playing(store: store, time: time, games: games, guessLimiter: guessLimiter) }

    func getAttemptQuestion(_ input: Operations.GetAttemptQuestion.Input) async throws -> Operations.GetAttemptQuestion.Output {
        let user = try await requireUser()
        guard let attempt = try await store.attempt(id: input.path.attemptId, userId: user.id),
              let quiz = try await store.quiz(id: attempt.quizId) else { throw APIError.notFound("attempt") }
        let questions = try await store.questions(quizId: quiz.id)
        guard let index = questions.firstIndex(where: { $0.id == input.path.questionId }) else { throw APIError.notFound("question") }
        // A finished attempt's clock no longer matters; do not start one.
        let (shownAt, deadline) = attempt.isFinished ? (time.now(), nil) : try await playing.show(attemptId: attempt.id, quiz: quiz, questionId: input.path.questionId)
        return .ok(.init(body: .json(.init(question: .init(question: questions[index], position: index + 1, seed: attempt.id), shownAt: shownAt, deadline: deadline))))
    }

    func getPracticeSettings(_ input: Operations.GetPracticeSettings.Input) async throws -> Operations.GetPracticeSettings.Output {
        let user = try await requireUser()
        let settings = try await store.practiceSettings(userId: user.id) ?? PracticeSettings()
        return .ok(.init(body: .json(.init(settings))))
    }

    func startPractice(_ input: Operations.StartPractice.Input) async throws -> Operations.StartPractice.Output {
        let user = try await requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let settings = try PracticeSettings(body.settings)
        let start = try await playing.startPractice(userId: user.id, settings: settings, acceptFewer: body.acceptFewer ?? false)
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
        try await store.forgetSeenQuestions(userId: user.id)
        return .noContent(.init())
    }

    func getRandomQuestion(_ input: Operations.GetRandomQuestion.Input) async throws -> Operations.GetRandomQuestion.Output {
        let user = try await requireUser()
        guard let question = try await playing.randomQuestion(subjectId: input.query.subjectId, topicId: input.query.topicId,
                                                              shownTo: user.id) else {
            throw APIError(.notFound, "no_questions", "No question matches: try another subject or topic.")
        }
        return .ok(.init(body: .json(.init(question: question, position: 1))))
    }

    func getQuestion(_ input: Operations.GetQuestion.Input) async throws -> Operations.GetQuestion.Output {
        let user = try await requireUser()
        guard let question = try await playing.playableQuestion(id: input.path.questionId, shownTo: user.id) else {
            throw APIError.notFound("question")
        }
        return .ok(.init(body: .json(.init(question: question, position: 1))))
    }

    func answerQuestion(_ input: Operations.AnswerQuestion.Input) async throws -> Operations.AnswerQuestion.Output {
        let user = try await requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard let question = try await playing.playableQuestion(id: input.path.questionId, shownTo: user.id) else {
            throw APIError.notFound("question")
        }
        let answer = try Self.answer(from: body, for: question)
        let isCorrect = try Self.grade(answer, for: question)
        let stored = try await playing.answerAlone(userId: user.id, question: question, given: Self.describe(answer), isCorrect: isCorrect)
        return .ok(.init(body: .json(.init(
            verdict: isCorrect ? .correct : .wrong, pointsAwarded: stored.pointsAwarded, counted: stored.counted,
            correctAnswer: .init(question.correctAnswer), explanation: question.explanation
        ))))
    }

    /// Grades an answer, turning a mismatch with the question into the API's 422s.
    static func grade(_ answer: Answer, for question: Question) throws -> Bool {
        do {
            return try question.isCorrect(answer)
        } catch .unknownChoice(let id) {
            throw APIError(.unprocessableContent, "unknown_choice", "Choice \(id) is not one of this question's choices.", field: "answer")
        } catch .answerDoesNotFitKind(let kind) {
            throw APIError(.unprocessableContent, "answer_does_not_fit", Self.expectation(for: kind), field: "answer")
        }
    }
}

extension PracticeSettings {
    /// From the wire, validated: every problem is a 422 naming its field.
    init(_ wire: Components.Schemas.PracticeSettings) throws {
        self.init(
            subjectIds: Set(wire.subjectIds), topicIds: Set(wire.topicIds),
            difficulty: wire.difficulty.flatMap { Difficulty(rawValue: $0.rawValue) }, count: wire.count,
            kinds: Set(wire.kinds.compactMap { QuestionKind(rawValue: $0.rawValue) }),
            order: wire.order == .bank ? .bankOrder : .random, timeLimitSeconds: wire.timeLimitSeconds
        )
        if let problem = validationErrors().first {
            throw APIError(.unprocessableContent, "invalid_settings", problem.message, field: problem.field)
        }
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
