import Foundation

/// The messages that answer a greeting and run the socket: who joined, the host's view and
/// roster, the host's presence, refusals.
extension LiveServerMessage {
    public struct Player: Sendable, Codable, Equatable {
        public var id: Int
        public var nickname: String
        /// 1-based; nil without teams.
        public var team: Int?
        /// Totals as of the last closed question.
        public var score: Int
        public var streak: Int
        public var correct: Int
        /// In the host's roster only: whether the player has a socket open on the host's instance.
        public var connected: Bool?

        public init(id: Int, nickname: String, team: Int?, score: Int, streak: Int, correct: Int, connected: Bool? = nil) {
            (self.id, self.nickname, self.team, self.score, self.streak, self.correct) = (id, nickname, team, score, streak, correct)
            self.connected = connected
        }
    }

    /// The game as a player sees it on joining.
    public struct Game: Sendable, Codable, Equatable {
        public var pin: String
        public var title: String
        public var phase: LiveProtocol.Phase
        /// The question open or last played; -1 in the lobby.
        public var index: Int
        public var questionCount: Int
        /// 0 plays without teams.
        public var teams: Int

        public init(pin: String, title: String, phase: LiveProtocol.Phase, index: Int, questionCount: Int, teams: Int) {
            (self.pin, self.title, self.phase, self.index, self.questionCount, self.teams) = (pin, title, phase, index, questionCount, teams)
        }
    }

    public struct Joined: Sendable, Codable, Equatable {
        public var player: Player
        /// With the player's id, what a `resume` needs after a lost connection.
        public var secret: String
        /// The short code a person types to rejoin from another device; nil on a resume.
        public var code: String?
        public var game: Game

        public init(player: Player, secret: String, code: String?, game: Game) {
            (self.player, self.secret, self.code, self.game) = (player, secret, code, game)
        }
    }

    /// The game as its host runs it.
    public struct HostedGame: Sendable, Codable, Equatable {
        public var id: Int64
        public var pin: String
        public var title: String
        /// Where players join.
        public var joinURL: String
        public var phase: LiveProtocol.Phase
        public var index: Int
        public var questionCount: Int
        public var teams: Int
        public var locked: Bool
        /// Every field given.
        public var settings: LiveProtocol.Settings

        public init(id: Int64, pin: String, title: String, joinURL: String, phase: LiveProtocol.Phase, index: Int, questionCount: Int,
                    teams: Int, locked: Bool, settings: LiveProtocol.Settings) {
            (self.id, self.pin, self.title, self.joinURL, self.phase) = (id, pin, title, joinURL, phase)
            (self.index, self.questionCount, self.teams, self.locked, self.settings) = (index, questionCount, teams, locked, settings)
        }
    }

    public struct Hosting: Sendable, Codable, Equatable {
        public var game: HostedGame
        public init(game: HostedGame) { self.game = game }
    }

    /// The host's roster: the first `players` of `count`.
    public struct Roster: Sendable, Codable, Equatable {
        public var players: [Player]
        public var count: Int
        public var locked: Bool

        public init(players: [Player], count: Int, locked: Bool) {
            (self.players, self.count, self.locked) = (players, count, locked)
        }
    }

    public struct Host: Sendable, Codable, Equatable {
        public var connected: Bool
        /// While the host is away: when the game ends if they do not come back, with the server's
        /// `now` to count it down on (milliseconds since 1970 on the server's clock).
        public var endsAt: Int64?
        public var now: Int64?

        public init(connected: Bool, endsAt: Int64? = nil, now: Int64? = nil) {
            (self.connected, self.endsAt, self.now) = (connected, endsAt, now)
        }
    }

    public struct Ack: Sendable, Codable, Equatable {
        /// The index of the question answered.
        public var question: Int
        public init(question: Int) { self.question = question }
    }

    /// A refusal: `code` is stable (`not-open`, `already-answered`, `bad-answer`…), `message` a
    /// sentence to show, `of` the type of the message it answers.
    public struct Failure: Sendable, Codable, Equatable {
        public var code: String
        public var message: String
        public var of: String?

        public init(code: String, message: String, of: String?) {
            (self.code, self.message, self.of) = (code, message, of)
        }
    }
}
