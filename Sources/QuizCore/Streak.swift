/// Right answers in a row: the one rule for quizzes and live games. A right answer adds one to the
/// run; any other ends it (wrong, late, or in a live game a question left unanswered).
public enum Streak {
    public static func after(_ run: Int, isCorrect: Bool) -> Int { isCorrect ? run + 1 : 0 }

    /// The run that the last of `verdicts`, in the order they were given, ends.
    public static func ending(_ verdicts: some Sequence<Bool>) -> Int { verdicts.reduce(0, after) }

    /// A run is worth telling the player about from its second answer.
    public static let shownFrom = 2

    /// A live game's bonus for a right answer after `run` right ones: 100 a step, at most 500.
    public static func bonus(after run: Int) -> Int { min(500, 100 * run) }
}
