/// A player's answer to one question. Which case fits depends on the question's kind.
public enum Answer: Sendable, Hashable {
    case choice(Int)
    case choices(Set<Int>)
    case bool(Bool)
    case text(String)
    case number(Double)
}

public enum Verdict: String, Sendable, Codable, Hashable {
    case correct, wrong, alreadyAnswered
}

/// The correct answer as shown to a player after they answered.
public enum CorrectAnswer: Sendable, Hashable {
    case choices([Choice])
    case bool(Bool)
    case text(String)
    case number(Double, tolerance: Double, unit: String?)
    case items([String])
}
