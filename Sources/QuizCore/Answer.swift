/// A player's answer to one question. Which case fits depends on the question's kind.
public enum Answer: Sendable, Hashable {
    case choice(Int)
    case choices(Set<Int>)
    case bool(Bool)
    case text(String)
    case number(Double)
    /// An ordering's item ids in the order the player put them.
    case order([Int])
    /// A matching's answer id for each prompt id the player matched.
    case matches([Int: Int])
    /// A gap fill's answer for each gap id the player filled.
    case gaps([Int: GapFill.GapAnswer])
    /// A slide, read: what moves a quiz on past it.
    case read
}

extension Answer {
    /// The longest typed answer taken, in UTF-8 bytes.
    public static let maxTextBytes = 1_000
    /// The most choices one answer may name (no question has more).
    public static let maxChoices = 10
}

public enum Verdict: String, Sendable, Codable, Hashable {
    case correct, wrong, alreadyAnswered
    /// Some of the credit: part of an ordering, a matching, a gap fill, a close estimate, a
    /// choice or alternative the author gave a fraction.
    case partlyCorrect
    /// Taken and counted, with nothing right or wrong about it: a poll's vote, a word cloud's word.
    case counted
    /// Given after the time limit: recorded, scoring nothing.
    case tooLate
}

/// The correct answer as shown to a player after they answered.
public enum CorrectAnswer: Sendable, Hashable {
    case choices([Choice])
    case bool(Bool)
    case text(String)
    case number(Double, tolerance: Double, unit: String?)
    case items([String])
    /// An ordering's items in their right order.
    case order([String])
    /// A matching's prompts with their right answers.
    case pairs([Matching.Pair])
    /// A gap fill's full-credit answer for each gap, in gap order.
    case gaps([String])
    /// An estimate's value, with its unit.
    case estimate(Double, unit: String?)
    /// Polls, word clouds and slides have no right answer.
    case none
}
