import Foundation

/// What a game shows of its standing: the leaderboard, the teams, how a question was answered.
extension LiveGame {
    public struct Standing: Sendable, Equatable {
        public var player: LivePlayer
        public var rank: Int
        /// Places moved between the last two leaderboards: up is positive.
        public var movement: Int
    }

    /// Players still in the game, best first; equal scores share a rank.
    public func standings() -> [Standing] {
        let sorted = activePlayers.sorted { ($0.score, -$0.id) > ($1.score, -$1.id) }
        var result: [Standing] = []
        result.reserveCapacity(sorted.count)
        var rank = 0
        for (position, player) in sorted.enumerated() {
            if position == 0 || player.score != sorted[position - 1].score { rank = position + 1 }
            result.append(Standing(player: player, rank: rank, movement: player.movement))
        }
        return result
    }

    /// Works out each player's movement since the last leaderboard, for this one's arrows.
    mutating func markRanks() {
        for standing in standings() {
            let index = standing.player.id - 1
            players[index].movement = (players[index].boardRank ?? standing.rank) - standing.rank
            players[index].boardRank = standing.rank
        }
    }

    public struct TeamScore: Sendable, Equatable {
        public var team: Int
        public var score: Int
        public var members: Int
    }

    /// Each team's average score, best first.
    public func teamScores() -> [TeamScore] {
        guard settings.teams > 0 else { return [] }
        return (1...settings.teams).map { team in
            let members = activePlayers.filter { $0.team == team }
            let total = members.reduce(0) { $0 + $1.score }
            return TeamScore(team: team, score: members.isEmpty ? 0 : Int((Double(total) / Double(members.count)).rounded()), members: members.count)
        }.sorted { ($0.score, -$0.team) > ($1.score, -$1.team) }
    }

    /// How the open or last question was answered, choice by choice for choice questions.
    public struct Tally: Sendable, Equatable {
        public var label: String
        public var choice: Int?
        public var count: Int
        public var isCorrect: Bool
    }

    public func distribution() -> [Tally] {
        guard let question else { return [] }
        let given = answers.values
        switch question.body {
        case .singleChoice(let choices), .multipleChoice(let choices):
            var counts: [Int: Int] = [:]
            for answer in given {
                switch answer.answer {
                case .choice(let id): counts[id, default: 0] += 1
                case .choices(let ids): for id in ids { counts[id, default: 0] += 1 }
                default: break
                }
            }
            return choices.map { Tally(label: $0.text, choice: $0.id, count: counts[$0.id] ?? 0, isCorrect: $0.isCorrect) }
        case .poll(let poll):
            var counts: [Int: Int] = [:]
            for answer in given { if case .choice(let id) = answer.answer { counts[id, default: 0] += 1 } }
            return zip(poll.ids, poll.choices).map { Tally(label: $1, choice: $0, count: counts[$0] ?? 0, isCorrect: false) }
        case .trueFalse(let value):
            let trues = given.filter { $0.answer == .bool(true) }.count
            return [Tally(label: "True", choice: nil, count: trues, isCorrect: value),
                    Tally(label: "False", choice: nil, count: given.count - trues, isCorrect: !value)]
        case .wordCloud, .slide:
            return []
        case .matching, .estimate:
            // Kinds graded by parts or closeness: the partly right apart from the wrong.
            let right = given.filter(\.isCorrect).count
            let partly = given.filter { !$0.isCorrect && !$0.late && !$0.credit.isNone }.count
            return [Tally(label: "Right", choice: nil, count: right, isCorrect: true),
                    Tally(label: "Partly right", choice: nil, count: partly, isCorrect: false),
                    Tally(label: "Wrong", choice: nil, count: given.count - right - partly, isCorrect: false)]
        default:
            let right = given.filter(\.isCorrect).count
            return [Tally(label: "Right", choice: nil, count: right, isCorrect: true),
                    Tally(label: "Wrong", choice: nil, count: given.count - right, isCorrect: false)]
        }
    }

    /// An estimate's closest answer: who, what they said, what it earned.
    public struct Closest: Sendable, Equatable {
        public var playerId: Int
        public var nickname: String
        public var value: Double
        public var points: Int
    }

    /// The players whose estimates (in time) came closest to the value, closest first; the
    /// earlier answer first on a tie. Empty for other kinds.
    public func closest(_ limit: Int = 3) -> [Closest] {
        guard case .estimate(let estimate)? = question?.body else { return [] }
        var found: [(distance: Double, answer: LiveAnswer, value: Double)] = []
        for answer in answers.values where !answer.late {
            guard case .number(let value) = answer.answer, let player = player(answer.playerId), !player.kicked else { continue }
            found.append((estimate.distance(value), answer, value))
        }
        return found.sorted { ($0.distance, $0.answer.milliseconds, $0.answer.playerId) < ($1.distance, $1.answer.milliseconds, $1.answer.playerId) }
            .prefix(limit)
            .map { Closest(playerId: $0.answer.playerId, nickname: players[$0.answer.playerId - 1].nickname, value: $0.value,
                           points: $0.answer.points) }
    }
}
