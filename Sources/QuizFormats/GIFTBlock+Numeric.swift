import QuizCore

extension GIFTBlock {
    /// Numerical: `{#v}`, `{#v:tolerance}`, `{#min..max}` (the midpoint, give or take half the
    /// range) or several answers `{# =v:t =%50%v2:t2}`. Quizbox keeps one number, the first worth
    /// 100%; partial credit is dropped with a warning. A `~` ends the answers: what follows is
    /// Moodle's feedback for any other number, which Quizbox has no place for.
    func readNumeric(_ parts: Parts, into outcome: inout Outcome) -> Built? {
        var range = (parts.answers.lowerBound + 1)..<parts.answers.upperBound
        if let tilde = first(UInt8(ascii: "~"), in: range) { range = range.lowerBound..<tilde }
        range = trimmed(range)
        guard !range.isEmpty else {
            outcome.add(problem: problem(at: parts.open, question: parts.stem,
                "the numerical answer block holds no number — write it as {#42}, {#3.14:0.01} or {#1..5}"))
            return nil
        }
        guard let answers = splitAnswers(range, tildes: false, unmarkedWeight: 100, parts, into: &outcome) else { return nil }
        var full: [(answer: Answer, value: Double, tolerance: Double)] = []
        var failed = false
        for answer in answers {
            if equals(answer.text, "*") {
                if answer.weight >= 100 {
                    outcome.add(problem: problem(at: answer.marker, question: parts.stem,
                        "'*' (any number) cannot be imported — Quizbox needs the right number"))
                    failed = true
                }
                continue
            }
            switch numericAnswer(answer.text) {
            case .failure(let failure):
                outcome.add(problem: problem(at: answer.text.lowerBound, question: parts.stem, failure.message))
                failed = true
            case .success(let (value, tolerance)):
                if answer.weight >= 100 {
                    full.append((answer, value, tolerance))
                } else if answer.weight > 0 {
                    outcome.add(warning: problem(at: answer.marker, question: parts.stem,
                        "the answer \(quoted(answer.text)) worth \(GIFTBlock.percent(answer.weight)) is dropped: Quizbox accepts only fully correct answers"))
                }
            }
        }
        if failed { return nil }
        guard let chosen = full.first else {
            outcome.add(problem: problem(at: parts.open, question: parts.stem,
                "no answer is worth 100% — mark the right number with '=' and no weight"))
            return nil
        }
        if full.count > 1 {
            let dropped = full.dropFirst().map { quoted($0.answer.text) }.joined(separator: ", ")
            outcome.add(warning: problem(at: full[1].answer.marker, question: parts.stem,
                "Quizbox keeps one number per question: \(quoted(chosen.answer.text)) is kept, \(dropped) dropped"))
        }
        var feedback: String?
        if let range = chosen.answer.feedback { feedback = taggedString(range, format: parts.format) }
        return Built(body: .numeric(value: chosen.value, tolerance: chosen.tolerance, unit: nil),
                     answerFeedback: feedback, itemOffsets: [chosen.answer.marker])
    }

    private struct NumberProblem: Error {
        var message: String
    }

    /// `v`, `v:tolerance` or `min..max` as a value and a tolerance.
    private func numericAnswer(_ range: Range<Int>) -> Result<(Double, Double), NumberProblem> {
        if let dots = first(UInt8(ascii: "."), UInt8(ascii: "."), in: range), dots > range.lowerBound {
            let low = trimmed(range.lowerBound..<dots)
            let high = trimmed((dots + 2)..<range.upperBound)
            guard let minimum = number(in: low) else { return .failure(notANumber(low)) }
            guard let maximum = number(in: high) else { return .failure(notANumber(high)) }
            guard minimum <= maximum else {
                return .failure(NumberProblem(message: "the range \(quoted(range)) runs backwards — write the smaller number first"))
            }
            return .success(((minimum + maximum) / 2, (maximum - minimum) / 2))
        }
        if let colon = first(UInt8(ascii: ":"), in: range), colon > range.lowerBound {
            let valueRange = trimmed(range.lowerBound..<colon)
            let toleranceRange = trimmed((colon + 1)..<range.upperBound)
            guard let value = number(in: valueRange) else { return .failure(notANumber(valueRange)) }
            guard let tolerance = number(in: toleranceRange) else { return .failure(notANumber(toleranceRange)) }
            return .success((value, tolerance))
        }
        guard let value = number(in: range) else { return .failure(notANumber(range)) }
        return .success((value, 0))
    }

    private func notANumber(_ range: Range<Int>) -> NumberProblem {
        if contains(UInt8(ascii: ","), in: range) {
            return NumberProblem(message: "\(quoted(range)) is not a number — write decimals with '.', as in 0.5")
        }
        return NumberProblem(message: "\(quoted(range)) is not a number — write 42, 3.14:0.01 (value:tolerance) or 1..5 (a range)")
    }

    /// A finite decimal number such as "-3.5", "1822" or "1e-5"; nil for anything else.
    func number(in range: Range<Int>) -> Double? {
        let range = trimmed(range)
        guard !range.isEmpty, range.count <= 64 else { return nil }
        var digits = 0
        for i in range {
            let byte = text[i]
            guard GIFTBlock.isNumberByte(byte) || byte | 0x20 == UInt8(ascii: "e") else { return nil }
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { digits += 1 }
        }
        guard digits > 0, let value = Double(String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)),
              value.isFinite else { return nil }
        return value
    }

    static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
    }
}
