/// A player's answer to one question. Which case fits depends on the question's kind.
public enum Answer: Sendable, Hashable {
    case choice(Int)
    case choices(Set<Int>)
    case bool(Bool)
    case text(String)
    case number(Double)
}

extension Answer {
    /// The longest typed answer taken, in UTF-8 bytes.
    public static let maxTextBytes = 1_000
    /// The most choices one answer may name (no question has more).
    public static let maxChoices = 10
}

public enum Verdict: String, Sendable, Codable, Hashable {
    case correct, wrong, alreadyAnswered
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
}
