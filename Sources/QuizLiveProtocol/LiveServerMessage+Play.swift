import Foundation

/// The messages of play: a question, its progress, reveal and results, the standings.
extension LiveServerMessage {
    public struct Choice: Sendable, Codable, Equatable {
        /// The id an answer names (a 9-digit number that says nothing about the choice's place).
        public var id: Int
        public var text: String
        /// `text` as HTML with its TeX as MathML: only when it holds maths (see `Question.html`).
        public var html: String?
        public init(id: Int, text: String, html: String? = nil) { (self.id, self.text, self.html) = (id, text, html) }
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

    /// A question's sound clip, served with range requests; `description` for people who cannot hear it.
    public struct Sound: Sendable, Codable, Equatable {
        public var url: String
        public var description: String
        public var seconds: Double
        public init(url: String, description: String, seconds: Double) {
            (self.url, self.description, self.seconds) = (url, description, seconds)
        }
    }

    /// An estimate's slider: never its value or margin.
    public struct Range: Sendable, Codable, Equatable {
        public var minimum: Double
        public var maximum: Double
        public var step: Double
        public init(minimum: Double, maximum: Double, step: Double) { (self.minimum, self.maximum, self.step) = (minimum, maximum, step) }
    }

    public struct Question: Sendable, Codable, Equatable {
        public var index: Int
        public var count: Int
        public var text: String
        /// `text` as HTML (escaped, its TeX as MathML, from the server's converter) to set as
        /// markup; left out when the text holds no maths, so plain questions are sent as before.
        public var html: String?
        public var kind: LiveProtocol.QuestionKind
        /// In this player's own order when the host shuffles answers.
        public var choices: [Choice]
        /// An ordering's items, in the order of their ids (which says nothing of the right one).
        public var items: [Choice]?
        /// A matching's prompts (ids 1…n) and the answers offered (9-digit ids, in their order).
        public var prompts: [Choice]?
        public var answers: [Choice]?
        /// An estimate's range and step.
        public var estimate: Range?
        /// A word cloud's longest entry, in characters.
        public var maxLength: Int?
        public var unit: String?
        public var image: Image?
        /// Sent to the host, and to players only when the host plays sound on phones.
        public var audio: Sound?
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

        /// The parts of the new kinds, each left out (not `null`) when the kind has none.
        public func with(items: [Choice]? = nil, prompts: [Choice]? = nil, answers: [Choice]? = nil, estimate: Range? = nil,
                         maxLength: Int? = nil) -> Question {
            var copy = self
            (copy.items, copy.prompts, copy.answers, copy.estimate, copy.maxLength) = (items, prompts, answers, estimate, maxLength)
            return copy
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
        /// `label` as HTML, only when it holds maths.
        public var labelHTML: String?
        public var choice: Int?
        public var count: Int
        public var correct: Bool
        public init(label: String, labelHTML: String? = nil, choice: Int?, count: Int, correct: Bool) {
            (self.label, self.labelHTML, self.choice, self.count, self.correct) = (label, labelHTML, choice, count, correct)
        }
    }

    /// A matching's right answer (its id) for a prompt (its id).
    public struct Pair: Sendable, Codable, Equatable {
        public var prompt: Int
        public var answer: Int
        public init(prompt: Int, answer: Int) { (self.prompt, self.answer) = (prompt, answer) }
    }

    /// A player whose estimate came closest.
    public struct Closest: Sendable, Codable, Equatable {
        public var nickname: String
        public var value: Double
        public var points: Int
        public init(nickname: String, value: Double, points: Int) { (self.nickname, self.value, self.points) = (nickname, value, points) }
    }

    /// An estimate's right value and the closest players (up to 3, closest first; earlier on a tie).
    public struct EstimateReveal: Sendable, Codable, Equatable {
        public var value: Double
        public var closest: [Closest]
        public init(value: Double, closest: [Closest]) { (self.value, self.closest) = (value, closest) }
    }

    /// One word of a word cloud: `key` is its normalised form (what a host hides), `text` its most
    /// common spelling, as players typed it (show it as text, never as markup).
    public struct Word: Sendable, Codable, Equatable {
        public var key: String
        public var text: String
        public var count: Int
        public init(key: String, text: String, count: Int) { (self.key, self.text, self.count) = (key, text, count) }
    }

    /// A word cloud as counted on the server: the most common entries first (at most 50), hidden
    /// ones left out; `others` counts the answers not among them.
    public struct Cloud: Sendable, Codable, Equatable {
        public var index: Int
        public var words: [Word]
        public var others: Int
        public init(index: Int, words: [Word], others: Int) { (self.index, self.words, self.others) = (index, words, others) }
    }

    public struct Reveal: Sendable, Codable, Equatable {
        public var index: Int
        /// The correct answer as a person reads it.
        public var correct: String
        /// `correct` and `explanation` as HTML, each only when it holds maths.
        public var correctHTML: String?
        /// The ids `question` sent, for choice questions.
        public var correctChoices: [Int]
        public var explanation: String?
        public var explanationHTML: String?
        public var distribution: [Tally]
        public var answered: Int
        public var players: Int
        /// An ordering's items in the right order.
        public var order: [Choice]?
        /// A matching's right pairs, in prompt order.
        public var pairs: [Pair]?
        public var estimate: EstimateReveal?
        public var cloud: Cloud?

        public init(index: Int, correct: String, correctChoices: [Int], explanation: String?, distribution: [Tally], answered: Int,
                    players: Int) {
            (self.index, self.correct, self.correctChoices, self.explanation) = (index, correct, correctChoices, explanation)
            (self.distribution, self.answered, self.players) = (distribution, answered, players)
        }

        /// The parts of the new kinds, each left out when the kind has none.
        public func with(order: [Choice]? = nil, pairs: [Pair]? = nil, estimate: EstimateReveal? = nil, cloud: Cloud? = nil) -> Reveal {
            var copy = self
            (copy.order, copy.pairs, copy.estimate, copy.cloud) = (order, pairs, estimate, cloud)
            return copy
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
        /// The share of the question the answer earned, in whole percent (1–99; `points` are the
        /// speed points times it): present only for part of it (absent: 100 when `correct`, else 0).
        public var credit: Int?

        public init(index: Int, answered: Bool, correct: Bool, late: Bool, points: Int, bonus: Int, score: Int, rank: Int, streak: Int,
                    behind: Behind? = nil, credit: Int? = nil) {
            (self.index, self.answered, self.correct, self.late, self.points) = (index, answered, correct, late, points)
            (self.bonus, self.score, self.rank, self.streak, self.behind, self.credit) = (bonus, score, rank, streak, behind, credit)
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
