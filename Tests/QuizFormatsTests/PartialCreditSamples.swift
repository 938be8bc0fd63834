import QuizCore

/// Choice questions with partial credit (a partly right choice, a negative one) that GIFT and
/// Moodle XML both hold: what their round trips are checked with.
enum PartialCreditSamples {
    static let questions = [
        Question(text: "Capital?", body: .singleChoice([
            Choice(id: 1, text: "Paris", isCorrect: true, fraction: .full),
            Choice(id: 2, text: "Lutetia", isCorrect: false, fraction: Fraction(0.5)),
            Choice(id: 3, text: "Rome", isCorrect: false, fraction: Fraction(-0.25)),
        ])),
        Question(text: "Planets?", body: .multipleChoice([
            Choice(id: 1, text: "Mars", isCorrect: true, fraction: Fraction(0.6)),
            Choice(id: 2, text: "Venus", isCorrect: true, fraction: Fraction(0.4)),
            Choice(id: 3, text: "Moon", isCorrect: false, fraction: Fraction(-1)),
        ])),
    ]
}
