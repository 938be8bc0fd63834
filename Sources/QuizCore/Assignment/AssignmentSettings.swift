import Foundation

/// How a teacher set up an assignment: attempts and how they are graded, the clock, the order,
/// and when players see the right answers.
public struct AssignmentSettings: Sendable, Codable, Equatable {
    /// Moodle's grading methods for a quiz with several attempts.
    public enum Grading: String, Sendable, Codable, CaseIterable {
        case highest, first, last, average
    }

    /// The clock on each question: none (homework is not a race), or the question's own limit
    /// (`Question.timeLimitSeconds`, else `defaultSeconds`), enforced by the server.
    public enum Timing: String, Sendable, Codable, CaseIterable {
        case none, questionsOwn
    }

    /// When a player sees which answers were right.
    public enum AnswersShown: String, Sendable, Codable, CaseIterable {
        case afterEachQuestion, afterFinishing, afterClose
    }

    public static let attemptsRange = 1...10
    /// A question without a limit of its own, played with `questionsOwn`.
    public static let defaultSeconds = 30

    public var attemptsAllowed = 1
    public var grading = Grading.highest
    public var timing = Timing.none
    /// Faster right answers earn more (a live game's rule); off: accuracy only.
    public var speedPoints = false
    public var shuffleQuestions = false
    public var shuffleAnswers = false
    public var answersShown = AnswersShown.afterFinishing
    /// Off by default: homework done again and again must not farm the leaderboard.
    public var leaderboardPoints = false

    public init(attemptsAllowed: Int = 1, grading: Grading = .highest, timing: Timing = .none, speedPoints: Bool = false,
                shuffleQuestions: Bool = false, shuffleAnswers: Bool = false, answersShown: AnswersShown = .afterFinishing,
                leaderboardPoints: Bool = false) {
        (self.attemptsAllowed, self.grading, self.timing, self.speedPoints) = (attemptsAllowed, grading, timing, speedPoints)
        (self.shuffleQuestions, self.shuffleAnswers, self.answersShown) = (shuffleQuestions, shuffleAnswers, answersShown)
        self.leaderboardPoints = leaderboardPoints
    }

    /// A missing field keeps its default, so a client may send only what it changes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AssignmentSettings()
        attemptsAllowed = try container.decodeIfPresent(Int.self, forKey: .attemptsAllowed) ?? defaults.attemptsAllowed
        grading = try container.decodeIfPresent(Grading.self, forKey: .grading) ?? defaults.grading
        timing = try container.decodeIfPresent(Timing.self, forKey: .timing) ?? defaults.timing
        speedPoints = try container.decodeIfPresent(Bool.self, forKey: .speedPoints) ?? defaults.speedPoints
        shuffleQuestions = try container.decodeIfPresent(Bool.self, forKey: .shuffleQuestions) ?? defaults.shuffleQuestions
        shuffleAnswers = try container.decodeIfPresent(Bool.self, forKey: .shuffleAnswers) ?? defaults.shuffleAnswers
        answersShown = try container.decodeIfPresent(AnswersShown.self, forKey: .answersShown) ?? defaults.answersShown
        leaderboardPoints = try container.decodeIfPresent(Bool.self, forKey: .leaderboardPoints) ?? defaults.leaderboardPoints
    }

    /// Seconds to answer `question`; nil without a clock.
    public func seconds(for question: Question) -> Int? {
        switch timing {
        case .none: nil
        case .questionsOwn: question.kind == .slide ? nil : question.timeLimitSeconds ?? Self.defaultSeconds
        }
    }
}
