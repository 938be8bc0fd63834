import Foundation

/// Playing: quiz attempts, practice rounds (which are attempts too) and questions on their own.
extension QuizboxClient {
    public typealias AttemptQuestion = Components.Schemas.AttemptQuestion
    public typealias PracticeSettings = Components.Schemas.PracticeSettings
    public typealias PracticeOutcome = Components.Schemas.PracticeOutcome
    public typealias SingleAnswerResult = Components.Schemas.SingleAnswerResult

    public func startAttempt(quizId: Int64) async throws(Error) -> Attempt {
        try await perform {
            switch try await client.startAttempt(path: .init(quizId: quizId)) {
            case .created(let created): return try created.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// The attempt with its verdicts so far (to carry on after the app was closed).
    public func attempt(id: Int64) async throws(Error) -> Attempt {
        try await perform {
            switch try await client.getAttempt(path: .init(attemptId: id)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// One question of an attempt. On a timed round the first call starts its clock: fetch each
    /// question when it is shown, then answer it before `deadline`.
    public func question(attemptId: Int64, questionId: Int64) async throws(Error) -> AttemptQuestion {
        try await perform {
            switch try await client.getAttemptQuestion(path: .init(attemptId: attemptId, questionId: questionId)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Answers one question of an attempt; the result carries the correct answer and explanation.
    /// The answer's case follows the question's kind: `.choice` (single choice), `.choices`
    /// (multiple choice), `.bool` (true/false), `.text` (typed answer), `.number` (numeric). Choices
    /// are named by the ids the question came with (keyed by the server, never a place in a list).
    public func answer(attemptId: Int64, questionId: Int64, with answer: Answer) async throws(Error) -> AnswerResult {
        let body = Components.Schemas.AnswerRequest(questionId: questionId, answer: .init(answer))
        return try await perform {
            switch try await client.submitAnswer(path: .init(attemptId: attemptId), body: .json(body)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Finishes the attempt and adds its points to the player's total (once).
    public func finish(attemptId: Int64) async throws(Error) -> AttemptResult {
        try await perform {
            switch try await client.finishAttempt(path: .init(attemptId: attemptId)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// The player's last practice settings, or the server's defaults.
    public func practiceSettings() async throws(Error) -> PracticeSettings {
        try await perform {
            switch try await client.getPracticeSettings() {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Draws a practice round. `status` says whether it started (then `attempt` and
    /// `questionIds` are set: play them with ``question(attemptId:questionId:)``) or why not.
    public func startPractice(_ settings: PracticeSettings, acceptFewer: Bool = false) async throws(Error) -> PracticeOutcome {
        try await perform {
            switch try await client.startPractice(body: .json(.init(settings: settings, acceptFewer: acceptFewer))) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Starts practice over: every question can be drawn again.
    public func forgetSeenQuestions() async throws(Error) {
        try await perform {
            switch try await client.forgetSeenQuestions() {
            case .noContent: return
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// A random question (any kind but name-them-all), from a subject or topic if given.
    public func randomQuestion(subjectId: Int64? = nil, topicId: Int64? = nil) async throws(Error) -> Question {
        try await perform {
            switch try await client.getRandomQuestion(query: .init(subjectId: subjectId, topicId: topicId)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func question(id: Int64) async throws(Error) -> Question {
        try await perform {
            switch try await client.getQuestion(path: .init(questionId: id)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Answers a question on its own; only the day's first answer to it counts for points.
    public func answer(questionId: Int64, with answer: Answer) async throws(Error) -> SingleAnswerResult {
        try await perform {
            switch try await client.answerQuestion(path: .init(questionId: questionId), body: .json(.init(answer))) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }
}
