import Foundation

/// What a player chooses before a practice round ("Ways to play").
///
/// Empty `subjectIds` and `topicIds` mean the whole bank; otherwise a question is in play when its
/// subject or its topic is selected. Empty `kinds` means every kind that can be practised.
/// Name-them-all questions are never practised: they are played as a timed game.
public struct PracticeSettings: Sendable, Hashable, Codable {
    /// One broken rule; `field` names the setting as the API and the form do.
    public typealias Invalid = FieldError

    public enum Order: String, Sendable, Hashable, Codable, CaseIterable {
        /// A uniform random sample, in random order.
        case random
        /// The first unseen questions by their position in the bank.
        case bankOrder
    }

    public static let countRange = 1...50
    public static let defaultCount = 10
    /// Seconds per question a player may choose; nil (no limit) is also allowed.
    public static let timeLimitChoices = [10, 20, 30, 60]
    /// The kinds `kinds` may name, and what an empty `kinds` means: practice is for getting
    /// things right, so no polls, word clouds or slides; name-them-all is its own game.
    public static let playableKinds: Set<QuestionKind> = Set(QuestionKind.allCases.filter { $0 != .nameAll && $0.hasRightAnswer })

    public var subjectIds: Set<Int64>
    public var topicIds: Set<Int64>
    /// nil: any difficulty.
    public var difficulty: Difficulty?
    public var count: Int
    /// Empty: every playable kind.
    public var kinds: Set<QuestionKind>
    public var order: Order
    /// nil: no time limit.
    public var timeLimitSeconds: Int?

    public init(
        subjectIds: Set<Int64> = [], topicIds: Set<Int64> = [], difficulty: Difficulty? = nil,
        count: Int = PracticeSettings.defaultCount, kinds: Set<QuestionKind> = [], order: Order = .random,
        timeLimitSeconds: Int? = nil
    ) {
        self.subjectIds = subjectIds
        self.topicIds = topicIds
        self.difficulty = difficulty
        self.count = count
        self.kinds = kinds
        self.order = order
        self.timeLimitSeconds = timeLimitSeconds
    }

    /// The kinds a draw may return: `kinds`, or every playable kind when it is empty.
    public var effectiveKinds: Set<QuestionKind> {
        kinds.isEmpty ? Self.playableKinds : kinds.intersection(Self.playableKinds)
    }

    /// Throws the first broken rule, in the form's order; `validationErrors()` gives them all.
    public func validate() throws(Invalid) {
        if let first = validationErrors().first { throw first }
    }

    /// Every broken rule, so a form can show each message next to its field.
    public func validationErrors() -> [Invalid] {
        var errors: [Invalid] = []
        if !Self.countRange.contains(count) {
            errors.append(Invalid(field: "count", message: "Number of questions must be between 1 and 50, not \(count)."))
        }
        if kinds.contains(.nameAll) {
            errors.append(Invalid(
                field: "kinds",
                message: "Name-them-all questions cannot be practised; they are played as a timed game."))
        }
        if let timeLimitSeconds, !Self.timeLimitChoices.contains(timeLimitSeconds) {
            errors.append(Invalid(
                field: "timeLimitSeconds",
                message: "Time limit must be off or 10, 20, 30 or 60 seconds, not \(timeLimitSeconds)."))
        }
        return errors
    }
}
