import Foundation
import QuizCore

/// What a store call can fail with, apart from the database being unreachable.
public enum StoreError: Error, Sendable, Equatable {
    case usernameTaken
    case notFound
    case attemptFinished
    /// The provider account is linked to another Quizbox account, or this account already has one
    /// of that provider linked.
    case identityTaken
    /// Unlinking would leave the account with no way to sign in (no password, no other provider).
    case lastSignInMethod
}

public struct NewUser: Sendable {
    public var username: String
    public var firstName: String
    public var lastName: String
    /// nil: the account has no password (created through a provider) and cannot log in with one
    /// until its owner sets one.
    public var passwordHash: String?
    public var role: Role
    public var createdAt: Date
    public init(username: String, firstName: String, lastName: String, passwordHash: String?, role: Role, createdAt: Date) {
        self.username = username
        self.firstName = firstName
        self.lastName = lastName
        self.passwordHash = passwordHash
        self.role = role
        self.createdAt = createdAt
    }
}

public protocol UserStore: Sendable {
    /// Throws `StoreError.usernameTaken` when the name is taken, ignoring case.
    func createUser(_ user: NewUser) async throws -> User
    func user(id: Int64) async throws -> User?
    /// The user and their password hash, for checking a log-in; a nil hash means the account has
    /// no password and no password may log in to it.
    func credentials(username: String) async throws -> (user: User, passwordHash: String?)?
    func setPasswordHash(_ hash: String, userId: Int64) async throws
    func setRole(_ role: Role, username: String) async throws
    /// The language a user chose for pages ("en", "fi"), or nil to follow the browser.
    func setLanguage(_ language: String?, userId: Int64) async throws
    /// The stored password hash, to check a password change; nil when the user has none (or is missing).
    func passwordHash(userId: Int64) async throws -> String?
    func quizzesFinished(userId: Int64) async throws -> Int
}

public struct StoredSession: Sendable, Hashable {
    /// The user as of the lookup, which may be cached for a moment: read the user for fresh points.
    public var user: User
    public var expiresAt: Date
}

public protocol SessionStore: Sendable {
    func createSession(tokenHash: String, userId: Int64, createdAt: Date, expiresAt: Date) async throws
    /// The session with its user, expired or not: callers decide what expiry means.
    func session(tokenHash: String) async throws -> StoredSession?
    func deleteSession(tokenHash: String) async throws
    /// Logs the user out everywhere but the session `keeping`.
    func deleteSessions(userId: Int64, keeping tokenHash: String) async throws
    func deleteSessions(expiredBefore date: Date) async throws -> Int
}

public enum ExportScope: Sendable, Hashable {
    case everything
    case topic(Int64)
    case quiz(Int64)
}

public protocol CatalogStore: Sendable {
    func subjects() async throws -> [SubjectSummary]
    /// nil when the subject does not exist.
    func topics(subjectId: Int64) async throws -> [TopicSummary]?
    /// nil when the topic does not exist.
    func quizzes(topicId: Int64) async throws -> [QuizSummary]?
    func quiz(id: Int64) async throws -> QuizSummary?
    /// Every quiz in catalog order, with its topic and subject.
    func allQuizzes() async throws -> [QuizListing]
    /// The quiz's questions in order, with their answers (strip them before they reach a player).
    func questions(quizId: Int64) async throws -> [Question]
    /// The question, when it belongs to the quiz.
    func question(id: Int64, inQuiz quizId: Int64) async throws -> Question?
    func isEmpty() async throws -> Bool
    /// What to export: one quiz, one topic (its quizzes and its bank-only questions), or everything.
    func exportBank(_ scope: ExportScope) async throws -> Bank
    /// Stores a whole bank in one transaction: all of it or none.
    func importBank(_ bank: Bank, at date: Date) async throws -> ImportSummary
}

public protocol AttemptStore: Sendable {
    func startAttempt(userId: Int64, quizId: Int64, at date: Date) async throws -> Attempt
    /// The attempt with its answers; nil when missing or someone else's.
    func attempt(id: Int64, userId: Int64) async throws -> Attempt?
    /// The user's latest unfinished attempt at the quiz.
    func unfinishedAttempt(userId: Int64, quizId: Int64) async throws -> Attempt?
    /// The user's answers since `date`, newest first, at most `limit`.
    func history(userId: Int64, since date: Date, limit: Int) async throws -> [HistoryItem]
    /// The quiz an attempt plays; nil when the attempt is missing or someone else's.
    func attemptQuiz(id: Int64, userId: Int64) async throws -> Int64?
    /// Records a verdict; returns false when the question had been answered in this attempt.
    /// Throws `StoreError.attemptFinished` when the attempt is over.
    func recordAnswer(
        attemptId: Int64, questionId: Int64, answer: String, isCorrect: Bool, points: Int, at date: Date
    ) async throws -> Bool
    /// A finished attempt's score, read only; nil when missing, someone else's or unfinished.
    func score(attemptId: Int64, userId: Int64) async throws -> AttemptScore?
    /// How often each stored answer was given to a question in quizzes, most often first, at most
    /// `limit` different answers: what a poll or word cloud shows after answering.
    func answerCounts(questionId: Int64, limit: Int) async throws -> [(answer: String, count: Int)]
    /// Finishes the attempt and adds its points to the user's total, once.
    func finishAttempt(id: Int64, userId: Int64, at date: Date) async throws -> AttemptScore
}

public protocol LeaderboardStore: Sendable {
    func leaderboard(userId: Int64, limit: Int) async throws -> Leaderboard
    /// 1 + the number of users with more points.
    func rank(points: Int64) async throws -> Int64
}

/// A question answered on its own, as stored.
public struct SingleAnswer: Sendable, Hashable {
    public var id: Int64
    public var userId: Int64
    public var questionId: Int64
    /// As stored: JSON with one of choiceId, choiceIds, value, text, number.
    public var given: String
    public var isCorrect: Bool
    public var pointsAwarded: Int
    /// False when the question had already been answered that (UTC) day: no points either way.
    public var counted: Bool
    public var answeredAt: Date

    public init(id: Int64, userId: Int64, questionId: Int64, given: String, isCorrect: Bool, pointsAwarded: Int, counted: Bool, answeredAt: Date) {
        self.id = id
        self.userId = userId
        self.questionId = questionId
        self.given = given
        self.isCorrect = isCorrect
        self.pointsAwarded = pointsAwarded
        self.counted = counted
        self.answeredAt = answeredAt
    }
}

public protocol PracticeStore: Sendable {
    /// Every playable question of the bank in bank order, cheap to filter (cached).
    func practiceCandidates() async throws -> [PracticeCandidate]
    /// Any question by id, quiz or not.
    func question(id: Int64) async throws -> Question?
    func practiceSettings(userId: Int64) async throws -> PracticeSettings?
    func seenQuestions(userId: Int64) async throws -> Set<Int64>
    /// Forgets what the player has seen, so every question can be drawn again.
    func forgetSeenQuestions(userId: Int64) async throws
    /// Stores the round as the player's own quiz, starts its attempt, marks its questions seen
    /// and remembers the settings; all or nothing.
    func startPractice(userId: Int64, settings: PracticeSettings, title: String, questionIds: [Int64], at date: Date) async throws -> Attempt
    /// Records when a question of an attempt was first shown and returns that time.
    func markShown(attemptId: Int64, questionId: Int64, at date: Date) async throws -> Date
    func shownAt(attemptId: Int64, questionId: Int64) async throws -> Date?
    /// The questions of an attempt whose clocks have started.
    func shownQuestions(attemptId: Int64) async throws -> Set<Int64>
    /// Starts the clock of `questionId` in every unfinished timed attempt of the user that holds
    /// it: reading a question anywhere is reading it in the round too.
    func startClocks(userId: Int64, questionId: Int64, at date: Date) async throws
    /// Stores the answer with the points it earned; the first answer of the day to a question
    /// counts, and its points go to the user at once.
    func recordSingleAnswer(userId: Int64, questionId: Int64, answer: String, isCorrect: Bool, points: Int, at date: Date) async throws -> SingleAnswer
    func singleAnswer(id: Int64, userId: Int64) async throws -> SingleAnswer?
}

/// A "name them all" game as stored.
public struct StoredGame: Sendable, Hashable {
    public var id: Int64
    public var userId: Int64
    public var question: Question
    public var startedAt: Date
    /// Item indices in the order found.
    public var found: [Int]
    public var endedAt: Date?
    public var endReason: NameAllGame.EndReason?
    public var points: Int

    public init(id: Int64, userId: Int64, question: Question, startedAt: Date, found: [Int], endedAt: Date?, endReason: NameAllGame.EndReason?, points: Int) {
        self.id = id
        self.userId = userId
        self.question = question
        self.startedAt = startedAt
        self.found = found
        self.endedAt = endedAt
        self.endReason = endReason
        self.points = points
    }
}

public protocol GameStore: Sendable {
    /// The bank's name-them-all questions with their topic's name, in bank order.
    func nameAllQuestions() async throws -> [(question: Question, topicName: String)]
    func startGame(userId: Int64, questionId: Int64, at date: Date) async throws -> StoredGame
    func game(id: Int64) async throws -> StoredGame?
    /// False when the item had been found already.
    func recordFind(gameId: Int64, item: Int, at date: Date) async throws -> Bool
    /// Ends the game and adds `points` to the player's total, once: false when it had ended.
    func endGame(id: Int64, reason: NameAllGame.EndReason, at date: Date, points: Int) async throws -> Bool
}
