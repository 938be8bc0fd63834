import QuizCore
import QuizFormats
import Testing

/// Formats that hold single choice only list every new kind, and partial credit, as left out.
@Suite struct NewKindsExportTests {
    static let questions: [Question] = [
        Question(text: "Order", body: .ordering(Ordering(items: ["a", "b", "c"]))),
        Question(text: "Match", body: .matching(Matching(pairs: [Matching.Pair(prompt: "a", answer: "1"), Matching.Pair(prompt: "b", answer: "2")]))),
        Question(text: "Gaps", body: .gapFill(GapFill(text: "[[1]]", gaps: [GapFill.WeightedGap(.typed([Alternative("x")]))]))),
        Question(text: "Poll", body: .poll(Poll(choices: ["a", "b"]))),
        Question(text: "Cloud", body: .wordCloud),
        Question(text: "Guess", body: .estimate(Estimate(minimum: 0, maximum: 10, step: 1, value: 5, margin: 2))),
        Question(text: "Read", body: .slide),
        Question(text: "Partly", body: .singleChoice([
            Choice(id: 1, text: "a", isCorrect: true, fraction: .full), Choice(id: 2, text: "b", isCorrect: false, fraction: Fraction(0.5)),
        ])),
    ]
    static let kept = Question(text: "Plain?", body: .singleChoice([Choice(id: 1, text: "a", isCorrect: true), Choice(id: 2, text: "b", isCorrect: false)]))
    static let bank = Bank(subjects: [BankSubject(name: "S", topics: [BankTopic(name: "T", questions: questions + [kept])])])

    @Test func csvListsEachAsLeftOutAndWritesTheRest() {
        let output = CSVWriter().write(Self.bank)
        #expect(output.skipped.map(\.question) == Self.questions.map(\.text))
        #expect(output.skipped.last?.reason == "gives partial credit on a choice, which CSV cannot hold")
        #expect(output.csv.contains("Plain?") && !output.csv.contains("Partly"))
    }

    @Test func aikenListsEachAsLeftOutAndWritesTheRest() {
        let output = AikenWriter().write(Self.bank)
        #expect(output.skipped.map(\.question) == Self.questions.map(\.text))
        #expect(output.skipped.last?.message == "gives partial credit on a choice, which Aiken cannot hold")
        #expect(output.text.contains("Plain?") && !output.text.contains("Partly"))
    }
}
