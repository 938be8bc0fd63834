import Foundation

/// How a host set up a live game.
public struct LiveSettings: Sendable, Codable, Equatable {
    public enum Points: String, Sendable, Codable, CaseIterable {
        case standard, double, none

        /// `P` of the scoring rule.
        public var base: Int {
            switch self {
            case .standard: 1_000
            case .double: 2_000
            case .none: 0
            }
        }
    }

    public static let secondsRange = 5...240
    public static let teamRange = 2...6

    public var secondsPerQuestion = 20
    /// By question index; a missing index plays standard points.
    public var points: [Int: Points] = [:]
    public var streakBonus = true
    public var shuffleAnswers = false
    public var leaderboardAfterEach = true
    public var autoAdvance = false
    /// 0 plays without teams.
    public var teams = 0
    /// A question's sound clip plays on the players' phones too, not only on the host's screen.
    public var soundOnPhones = false

    public init() {}

    /// A missing field keeps its default, so a client may send only what it changes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        secondsPerQuestion = try container.decodeIfPresent(Int.self, forKey: .secondsPerQuestion) ?? secondsPerQuestion
        points = try container.decodeIfPresent([Int: Points].self, forKey: .points) ?? points
        streakBonus = try container.decodeIfPresent(Bool.self, forKey: .streakBonus) ?? streakBonus
        shuffleAnswers = try container.decodeIfPresent(Bool.self, forKey: .shuffleAnswers) ?? shuffleAnswers
        leaderboardAfterEach = try container.decodeIfPresent(Bool.self, forKey: .leaderboardAfterEach) ?? leaderboardAfterEach
        autoAdvance = try container.decodeIfPresent(Bool.self, forKey: .autoAdvance) ?? autoAdvance
        teams = try container.decodeIfPresent(Int.self, forKey: .teams) ?? teams
        soundOnPhones = try container.decodeIfPresent(Bool.self, forKey: .soundOnPhones) ?? soundOnPhones
    }

    public func points(at index: Int) -> Points { points[index] ?? .standard }

    public enum Problem: Error, Equatable {
        case seconds, teams, pointsIndex
    }

    /// Everything a game cannot play with, at once.
    public func problems(questionCount: Int) -> [Problem] {
        var found: [Problem] = []
        if !Self.secondsRange.contains(secondsPerQuestion) { found.append(.seconds) }
        if teams != 0 && !Self.teamRange.contains(teams) { found.append(.teams) }
        if !points.keys.allSatisfy({ (0..<questionCount).contains($0) }) { found.append(.pointsIndex) }
        return found
    }

    /// Refuses what a game cannot play with.
    public func validated(questionCount: Int) throws(Problem) -> LiveSettings {
        if let first = problems(questionCount: questionCount).first { throw first }
        return self
    }
}
