import Foundation

/// The live games' WebSocket protocol, version 1 (docs/live-protocol.md): what a host's screen or
/// a phone sends (`LiveClientMessage`) and what the server sends (`LiveServerMessage`), one
/// `Codable` case per message. The server writes and reads through these types, and so do
/// `QuizClient` and the live bench: a new message or field is taught here once.
public enum LiveProtocol {
    /// The `"v"` of every message.
    public static let version = 1
    /// The largest message a client may send, in UTF-8 bytes.
    public static let maxMessageBytes = 4_096

    /// Points a question is worth, as a host sets them and a question shows them.
    public enum Points: String, Sendable, Codable, CaseIterable {
        case standard, double, none
    }

    /// A question's kind. Open: a client reads kinds newer than itself, and shows them as it can.
    public struct QuestionKind: RawRepresentable, Sendable, Codable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let singleChoice = Self(rawValue: "singleChoice")
        public static let multipleChoice = Self(rawValue: "multipleChoice")
        public static let trueFalse = Self(rawValue: "trueFalse")
        public static let typedAnswer = Self(rawValue: "typedAnswer")
        public static let numeric = Self(rawValue: "numeric")
        /// Choices with no right answer: the reveal is how everyone voted.
        public static let poll = Self(rawValue: "poll")
        /// `items` to put in order (`{order}`): points only for the whole order.
        public static let ordering = Self(rawValue: "ordering")
        /// `prompts` each matched to one of `answers` (`{matches}`): credit per pair.
        public static let matching = Self(rawValue: "matching")
        /// A number on a slider (`estimate`, `{number}`): points by closeness.
        public static let estimate = Self(rawValue: "estimate")
        /// A short free text (`{text}`, at most `maxLength` characters), no points: the reveal is a word cloud.
        public static let wordCloud = Self(rawValue: "wordCloud")
        /// A page to read: no answer and no clock; the host moves on.
        public static let slide = Self(rawValue: "slide")
    }

    /// Where a game is: `lobby` → `question` → `reveal` → (`leaderboard`) → … → `ended`.
    public struct Phase: RawRepresentable, Sendable, Codable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let lobby = Self(rawValue: "lobby")
        public static let question = Self(rawValue: "question")
        public static let reveal = Self(rawValue: "reveal")
        public static let leaderboard = Self(rawValue: "leaderboard")
        public static let ended = Self(rawValue: "ended")
    }

    /// A game's settings: sent whole in `hosting`; in a host's `settings` message a field left out
    /// keeps the game's default.
    public struct Settings: Sendable, Codable, Equatable {
        public var secondsPerQuestion: Int?
        /// By question index (sent as a JSON object with the indexes as keys).
        public var points: [Int: Points]?
        public var streakBonus: Bool?
        public var shuffleAnswers: Bool?
        public var leaderboardAfterEach: Bool?
        public var autoAdvance: Bool?
        /// 0 plays without teams.
        public var teams: Int?
        /// A sound clip plays on phones too (default: on the host's screen only).
        public var soundOnPhones: Bool?

        public init(secondsPerQuestion: Int? = nil, points: [Int: Points]? = nil, streakBonus: Bool? = nil, shuffleAnswers: Bool? = nil,
                    leaderboardAfterEach: Bool? = nil, autoAdvance: Bool? = nil, teams: Int? = nil, soundOnPhones: Bool? = nil) {
            self.secondsPerQuestion = secondsPerQuestion
            self.points = points
            self.streakBonus = streakBonus
            self.shuffleAnswers = shuffleAnswers
            self.leaderboardAfterEach = leaderboardAfterEach
            self.autoAdvance = autoAdvance
            self.teams = teams
            self.soundOnPhones = soundOnPhones
        }
    }

    /// A message type this side does not know (a newer peer, or a mistake).
    public struct UnknownType: Error, Equatable {
        public var type: String
    }

    /// Keys sorted and slashes as they are: the server's messages are the same bytes every time.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func text(_ value: some Encodable) -> String {
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
