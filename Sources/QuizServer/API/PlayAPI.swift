import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// Playing a quiz (`PlayQuiz`) and the leaderboard: signed-in callers only.
struct PlayAPI: Sendable {
    let playQuiz: PlayQuiz
    let leaderboard: LeaderboardQuery
    let time: any TimeSource

    func startAttempt(_ input: Operations.StartAttempt.Input, by caller: SignedInCaller) async throws -> Operations.StartAttempt.Output {
        do {
            let started = try await playQuiz.start(quizId: input.path.quizId, userId: caller.user.id)
            return .created(.init(body: .json(.init(started.attempt, questionCount: started.quiz.questionCount))))
        } catch let failure as PlayQuiz.Failure {
            throw APIError(failure)
        }
    }

    func getAttempt(_ input: Operations.GetAttempt.Input, by caller: SignedInCaller) async throws -> Operations.GetAttempt.Output {
        do {
            let (attempt, count) = try await playQuiz.attempt(id: input.path.attemptId, userId: caller.user.id)
            return .ok(.init(body: .json(.init(attempt, questionCount: count))))
        } catch let failure as PlayQuiz.Failure {
            throw APIError(failure)
        }
    }

    func getAttemptQuestion(_ input: Operations.GetAttemptQuestion.Input, by caller: SignedInCaller) async throws -> Operations.GetAttemptQuestion.Output {
        let view: PlayQuiz.QuestionView
        do {
            view = try await playQuiz.question(attemptId: input.path.attemptId, questionId: input.path.questionId, userId: caller.user.id)
        } catch PlayQuiz.Failure.questionNotInQuiz {
            throw APIError.notFound("question")
        } catch let failure as PlayQuiz.Failure {
            throw APIError(failure)
        }
        return .ok(.init(body: .json(.init(question: .init(presented: view.question, position: view.position),
                                           shownAt: view.clock?.shownAt ?? time.now(), deadline: view.clock?.deadline))))
    }

    func submitAnswer(_ input: Operations.SubmitAnswer.Input, by caller: SignedInCaller) async throws -> Operations.SubmitAnswer.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let answered: PlayQuiz.Answered
        do {
            answered = try await playQuiz.answer(AnswerInput(body.answer), questionId: body.questionId,
                                                 attemptId: input.path.attemptId, userId: caller.user.id)
        } catch let failure as PlayQuiz.Failure {
            throw APIError(failure)
        }
        return .ok(.init(body: .json(.init(
            verdict: .init(answered.verdict), pointsAwarded: answered.points, credit: answered.credit.value,
            correctAnswer: .init(answered.question.correctAnswer), explanation: answered.question.explanation
        ))))
    }

    func finishAttempt(_ input: Operations.FinishAttempt.Input, by caller: SignedInCaller) async throws -> Operations.FinishAttempt.Output {
        let score: AttemptScore
        do {
            score = try await playQuiz.finish(attemptId: input.path.attemptId, userId: caller.user.id)
        } catch let failure as PlayQuiz.Failure {
            throw APIError(failure)
        }
        return .ok(.init(body: .json(.init(
            correctCount: score.attempt.correctCount, questionCount: score.questionCount,
            points: score.attempt.points, pointsAdded: score.pointsAdded, totalPoints: score.totalPoints, userPoints: score.userPoints,
            rank: score.rank, timeTakenSeconds: score.attempt.timeTaken ?? 0
        ))))
    }

    func getLeaderboard(_ input: Operations.GetLeaderboard.Input, by caller: SignedInCaller) async throws -> Operations.GetLeaderboard.Output {
        let limit = try APIError.checked(input.query.limit, "limit", default: LeaderboardQuery.defaultLimit, in: LeaderboardQuery.limits)
        let board = try await leaderboard(userId: caller.user.id, limit: limit)
        return .ok(.init(body: .json(.init(
            top: board.top.map(Components.Schemas.Ranking.init), me: .init(board.me), footer: board.footer.map(Components.Schemas.Ranking.init)
        ))))
    }
}

extension AnswerInput {
    /// The wire answer's fields as sent; the use case holds the rule of exactly one.
    init(_ input: Components.Schemas.AnswerInput) {
        self.init(choice: input.choiceId, choices: input.choiceIds, value: input.value, text: input.text,
                  number: input.number.map { .value($0) }, order: input.order,
                  matches: input.matches.map { Self.numbered($0.additionalProperties) },
                  gaps: input.gaps.map { gaps in
                      Self.numbered(gaps.additionalProperties.compactMapValues { gap in
                          gap.choiceId.map(GapFill.GapAnswer.choice) ?? gap.text.map(GapFill.GapAnswer.text)
                      })
                  }, read: input.read)
    }

    /// Parts by number; a key that is no number names no part (0, which every question refuses).
    static func numbered<Value>(_ object: [String: Value]) -> [Int: Value] {
        Dictionary(object.map { (Int($0.key) ?? 0, $0.value) }) { first, _ in first }
    }
}

extension APIError {
    init(_ failure: PlayQuiz.Failure) {
        switch failure {
        case .quizNotFound: self = .notFound("quiz")
        case .attemptNotFound: self = .notFound("attempt")
        case .questionNotInQuiz(let id):
            self.init(.unprocessableContent, "question_not_in_quiz", "Question \(id) is not part of this quiz.", field: "questionId")
        case .attemptFinished:
            self.init(.conflict, "attempt_finished", "This attempt is finished; start a new one to play again.")
        case .notShown:
            self.init(.conflict, "question_not_shown",
                      "This quiz is timed: get the question (GET /attempts/{attemptId}/questions/{questionId}) to start its clock, then answer.",
                      field: "questionId")
        case .badAnswer(let problem): self.init(problem)
        // Only pages ask for a result; the API's finish answers with the score.
        case .notFinished: self.init(.conflict, "attempt_not_finished", "This attempt is still being played.")
        }
    }

    /// An answer whose shape does not fit its question: 422, naming the field.
    init(_ problem: AnswerProblem) {
        switch problem {
        case .notOneField:
            self.init(.unprocessableContent, "invalid_answer", "Give exactly one of choiceId, choiceIds, value, text or number.", field: "answer")
        case .empty:
            self.init(.unprocessableContent, "invalid_answer", "An answer may not be empty: choose at least one choice or type something.",
                      field: "answer")
        case .tooLong:
            self.init(.unprocessableContent, "answer_too_long", "An answer may be at most 1,000 bytes.", field: "answer.text")
        case .tooManyChoices:
            self.init(.unprocessableContent, "invalid_answer", "A question has at most 10 choices.", field: "answer.choiceIds")
        case .tooManyParts:
            self.init(.unprocessableContent, "invalid_answer", "A question has at most 8 items, 10 prompts and 20 gaps.", field: "answer")
        case .unknownChoice(let id):
            self.init(.unprocessableContent, "unknown_choice", "Choice \(id) is not one of this question's choices.", field: "answer")
        case .doesNotFit(let kind):
            self.init(.unprocessableContent, "answer_does_not_fit", Self.expectation(for: kind), field: "answer")
        case .notAnOrder(let count):
            self.init(.unprocessableContent, "answer_not_an_order",
                      "An ordering answer lists each of the question's \(count) items exactly once.", field: "answer")
        case .unknownPart(let id):
            self.init(.unprocessableContent, "unknown_part", "\(id) is not one of this question's prompts, answers or gaps.", field: "answer")
        case .outOfRange(let range):
            self.init(.unprocessableContent, "answer_out_of_range",
                      "The estimate must be between \(NumberFormatting.plain(range.lowerBound)) and \(NumberFormatting.plain(range.upperBound)).", field: "answer")
        }
    }

    static func expectation(for kind: QuestionKind) -> String {
        switch kind {
        case .singleChoice: "This question takes one choice: send {\"choiceId\": N}."
        case .multipleChoice: "This question takes several choices: send {\"choiceIds\": [N, …]}."
        case .trueFalse: "This question takes true or false: send {\"value\": true}."
        case .typedAnswer: "This question takes text: send {\"text\": \"…\"}."
        case .numeric: "This question takes a number: send {\"number\": 42}."
        case .nameAll: "This question is played as a timed game, not answered in a quiz."
        case .ordering: "This question takes an order: send {\"order\": [id, …]} with every item's id once."
        case .matching: "This question takes matches: send {\"matches\": {\"1\": id, …}}, prompt ids to answer ids."
        case .gapFill: "This question takes gaps: send {\"gaps\": {\"1\": {\"choiceId\": id} or {\"text\": \"…\"}, …}}."
        case .poll: "This question takes one choice: send {\"choiceId\": N}."
        case .wordCloud: "This question takes a word or a few: send {\"text\": \"…\"} (up to 40 characters)."
        case .estimate: "This question takes a number in its range: send {\"number\": 42}."
        case .slide: "A slide is read: send {\"read\": true} to move on."
        }
    }
}
