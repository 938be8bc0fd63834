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
        for answer in answers where !answer.isBlank {
            if answer.fraction == 100 {
                accepted.append(answer)
            } else if answer.fraction > 0 {
                warn("answer \"\(answer.text)\" gives partial credit (\(MoodleXMLGrade.format(answer.fraction))%), "
                     + "which Quizbox does not have: it was dropped", line: answer.line)
            }
        }
        answerNumbers = accepted.map(\.number)
        failOnAnswersLeftEmpty(accepted)
        var texts: [String] = []
        for answer in accepted {
            // In Moodle "*" matches anything and "\*" is a literal asterisk.
            let parts = answer.text.split(separator: "\\*", omittingEmptySubsequences: false)
            if parts.contains(where: { $0.contains("*") }) {
                warn("answer \"\(answer.text)\" uses the * wildcard, which Quizbox does not support", line: answer.line)
            }
            texts.append(parts.joined(separator: "*"))
        }
        return (.typedAnswer(texts), accepted)
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
        return (.numeric(value: value, tolerance: tolerance, unit: readUnit()), [answer])
    }

    /// An answer that is only an image has no text left: say why rather than "is empty".
    private mutating func failOnAnswersLeftEmpty(_ answers: [Answer]) {
        for answer in answers where answer.text.isEmpty {
            fail("answer \(answer.number) is only an image, which Quizbox cannot import", line: answer.line)
        }
    }

    /// The first unit with multiplier 1; the others cannot be kept.
    private mutating func readUnit() -> String? {
        let units = (element.child("units")?.children("unit") ?? []).compactMap { unit -> (name: String, multiplier: Double?)? in
            let name = MoodleXMLText.trimmed(unit.child("unit_name")?.text ?? "")
            guard !name.isEmpty else { return nil }
            return (name, Double(MoodleXMLText.trimmed(unit.child("multiplier")?.text ?? "1")))
        }
        let baseIndex = units.firstIndex { $0.multiplier.map { abs($0 - 1) < 1e-9 } == true }
        let dropped = units.indices.filter { $0 != baseIndex }.map { "\"\(units[$0].name)\"" }
        if !dropped.isEmpty {
            let kept = baseIndex.map { "only \"\(units[$0].name)\" (multiplier 1) was kept" } ?? "no unit has multiplier 1"
            warn("\(kept); Quizbox has one unit per question, so \(dropped.joined(separator: ", ")) "
                 + "\(dropped.count == 1 ? "was" : "were") dropped")
        }
        return baseIndex.map { units[$0].name }
    }
}
