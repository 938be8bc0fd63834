import Foundation
import QuizCore

/// A player of an assignment: signed in (`userId`) or by nickname, with the hashes of the secret
/// their browser keeps and of the rejoin code for another device.
public struct AssignmentPlayerRecord: Sendable, Equatable {
    public var id: Int64
    public var assignmentId: Int64
    public var nickname: String
    public var userId: Int64?
    public var secretHash: String
    public var codeHash: String
    public var joinedAt: Date

    public init(id: Int64 = 0, assignmentId: Int64, nickname: String, userId: Int64?, secretHash: String, codeHash: String, joinedAt: Date) {
        (self.id, self.assignmentId, self.nickname, self.userId) = (id, assignmentId, nickname, userId)
        (self.secretHash, self.codeHash, self.joinedAt) = (secretHash, codeHash, joinedAt)
    }
}

/// One attempt of a player, with the questions in the order they play them.
public struct AssignmentAttemptRecord: Sendable, Equatable {
    public var id: Int64
    public var assignmentId: Int64
    public var playerId: Int64
    /// 1 for the first attempt.
    public var number: Int
    public var questionIds: [Int64]
    /// What it can earn at most (`Marks`), fixed at its start.
    public var maxMarks: Int
    public var startedAt: Date
    public var finishedAt: Date?

    public init(id: Int64 = 0, assignmentId: Int64, playerId: Int64, number: Int, questionIds: [Int64], maxMarks: Int,
                startedAt: Date, finishedAt: Date? = nil) {
        (self.id, self.assignmentId, self.playerId, self.number) = (id, assignmentId, playerId, number)
        (self.questionIds, self.maxMarks, self.startedAt, self.finishedAt) = (questionIds, maxMarks, startedAt, finishedAt)
    }
}

/// A question of an attempt once shown (its clock starts then), and its answer once given.
public struct AssignmentAnswerRecord: Sendable, Equatable {
    public var attemptId: Int64
    /// 0-based, in the attempt's order.
    public var position: Int
    public var questionId: Int64
    public var shownAt: Date
    /// `GivenAnswer.stored`, with its credit when partial; nil until answered.
    public var answer: String?
    public var correct: Bool
    public var marks: Int
    public var answeredAt: Date?

    public init(attemptId: Int64, position: Int, questionId: Int64, shownAt: Date, answer: String? = nil, correct: Bool = false,
                marks: Int = 0, answeredAt: Date? = nil) {
        (self.attemptId, self.position, self.questionId, self.shownAt) = (attemptId, position, questionId, shownAt)
        (self.answer, self.correct, self.marks, self.answeredAt) = (answer, correct, marks, answeredAt)
    }

    public var given: GivenAnswer? { answer.flatMap(GivenAnswer.init(stored:)) }
    public var credit: Credit { given?.credit(correct: correct) ?? .none }
}

/// "My assignments": one with how far its players got.
public struct AssignmentSummary: Sendable, Equatable {
    public var assignment: Assignment
    public var players: Int
    /// Players with an attempt over: finished, or cut off by the close.
    public var finished: Int

    public init(assignment: Assignment, players: Int, finished: Int) {
        (self.assignment, self.players, self.finished) = (assignment, players, finished)
    }
}

/// What storing an answer did.
public enum AssignmentAnswerOutcome: Sendable, Equatable {
    case recorded
    /// The question had its answer: the first one stands.
    case alreadyAnswered
    /// Not shown in this attempt yet.
    case notShown
    /// The attempt finished, or the assignment not open at `at`.
    case refused
}

public protocol AssignmentStore: Sendable {
    /// nil when another assignment has the code.
    func createAssignment(_ assignment: Assignment) async throws -> Assignment?
    func assignment(id: Int64) async throws -> Assignment?
    func assignment(code: String) async throws -> Assignment?
    /// Newest first.
    /// Newest first; `finished` counts players with an attempt over at `now` (finished, or cut off by the close).
    func assignments(ownerUserId: Int64, limit: Int, at now: Date) async throws -> [AssignmentSummary]
    func setAssignmentWindow(id: Int64, opensAt: Date, closesAt: Date) async throws

    /// nil when the nickname (by `Nickname.key`) or the user is already a player of it.
    func addAssignmentPlayer(_ player: AssignmentPlayerRecord) async throws -> AssignmentPlayerRecord?
    func assignmentPlayer(id: Int64) async throws -> AssignmentPlayerRecord?
    func assignmentPlayer(assignmentId: Int64, userId: Int64) async throws -> AssignmentPlayerRecord?
    func assignmentPlayer(assignmentId: Int64, nickname: String) async throws -> AssignmentPlayerRecord?
    func assignmentPlayers(assignmentId: Int64) async throws -> [AssignmentPlayerRecord]
    func replaceAssignmentSecret(playerId: Int64, secretHash: String) async throws

    /// The player's unfinished attempt if they have one, else a new one numbered after theirs;
    /// nil when `allowed` attempts were made. `questionIds` and `maxMarks` are used for a new one.
    func startAssignmentAttempt(playerId: Int64, questionIds: [Int64], maxMarks: Int, allowed: Int, at date: Date) async throws
        -> AssignmentAttemptRecord?
    func assignmentAttempt(id: Int64) async throws -> AssignmentAttemptRecord?
    /// In the order they were started.
    func assignmentAttempts(playerId: Int64) async throws -> [AssignmentAttemptRecord]
    func assignmentAttempts(assignmentId: Int64) async throws -> [AssignmentAttemptRecord]
    /// When the question was first shown in the attempt (now, the first time).
    func showAssignmentQuestion(attemptId: Int64, position: Int, questionId: Int64, at date: Date) async throws -> Date
    /// Keeps the first answer to a shown question of an unfinished attempt while its assignment is open at `date`.
    func recordAssignmentAnswer(attemptId: Int64, position: Int, answer: String, correct: Bool, marks: Int, at date: Date) async throws
        -> AssignmentAnswerOutcome
    /// The leaderboard points it added to `pointsTo`'s total (nil: none are added): what its
    /// points beat the player's best finished attempt by, so playing again farms nothing. nil
    /// when it was finished before.
    func finishAssignmentAttempt(id: Int64, at date: Date, pointsTo userId: Int64?) async throws -> Int64?
    func assignmentAnswers(attemptId: Int64) async throws -> [AssignmentAnswerRecord]
    func assignmentAnswers(assignmentId: Int64) async throws -> [AssignmentAnswerRecord]
}
