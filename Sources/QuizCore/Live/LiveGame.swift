import Foundation

public enum LivePhase: String, Sendable, Codable {
    case lobby, question, reveal, leaderboard, ended
}

public enum LiveGameError: Error, Equatable, Sendable {
    /// `full`: the game has as many players as the server lets one game take.
    case locked, full, nicknameTaken, nicknameInvalid, kicked, notOpen, alreadyAnswered, badAnswer, notNow, ended, unknownPlayer
    /// A word cloud entry to hide that is not shown, or more hidden than `LiveGame.maxHidden`.
    case badHide
}

/// The rules of a live game, as a value: every change takes the server's `now` and says what
/// happened, so the same state machine runs in tests with a hand-moved clock and on the server.
/// It does no I/O; `LiveGames` stores what it returns and sends the messages.
public struct LiveGame: Sendable {
    public let id: Int64
    public let pin: String
    public let quizId: Int64
    public let hostUserId: Int64
    public let title: String
    /// The questions played, in order (name-them-all questions are left out of live games).
    public let questions: [Question]
    public internal(set) var settings: LiveSettings
    public internal(set) var phase = LivePhase.lobby
    /// The question open or last played; -1 in the lobby.
    public internal(set) var index = -1
    public internal(set) var openedAt: Date?
    public internal(set) var deadline: Date?
    /// When an auto-advancing reveal or leaderboard moves on.
    public internal(set) var advanceAt: Date?
    public internal(set) var locked = false
    /// By id; ids are 1…count.
    public internal(set) var players: [LivePlayer] = []
    /// The open (or last) question's answers, by player id.
    public internal(set) var answers: [Int: LiveAnswer] = [:]
    /// The open (or last) word cloud's entries, counted as they arrive, and what the host hid.
    public internal(set) var cloud = WordCloud.Tally()
    /// `Nickname.key` of every player's nickname, kicked ones too, to the player's id.
    var nicknameKeys: [String: Int] = [:]
    /// Kept as players are kicked, so counting who is in costs nothing on every answer.
    var kickedCount = 0

    public static let autoAdvanceSeconds: TimeInterval = 5
    /// Entries a host may hide from one word cloud: enough for every rude one in a class, and a
    /// bound on what a host's screen can make the server keep.
    public static let maxHidden = 50
    /// Entries a word cloud shows; the rest are counted in `others`.
    public static let cloudSize = 50

    public init(id: Int64, pin: String, quizId: Int64, hostUserId: Int64, title: String, questions: [Question], settings: LiveSettings) {
        self.id = id
        self.pin = pin
        self.quizId = quizId
        self.hostUserId = hostUserId
        self.title = title
        self.questions = questions
        self.settings = settings
    }

    /// Questions a live game can play: the kinds answered once, by everyone, against one clock.
    public static func playable(_ questions: [Question]) -> [Question] {
        questions.filter(\.kind.playsLive)
    }

    public var question: Question? { questions.indices.contains(index) ? questions[index] : nil }
    public var activePlayers: [LivePlayer] { players.filter { !$0.kicked } }
    /// `activePlayers.count`, without going through them.
    public var activeCount: Int { players.count - kickedCount }
    public func player(_ id: Int) -> LivePlayer? { players.indices.contains(id - 1) ? players[id - 1] : nil }

    /// The time limit of the open question: its own, or the game's.
    public var seconds: Int { question?.timeLimitSeconds ?? settings.secondsPerQuestion }
}
