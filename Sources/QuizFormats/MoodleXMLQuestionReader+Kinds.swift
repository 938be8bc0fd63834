import QuizCore

/// The body of each question type Quizbox has, with the answers it counts as correct (whose
/// feedback may become the explanation). Nil when the question cannot be built at all.
extension MoodleXMLQuestionReader {
    mutating func multichoice(_ answers: [Answer]) -> (body: QuestionBody, correct: [Answer])? {
        let single = MoodleXMLText.trimmed(element.child("single")?.text ?? "").lowercased()
        let isSingle = single != "false" && single != "0"
        let kept = answers.filter { !$0.isBlank }
        answerNumbers = kept.map(\.number)
        failOnAnswersLeftEmpty(kept)

        let isCorrect: (Answer) -> Bool = isSingle ? { $0.fraction == 100 } : { $0.fraction > 0 }
        let fractions = ChoiceWeights.fractions(kept.map(\.fraction), isSingle: isSingle)
        let choices = kept.enumerated().map { index, answer in
            Choice(id: index + 1, text: answer.text, isCorrect: isCorrect(answer), fraction: fractions?[index])
        }
        let correct = kept.filter(isCorrect)
        return (isSingle ? .singleChoice(choices) : .multipleChoice(choices), correct)
    }

    mutating func trueFalse(_ answers: [Answer]) -> (body: QuestionBody, correct: [Answer])? {
        let correct = answers.filter { $0.fraction == 100 }
        let values = Set(correct.map { $0.text.lowercased() })
        guard values.count == 1, let value = values.first, value == "true" || value == "false" else {
            fail("a truefalse question needs one answer, \"true\" or \"false\", with fraction 100")
            return nil
        }
        return (.trueFalse(value == "true"), correct)
    }

    mutating func shortAnswer(_ answers: [Answer]) -> (body: QuestionBody, correct: [Answer])? {
        if MoodleXMLText.trimmed(element.child("usecase")?.text ?? "") == "1" {
            warn("case-sensitive matching is not supported: Quizbox compares typed answers ignoring case")
        }
        var accepted: [Answer] = []
        var partial: [Answer] = []
        for answer in answers where !answer.isBlank {
            if answer.fraction == 100 {
                accepted.append(answer)
            } else if answer.fraction > 0 && answer.fraction < 100 {
                partial.append(answer)
            }
        }
        answerNumbers = accepted.map(\.number)
        failOnAnswersLeftEmpty(accepted)
        func text(_ answer: Answer) -> String {
            // In Moodle "*" matches anything and "\*" is a literal asterisk.
            let parts = answer.text.split(separator: "\\*", omittingEmptySubsequences: false)
            if parts.contains(where: { $0.contains("*") }) {
                warn("answer \"\(answer.text)\" uses the * wildcard, which Quizbox does not support", line: answer.line)
            }
            return parts.joined(separator: "*")
        }
        let texts = accepted.map(text)
        // One that is only an image cannot count.
        let credited = Alternative.distinctPartial(partial.compactMap { answer in
            answer.text.isEmpty ? nil : Fraction(answer.fraction / 100).map { Alternative(text(answer), fraction: $0) }
        }, besides: texts)
        return (.typedAnswer(texts, partial: credited), accepted)
    }

    mutating func numerical(_ answers: [Answer]) -> (body: QuestionBody, correct: [Answer])? {
        let full = answers.filter { $0.fraction == 100 && !$0.isBlank }
        guard let answer = full.first else {
            fail("no answer has fraction 100: a numerical question needs its correct value")
            return nil
        }
        if full.count > 1 {
            let others = full.dropFirst().map { "\"\($0.text)\"" }.joined(separator: ", ")
            warn("only the first fully correct answer (\(answer.text)) was kept: Quizbox has one value per "
                 + "question, so \(others) \(full.count == 2 ? "was" : "were") dropped", line: full[1].line)
        }
        for other in answers where other.fraction > 0 && other.fraction < 100 {
            warn("answer \"\(other.text)\" gives partial credit (\(MoodleXMLGrade.format(other.fraction))%), "
                 + "which Quizbox does not have: it was dropped", line: other.line)
        }
        guard let value = Double(answer.text), value.isFinite else {
            fail("answer \(answer.number) (\"\(answer.text)\") is not a number", line: answer.line)
            return nil
        }
        var tolerance = 0.0
        if let toleranceElement = answer.element.child("tolerance") {
            let written = MoodleXMLText.trimmed(toleranceElement.text)
            if !written.isEmpty {
                guard let number = Double(written), number.isFinite, number >= 0 else {
                    fail("tolerance \"\(written)\" is not a number of 0 or more", line: toleranceElement.line)
                    return nil
                }
                tolerance = number
            }
        }
        let (unit, units) = readUnits()
        return (.numeric(value: value, tolerance: tolerance, unit: unit, units: units), [answer])
    }

    /// An answer that is only an image has no text left: say why rather than "is empty".
    private mutating func failOnAnswersLeftEmpty(_ answers: [Answer]) {
        for answer in answers where answer.text.isEmpty {
            fail("answer \(answer.number) is only an image, which Quizbox cannot import", line: answer.line)
        }
    }

    /// The first unit with multiplier 1; the others cannot be kept.
    /// The unit with multiplier 1 and the others with theirs (an answer in "mm" with multiplier
    /// 10 is ten times the value in "cm"). Units without a usable multiplier are dropped, with a warning.
    private mutating func readUnits() -> (unit: String?, units: [NumericUnit]) {
        let units = (element.child("units")?.children("unit") ?? []).compactMap { unit -> (name: String, multiplier: Double?)? in
            let name = MoodleXMLText.trimmed(unit.child("unit_name")?.text ?? "")
            guard !name.isEmpty else { return nil }
            return (name, Double(MoodleXMLText.trimmed(unit.child("multiplier")?.text ?? "1")))
        }
        guard !units.isEmpty else { return (nil, []) }
        guard let baseIndex = units.firstIndex(where: { $0.multiplier.map { abs($0 - 1) < 1e-9 } == true }) else {
            warn("no unit has multiplier 1, so the units \(units.map { "\"\($0.name)\"" }.joined(separator: ", ")) were dropped")
            return (nil, [])
        }
        var others: [NumericUnit] = []
        var dropped: [String] = []
        for (index, unit) in units.enumerated() where index != baseIndex {
            guard let multiplier = unit.multiplier, multiplier.isFinite, multiplier > 0,
                  others.count < NumericUnit.maxUnits - 1, unit.name != units[baseIndex].name,
                  !others.contains(where: { $0.name == unit.name }) else {
                dropped.append("\"\(unit.name)\"")
                continue
            }
            others.append(NumericUnit(name: unit.name, multiplier: multiplier))
        }
        if !dropped.isEmpty {
            warn("the units \(dropped.joined(separator: ", ")) were dropped: each needs a multiplier more than 0 and its own name, "
                 + "and a question holds at most \(NumericUnit.maxUnits)")
        }
        return (units[baseIndex].name, others)
    }
}
