import Foundation
import QuizCore

/// A live game as stored: where it stands, not who answered what.
public struct LiveGameRecord: Sendable, Equatable {
    public var id: Int64
    public var pin: String
    public var quizId: Int64
    public var hostUserId: Int64
    public var title: String
    public var questionIds: [Int64]
    public var settings: LiveSettings
    public var phase: LivePhase
    public var index: Int
    public var openedAt: Date?
    public var deadline: Date?
    public var advanceAt: Date?
    public var locked: Bool
    public var createdAt: Date
    public var endedAt: Date?
    /// The open (or last) word cloud's entries the host hid, by key: kept so a restart or another
    /// instance hides them too. Stored beside the settings, in their JSON column.
    public var hiddenWords: [String] = []

    public init(id: Int64, pin: String, quizId: Int64, hostUserId: Int64, title: String, questionIds: [Int64], settings: LiveSettings,
                phase: LivePhase = .lobby, index: Int = -1, openedAt: Date? = nil, deadline: Date? = nil, advanceAt: Date? = nil,
                locked: Bool = false, createdAt: Date, endedAt: Date? = nil) {
        self.id = id
        self.pin = pin
        self.quizId = quizId
        self.hostUserId = hostUserId
        self.title = title
        self.questionIds = questionIds
        self.settings = settings
        self.phase = phase
        self.index = index
        self.openedAt = openedAt
        self.deadline = deadline
        self.advanceAt = advanceAt
        self.locked = locked
        self.createdAt = createdAt
        self.endedAt = endedAt
    }
}

/// A player as stored, with the hashes of what lets them back in.
public struct LivePlayerRecord: Sendable, Equatable {
    public var gameId: Int64
    public var player: LivePlayer
    public var secretHash: String
    public var codeHash: String
    public var joinedAt: Date

    public init(gameId: Int64, player: LivePlayer, secretHash: String, codeHash: String, joinedAt: Date) {
        self.gameId = gameId
        self.player = player
        self.secretHash = secretHash
        self.codeHash = codeHash
        self.joinedAt = joinedAt
    }
}

/// An answer as stored, with its game and question.
public struct LiveAnswerRecord: Sendable, Equatable {
    public var gameId: Int64
    public var questionId: Int64
    public var answer: LiveAnswer
    public var answeredAt: Date

    public init(gameId: Int64, questionId: Int64, answer: LiveAnswer, answeredAt: Date) {
        self.gameId = gameId
        self.questionId = questionId
        self.answer = answer
        self.answeredAt = answeredAt
    }
}

/// A game in a list: "My games", or the games a player played.
public struct LiveGameSummary: Sendable, Equatable {
    public var id: Int64
    public var pin: String
    public var title: String
    public var phase: LivePhase
    public var createdAt: Date
    public var endedAt: Date?
    public var playerCount: Int
    /// For a game someone played: their score and rank in it.
    public var score: Int?
    public var rank: Int?
}

public protocol LiveGameStore: Sendable {
    /// nil when a running game already has the PIN.
    func createLiveGame(_ game: LiveGameRecord) async throws -> Int64?
    /// Writes where the game stands (phase, question, clock, lock, settings, end); never over a
    /// game that has ended (a late write from an instance that had let go of it), nor reopening a
    /// question that ended.
    func saveLiveGame(_ game: LiveGameRecord) async throws
    /// Stores joins and answers together, in one transaction: an answer whose first copy is already
    /// stored is dropped.
    func saveLiveBatch(players: [LivePlayerRecord], answers: [LiveAnswerRecord]) async throws
    func kickLivePlayer(gameId: Int64, playerId: Int) async throws
    func replaceLiveSecret(gameId: Int64, playerId: Int, secretHash: String) async throws
    func liveGame(id: Int64) async throws -> LiveGameRecord?
    func runningLiveGames() async throws -> [LiveGameRecord]
    func livePlayers(gameId: Int64) async throws -> [LivePlayerRecord]
    func liveAnswers(gameId: Int64) async throws -> [LiveAnswerRecord]
    func liveGames(hostUserId: Int64, limit: Int) async throws -> [LiveGameSummary]
    func liveGamesPlayed(userId: Int64, limit: Int) async throws -> [LiveGameSummary]
}
