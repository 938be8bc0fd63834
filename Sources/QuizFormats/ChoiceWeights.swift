import QuizCore

/// Moodle's answer weights (percentages) as Quizbox choice fractions, for the GIFT and Moodle XML
/// readers alike.
enum ChoiceWeights {
    /// The weights as fractions, or nil when they say no more than which choices are right, so
    /// the question keeps Quizbox's plain rule: for single choice, only 100 and 0 or less; for multiple
    /// choice, the right ones sharing 100 equally and every other one 0 or minus that share
    /// (what the GIFT and Moodle XML writers make of an all-or-nothing multiple choice).
    static func fractions(_ percents: [Double], isSingle: Bool) -> [Fraction?]? {
        let plain: Bool
        if isSingle {
            // A negative weight takes nothing from a single answer that already earns none.
            plain = percents.allSatisfy { $0 <= 0 || $0 == 100 }
        } else {
            let positive = percents.count(where: { $0 > 0 })
            let share = 100 / Double(max(1, positive))
            plain = percents.allSatisfy { $0 == 0 || abs(abs($0) - share) < 0.001 }
        }
        return plain ? nil : percents.map { Fraction(percent: $0) }
    }
}
