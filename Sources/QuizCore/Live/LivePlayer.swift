import Foundation

/// A player of a live game, numbered from 1 in the order they joined.
public struct LivePlayer: Sendable, Equatable {
    public var id: Int
    public var nickname: String
    public var userId: Int64?
    /// 1-based; nil without teams.
    public var team: Int?
    public var score = 0
    public var correct = 0
    public var streak = 0
    public var kicked = false
    /// The rank at the last leaderboard, and the places moved to it from the one before.
    public var boardRank: Int?
    public var movement = 0

    public init(id: Int, nickname: String, userId: Int64?, team: Int?) {
        self.id = id
        self.nickname = nickname
        self.userId = userId
        self.team = team
    }
}

/// An answer a live game took: the first of its player for its question.
public struct LiveAnswer: Sendable, Equatable {
    public var playerId: Int
    public var questionIndex: Int
    public var answer: Answer
    public var isCorrect: Bool
    /// Speed points, without the streak bonus.
    public var points: Int
    public var bonus: Int
    /// From the question's opening to the answer's arrival.
    public var milliseconds: Int
    public var late: Bool
    /// How much of the question it earned (none when late): full or none but for partial credit,
    /// a matching's pairs, an estimate's closeness. `points` are the speed points times it.
    public var credit: Credit

    /// `credit` nil: full when correct, else none (as answers were before partial credit).
    public init(playerId: Int, questionIndex: Int, answer: Answer, isCorrect: Bool, points: Int, bonus: Int,
                milliseconds: Int, late: Bool, credit: Credit? = nil) {
        self.playerId = playerId
        self.questionIndex = questionIndex
        self.answer = answer
        self.isCorrect = isCorrect
        self.points = points
        self.bonus = bonus
        self.milliseconds = milliseconds
        self.late = late
        self.credit = credit ?? (isCorrect ? .full : .none)
    }
}
