import Foundation

/// The messages of play: a question, its progress, reveal and results, the standings.
extension LiveServerMessage {
    public struct Choice: Sendable, Codable, Equatable {
        /// The id an answer names (a 9-digit number that says nothing about the choice's place).
        public var id: Int
        public var text: String
        public init(id: Int, text: String) { (self.id, self.text) = (id, text) }
    }

    public struct Image: Sendable, Codable, Equatable {
        public var url: String
        public var alt: String
        public var width: Int
        public var height: Int
        public init(url: String, alt: String, width: Int, height: Int) {
            (self.url, self.alt, self.width, self.height) = (url, alt, width, height)
        }
    }

    public struct Question: Sendable, Codable, Equatable {
        public var index: Int
        public var count: Int
        public var text: String
        public var kind: LiveProtocol.QuestionKind
        /// In this player's own order when the host shuffles answers.
        public var choices: [Choice]
        public var unit: String?
        public var image: Image?
        public var points: LiveProtocol.Points
        public var seconds: Int
        /// Milliseconds since 1970 on the server's clock.
        public var openedAt: Int64
        public var deadline: Int64
        public var now: Int64

        public init(index: Int, count: Int, text: String, kind: LiveProtocol.QuestionKind, choices: [Choice], unit: String?, image: Image?,
                    points: LiveProtocol.Points, seconds: Int, openedAt: Int64, deadline: Int64, now: Int64) {
            (self.index, self.count, self.text, self.kind, self.choices, self.unit) = (index, count, text, kind, choices, unit)
            (self.image, self.points, self.seconds, self.openedAt, self.deadline, self.now) = (image, points, seconds, openedAt, deadline, now)
        }

        /// Time left when the message left the server, whatever this device's clock says.
        public var secondsLeft: Double { Double(deadline - now) / 1000 }
    }

    public struct Progress: Sendable, Codable, Equatable {
        public var index: Int
        public var answered: Int
        public var players: Int
        public init(index: Int, answered: Int, players: Int) { (self.index, self.answered, self.players) = (index, answered, players) }
    }

    /// How a question was answered, choice by choice for choice questions.
    public struct Tally: Sendable, Codable, Equatable {
        public var label: String
        public var choice: Int?
        public var count: Int
        public var correct: Bool
        public init(label: String, choice: Int?, count: Int, correct: Bool) {
            (self.label, self.choice, self.count, self.correct) = (label, choice, count, correct)
        }
    }

    public struct Reveal: Sendable, Codable, Equatable {
        public var index: Int
        /// The correct answer as a person reads it.
        public var correct: String
        /// The ids `question` sent, for choice questions.
        public var correctChoices: [Int]
        public var explanation: String?
        public var distribution: [Tally]
        public var answered: Int
        public var players: Int

        public init(index: Int, correct: String, correctChoices: [Int], explanation: String?, distribution: [Tally], answered: Int,
                    players: Int) {
            (self.index, self.correct, self.correctChoices, self.explanation) = (index, correct, correctChoices, explanation)
            (self.distribution, self.answered, self.players) = (distribution, answered, players)
        }
    }

    public struct Result: Sendable, Codable, Equatable {
        public var index: Int
        public var answered: Bool
        public var correct: Bool
        /// Answered after the deadline: no points, the streak broken.
        public var late: Bool
        public var points: Int
        public var bonus: Int
        public var score: Int
        public var rank: Int
        public var streak: Int
        /// The nearest player with a higher score, and by how much: absent for whoever leads.
        public var behind: Behind?

        public init(index: Int, answered: Bool, correct: Bool, late: Bool, points: Int, bonus: Int, score: Int, rank: Int, streak: Int,
                    behind: Behind? = nil) {
            (self.index, self.answered, self.correct, self.late, self.points) = (index, answered, correct, late, points)
            (self.bonus, self.score, self.rank, self.streak, self.behind) = (bonus, score, rank, streak, behind)
        }
    }

    /// "120 points behind Ann": the player just ahead on the scores, and the gap.
    public struct Behind: Sendable, Codable, Equatable {
        public var nickname: String
        public var points: Int
        public init(nickname: String, points: Int) { (self.nickname, self.points) = (nickname, points) }
    }

    public struct Standing: Sendable, Codable, Equatable {
        public var id: Int
        public var nickname: String
        public var team: Int?
        public var score: Int
        public var rank: Int
        /// Places moved between the last two leaderboards: up is positive.
        public var movement: Int
        public var correct: Int

        public init(id: Int, nickname: String, team: Int?, score: Int, rank: Int, movement: Int, correct: Int) {
            (self.id, self.nickname, self.team, self.score) = (id, nickname, team, score)
            (self.rank, self.movement, self.correct) = (rank, movement, correct)
        }
    }

    /// A team's average score.
    public struct TeamScore: Sendable, Codable, Equatable {
        public var team: Int
        public var score: Int
        public var members: Int
        public init(team: Int, score: Int, members: Int) { (self.team, self.score, self.members) = (team, score, members) }
    }

    public struct Leaderboard: Sendable, Codable, Equatable {
        public var top: [Standing]
        /// Empty without teams.
        public var teams: [TeamScore]
        public var final: Bool
        public init(top: [Standing], teams: [TeamScore], final: Bool) { (self.top, self.teams, self.final) = (top, teams, final) }
    }

    public struct Ended: Sendable, Codable, Equatable {
        /// A player's own place: every field nil (`{}`) for a player the standings do not list.
        public struct You: Sendable, Codable, Equatable {
            public var rank: Int?
            public var score: Int?
            public var correct: Int?
            public init(rank: Int?, score: Int?, correct: Int?) { (self.rank, self.score, self.correct) = (rank, score, correct) }
        }

        public var podium: [Standing]
        /// Empty without teams.
        public var teams: [TeamScore]
        /// The host's only: every player.
        public var standings: [Standing]?
        /// A player's only.
        public var you: You?

        public init(podium: [Standing], teams: [TeamScore], standings: [Standing]? = nil, you: You? = nil) {
            (self.podium, self.teams, self.standings, self.you) = (podium, teams, standings, you)
        }
    }
}
