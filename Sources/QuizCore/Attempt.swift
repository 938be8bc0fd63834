import Foundation

/// A user's run through a quiz.
public struct Attempt: Sendable, Hashable {
    public var id: Int64
    public var userId: Int64
    public var quizId: Int64
    public var startedAt: Date
    public var finishedAt: Date?
    public var answers: [AnsweredQuestion]

    public init(id: Int64, userId: Int64, quizId: Int64, startedAt: Date, finishedAt: Date? = nil, answers: [AnsweredQuestion] = []) {
        self.id = id
        self.userId = userId
        self.quizId = quizId
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.answers = answers
    }

    public var isFinished: Bool { finishedAt != nil }
    public var correctCount: Int { answers.lazy.filter(\.isCorrect).count }
    public var points: Int { answers.reduce(0) { $0 + $1.pointsAwarded } }
    public var timeTaken: TimeInterval? { finishedAt.map { $0.timeIntervalSince(startedAt) } }
}

/// The verdict on one question of an attempt, as stored.
public struct AnsweredQuestion: Sendable, Hashable {
    public var questionId: Int64
    public var isCorrect: Bool
    public var pointsAwarded: Int
    public var answeredAt: Date
    /// What the player gave, as stored (JSON with one of choiceId, choiceIds, value, text, number).
    public var given: String?

    public init(questionId: Int64, isCorrect: Bool, pointsAwarded: Int, answeredAt: Date, given: String? = nil) {
        self.questionId = questionId
        self.isCorrect = isCorrect
        self.pointsAwarded = pointsAwarded
        self.answeredAt = answeredAt
        self.given = given
    }
}

/// What finishing an attempt produced. `newlyFinished` is false when it had been finished before.
public struct AttemptScore: Sendable, Hashable {
    public var attempt: Attempt
    public var questionCount: Int
    public var totalPoints: Int
    public var userPoints: Int64
    public var rank: Int64
    public var newlyFinished: Bool
    /// What finishing added to the player's total: a quiz counts its best score once, so a replay
    /// adds only what it beats the best by (practice: each question's points once).
    public var pointsAdded: Int

    public init(attempt: Attempt, questionCount: Int, totalPoints: Int, userPoints: Int64, rank: Int64, newlyFinished: Bool,
                pointsAdded: Int? = nil) {
        self.pointsAdded = pointsAdded ?? attempt.points
        self.attempt = attempt
        self.questionCount = questionCount
        self.totalPoints = totalPoints
        self.userPoints = userPoints
        self.rank = rank
        self.newlyFinished = newlyFinished
    }
}

/// One answered question in a player's recent play, newest first.
public struct HistoryItem: Sendable, Hashable {
    public var attemptId: Int64
    public var questionId: Int64
    public var questionText: String
    public var quizTitle: String
    public var isCorrect: Bool
    public var answeredAt: Date
    public var picture: QuestionPicture?

    public init(attemptId: Int64, questionId: Int64, questionText: String, quizTitle: String, isCorrect: Bool, answeredAt: Date,
                picture: QuestionPicture? = nil) {
        self.picture = picture
        self.attemptId = attemptId
        self.questionId = questionId
        self.questionText = questionText
        self.quizTitle = quizTitle
        self.isCorrect = isCorrect
        self.answeredAt = answeredAt
    }
}
