import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

extension APIHandler {
    func startAttempt(_ input: Operations.StartAttempt.Input) async throws -> Operations.StartAttempt.Output {
        let user = try await requireUser()
        guard let quiz = try await catalogQuiz(id: input.path.quizId) else { throw APIError.notFound("quiz") }
        let attempt = try await store.startAttempt(userId: user.id, quizId: quiz.id, at: time.now())
        return .created(.init(body: .json(.init(attempt, questionCount: quiz.questionCount))))
    }

    func getAttempt(_ input: Operations.GetAttempt.Input) async throws -> Operations.GetAttempt.Output {
        let user = try await requireUser()
        // Someone else's attempt is "not found": its existence is not theirs to learn.
        guard let attempt = try await store.attempt(id: input.path.attemptId, userId: user.id) else {
            throw APIError.notFound("attempt")
        }
        let count = try await store.quiz(id: attempt.quizId)?.questionCount ?? 0
        return .ok(.init(body: .json(.init(attempt, questionCount: count))))
    }

    func submitAnswer(_ input: Operations.SubmitAnswer.Input) async throws -> Operations.SubmitAnswer.Output {
        let user = try await requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let attemptId = input.path.attemptId
        guard let quizId = try await store.attemptQuiz(id: attemptId, userId: user.id),
              let quiz = try await store.quiz(id: quizId) else {
            throw APIError.notFound("attempt")
        }
        guard let question = try await store.question(id: body.questionId, inQuiz: quizId) else {
            throw APIError(.unprocessableContent, "question_not_in_quiz", "Question \(body.questionId) is not part of this quiz.", field: "questionId")
        }
        let answer = try Self.answer(from: body.answer, for: question)
        let isCorrect = try Self.grade(answer, for: question)
        let outcome: (verdict: Playing.Verdict, points: Int)
        do {
            outcome = try await playing.answer(attemptId: attemptId, quiz: quiz, question: question, given: Self.describe(answer), isCorrect: isCorrect)
        } catch StoreError.attemptFinished {
            throw APIError(.conflict, "attempt_finished", "This attempt is finished; start a new one to play again.")
        } catch Playing.PlayError.notShown {
            throw APIError(.conflict, "question_not_shown",
                           "This quiz is timed: get the question (GET /attempts/\(attemptId)/questions/\(body.questionId)) to start its clock, then answer.",
                           field: "questionId")
        }
        let verdict: Components.Schemas.Verdict = switch outcome.verdict {
        case .correct: .correct
        case .wrong: .wrong
        case .alreadyAnswered: .alreadyAnswered
        case .tooLate: .tooLate
        }
        return .ok(.init(body: .json(.init(
            verdict: verdict,
            pointsAwarded: outcome.points,
            correctAnswer: .init(question.correctAnswer),
            explanation: question.explanation
        ))))
    }

    func finishAttempt(_ input: Operations.FinishAttempt.Input) async throws -> Operations.FinishAttempt.Output {
        let user = try await requireUser()
        let score: AttemptScore
        do {
            score = try await store.finishAttempt(id: input.path.attemptId, userId: user.id, at: time.now())
        } catch StoreError.notFound {
            throw APIError.notFound("attempt")
        }
        return .ok(.init(body: .json(.init(
            correctCount: score.attempt.correctCount, questionCount: score.questionCount,
            points: score.attempt.points, pointsAdded: score.pointsAdded, totalPoints: score.totalPoints, userPoints: score.userPoints,
            rank: score.rank, timeTakenSeconds: score.attempt.timeTaken ?? 0
        ))))
    }

    func getLeaderboard(_ input: Operations.GetLeaderboard.Input) async throws -> Operations.GetLeaderboard.Output {
        let user = try await requireUser()
        let limit = try APIError.checked(input.query.limit, "limit", default: 3, in: 1...100)
        let board = try await store.leaderboard(userId: user.id, limit: limit)
        return .ok(.init(body: .json(.init(
            top: board.top.map(Components.Schemas.Ranking.init), me: .init(board.me), footer: board.footer.map(Components.Schemas.Ranking.init)
        ))))
    }

    /// Reads the one field of the wire answer that fits the question's kind.
    static func answer(from input: Components.Schemas.AnswerInput, for question: Question) throws -> Answer {
        let given = [input.choiceId != nil, input.choiceIds != nil, input.value != nil, input.text != nil, input.number != nil]
            .filter { $0 }.count
        guard given == 1 else {
            throw APIError(.unprocessableContent, "invalid_answer", "Give exactly one of choiceId, choiceIds, value, text or number.", field: "answer")
        }
        if let text = input.text, text.utf8.count > 1_000 {
            throw APIError(.unprocessableContent, "answer_too_long", "An answer may be at most 1,000 bytes.", field: "answer.text")
        }
        if let ids = input.choiceIds, ids.count > 10 {
            throw APIError(.unprocessableContent, "invalid_answer", "A question has at most 10 choices.", field: "answer.choiceIds")
        }
        if let id = input.choiceId { return .choice(id) }
        if let ids = input.choiceIds { return .choices(Set(ids)) }
        if let value = input.value { return .bool(value) }
        if let text = input.text { return .text(text) }
        if let number = input.number, number.isFinite { return .number(number) }
        throw APIError(.unprocessableContent, "invalid_answer", Self.expectation(for: question.kind), field: "answer")
    }

    static func expectation(for kind: QuestionKind) -> String {
        switch kind {
        case .singleChoice: "This question takes one choice: send {\"choiceId\": N}."
        case .multipleChoice: "This question takes several choices: send {\"choiceIds\": [N, …]}."
        case .trueFalse: "This question takes true or false: send {\"value\": true}."
        case .typedAnswer: "This question takes text: send {\"text\": \"…\"}."
        case .numeric: "This question takes a number: send {\"number\": 42}."
        case .nameAll: "This question is played as a timed game, not answered in a quiz."
        }
    }

    /// The answer as stored with the verdict, for history pages.
    static func describe(_ answer: Answer) -> String {
        switch answer {
        case .choice(let id): "{\"choiceId\":\(id)}"
        case .choices(let ids): "{\"choiceIds\":[\(ids.sorted().map(String.init).joined(separator: ","))]}"
        case .bool(let value): "{\"value\":\(value)}"
        case .text(let text): (try? String(decoding: JSONEncoder().encode(["text": text]), as: UTF8.self)) ?? "{}"
        case .number(let value): "{\"number\":\(value)}"
        }
    }
}
