import Foundation

/// A message of the live protocol (docs/live-protocol.md, version 1) from the server to a player,
/// read into a typed value. Messages only a host gets, and types newer than this client, are `other`.
public enum LiveEvent: Sendable, Equatable {
    case joined(Joined)
    case question(Question)
    /// The answer to question `index` is stored; the first answer counts.
    case ack(question: Int)
    case reveal(Reveal)
    case result(Result)
    case leaderboard(Leaderboard)
    case ended(Ended)
    /// The host's screen went away (or came back); without it the game ends at `endsAt`.
    case host(connected: Bool, endsAt: Date?)
    /// The host removed this player; the server closes the socket.
    case kicked
    /// A refusal: `code` is stable (`not-open`, `already-answered`, `bad-answer`…), `message` is a sentence to show.
    case error(code: String, message: String, of: String?)
    case other(type: String)

    public struct Player: Sendable, Equatable, Decodable {
        public var id: Int
        public var nickname: String
        public var team: Int?
        public var score: Int
        public var streak: Int
        public var correct: Int
    }

    public struct Game: Sendable, Equatable, Decodable {
        public var pin: String
        public var title: String
        public var phase: String
        public var questionCount: Int
        public var teams: Int
    }

    public struct Joined: Sendable, Equatable, Decodable {
        public var player: Player
        /// With the player's id, what ``QuizboxClient/resumeLiveGame(pin:player:secret:)`` needs after a lost connection.
        public var secret: String
        /// The short code a person types to rejoin from another device.
        public var code: String?
        public var game: Game
    }

    public struct Choice: Sendable, Equatable, Decodable {
        public var id: Int
        public var text: String
    }

    public struct Question: Sendable, Equatable, Decodable {
        public var index: Int
        public var count: Int
        public var text: String
        /// `singleChoice`, `multipleChoice`, `trueFalse`, `typedAnswer` or `numeric`.
        public var kind: String
        public var choices: [Choice]
        public var unit: String?
        /// `standard`, `double` or `none`.
        public var points: String
        public var seconds: Int
        /// Milliseconds since 1970 on the server's clock.
        public var deadline: Int64
        public var now: Int64

        /// Time left when the message left the server, whatever this device's clock says.
        public var secondsLeft: Double { Double(deadline - now) / 1000 }
    }

    public struct Tally: Sendable, Equatable, Decodable {
        public var label: String
        public var choice: Int?
        public var count: Int
        public var correct: Bool
    }

    public struct Reveal: Sendable, Equatable, Decodable {
        public var index: Int
        /// The correct answer as a person reads it.
        public var correct: String
        public var correctChoices: [Int]
        public var explanation: String?
        public var distribution: [Tally]
        public var answered: Int
        public var players: Int
    }

    public struct Result: Sendable, Equatable, Decodable {
        public var index: Int
        public var answered: Bool
        public var correct: Bool
        public var points: Int
        public var bonus: Int
        public var score: Int
        public var rank: Int
        public var streak: Int
    }

    public struct Standing: Sendable, Equatable, Decodable {
        public var id: Int
        public var nickname: String
        public var team: Int?
        public var score: Int
        public var rank: Int
    }

    public struct TeamScore: Sendable, Equatable, Decodable {
        public var team: Int
        public var score: Int
        public var members: Int
    }

    public struct Leaderboard: Sendable, Equatable, Decodable {
        public var top: [Standing]
        public var teams: [TeamScore]
        public var final: Bool
    }

    public struct Ended: Sendable, Equatable, Decodable {
        public struct You: Sendable, Equatable, Decodable {
            public var rank: Int
            public var score: Int
            public var correct: Int
        }
        public var podium: [Standing]
        /// In team mode.
        public var teams: [TeamScore]?
        /// This player's place; nil for someone who never joined the standings.
        public var you: You?
    }

    /// Reads one text frame; a frame that is not a message of this protocol is `nil`.
    public init?(text: String) {
        let data = Data(text.utf8)
        let decoder = JSONDecoder()
        struct Envelope: Decodable {
            var type: String
            var question: Int?
            var connected: Bool?
            var endsAt: Int64?
            var now: Int64?
            var code: String?
            var message: String?
            var of: String?
        }
        guard let envelope = try? decoder.decode(Envelope.self, from: data) else { return nil }
        func read<T: Decodable>(_ type: T.Type) -> T? { try? decoder.decode(T.self, from: data) }
        let event: LiveEvent?
        switch envelope.type {
        case "joined": event = read(Joined.self).map(LiveEvent.joined)
        case "question": event = read(Question.self).map(LiveEvent.question)
        case "ack": event = envelope.question.map { LiveEvent.ack(question: $0) }
        case "reveal": event = read(Reveal.self).map(LiveEvent.reveal)
        case "result": event = read(Result.self).map(LiveEvent.result)
        case "leaderboard": event = read(Leaderboard.self).map(LiveEvent.leaderboard)
        case "ended": event = read(Ended.self).map(LiveEvent.ended)
        case "host":
            // `endsAt` counts on the server's clock: shift it by the difference to this one.
            let endsAt = envelope.endsAt.map { endsAt in
                Date().addingTimeInterval(Double(endsAt - (envelope.now ?? endsAt)) / 1000)
            }
            event = .host(connected: envelope.connected ?? true, endsAt: endsAt)
        case "kicked": event = .kicked
        case "error": event = .error(code: envelope.code ?? "unknown", message: envelope.message ?? "", of: envelope.of)
        default: event = .other(type: envelope.type)
        }
        guard let event else { return nil }
        self = event
    }
}
