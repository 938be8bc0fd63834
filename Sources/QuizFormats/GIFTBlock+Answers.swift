import QuizCore

extension GIFTBlock {
    /// One answer between the braces.
    struct Answer {
        /// Where its `~` or `=` is (where its text is when it has neither).
        var marker: Int
        var isEquals: Bool
        /// In percent: 100 for `=`, 0 for `~`, or what a `%weight%` says.
        var weight: Double
        var text: Range<Int>
        var feedback: Range<Int>?
    }

    /// Splits `range` at every `=` and, when `tildes`, every `~` (Moodle does the same, so an
    /// `=` meant literally must be written `\=` even in feedback). Text before the first mark is
    /// an answer too, worth `unmarkedWeight`. Nil when an answer is broken; the problem is reported.
    func splitAnswers(_ range: Range<Int>, tildes: Bool, unmarkedWeight: Double, _ parts: Parts, into outcome: inout Outcome) -> [Answer]? {
        var answers: [Answer] = []
        var failed = false
        var mark: UInt8?
        var segmentStart = range.lowerBound
        func finishSegment(_ end: Int) {
            let content = trimmed(segmentStart..<end)
            if mark == nil && content.isEmpty { return }
            let markerAt = mark == nil ? content.lowerBound : segmentStart - 1
            if let answer = readAnswer(content, mark: mark, at: markerAt, unmarkedWeight: unmarkedWeight, parts, into: &outcome) {
                answers.append(answer)
            } else {
                failed = true
            }
        }
        var i = range.lowerBound
        while i < range.upperBound {
            let byte = text[i]
            if byte == UInt8(ascii: "=") || (tildes && byte == UInt8(ascii: "~")) {
                finishSegment(i)
                mark = byte
                segmentStart = i + 1
            }
            i += 1
        }
        finishSegment(range.upperBound)
        return failed ? nil : answers
    }

    private func readAnswer(
        _ content: Range<Int>, mark: UInt8?, at markerAt: Int, unmarkedWeight: Double, _ parts: Parts, into outcome: inout Outcome
    ) -> Answer? {
        func fail(_ offset: Int, _ message: String) -> Answer? {
            outcome.add(problem: problem(at: offset, question: parts.stem, message))
            return nil
        }
        func failEmpty() -> Answer? {
            let name = mark.map { "'\(Character(Unicode.Scalar($0)))'" } ?? "the answer"
            return fail(markerAt, "empty answer after \(name) — write the answer's text, or remove the \(name)")
        }
        guard !content.isEmpty else { return failEmpty() }
        var weight = mark == UInt8(ascii: "=") ? 100 : mark == UInt8(ascii: "~") ? 0 : unmarkedWeight
        var body = content
        if text[body.lowerBound] == UInt8(ascii: "%") {
            let limit = first(UInt8(ascii: "#"), in: body) ?? body.upperBound
            if let percent = first(UInt8(ascii: "%"), in: (body.lowerBound + 1)..<limit) {
                let written = quoted(body.lowerBound..<(percent + 1))
                guard let value = number(in: (body.lowerBound + 1)..<percent) else {
                    return fail(body.lowerBound, "unknown weight \(written) — write a percentage from -100 to 100, such as %50% or %-33.33333%")
                }
                guard (-100...100).contains(value) else {
                    return fail(body.lowerBound, "weight \(written) is out of range — write a percentage from -100 to 100")
                }
                weight = value
                body = trimmed((percent + 1)..<body.upperBound)
            } else if body.count > 1, GIFTBlock.isNumberByte(text[body.lowerBound + 1]) {
                let written = quoted(body.lowerBound..<min(limit, body.lowerBound + 12))
                return fail(body.lowerBound, "the weight \(written) has no closing '%' — write it as %50%")
            }
        }
        var answerText = body
        var feedback: Range<Int>?
        if let hash = first(UInt8(ascii: "#"), in: body) {
            answerText = trimmed(body.lowerBound..<hash)
            feedback = trimmed((hash + 1)..<body.upperBound)
        }
        guard !answerText.isEmpty else { return failEmpty() }
        return Answer(marker: markerAt, isEquals: mark == UInt8(ascii: "="), weight: weight, text: answerText, feedback: feedback)
    }

    /// Multiple choice. With an `=` (Moodle's single-answer form) the full-credit answers are
    /// right; without one (Moodle's multiple-answer form, `~%50%a ~%50%b ~%-100%c`) every answer
    /// with a positive weight is right. One right answer makes a single-choice question, several a
    /// multiple-choice one. Weights are kept as the choices' partial credit, except where they say
    /// no more than which answers are right (`ChoiceWeights`): `=` and `~` alone, or the correct
    /// answers sharing 100% equally and each wrong one 0 or taking away as much (what
    /// `GIFTWriter` writes for Quizbox's all-or-nothing multiple choice). Several `=` answers make a multiple-choice
    /// question graded all-or-nothing, their partial credit dropped with a warning.
    func readChoices(_ parts: Parts, into outcome: inout Outcome) -> Built? {
        guard let answers = splitAnswers(parts.answers, tildes: true, unmarkedWeight: 0, parts, into: &outcome) else { return nil }
        let singleAnswerForm = answers.contains(where: \.isEquals)
        let isCorrect: (Answer) -> Bool = singleAnswerForm ? { $0.weight >= 100 } : { $0.weight > 0 }
        let correctCount = answers.count(where: isCorrect)
        // Several `=` answers: any one is right in Moodle, all of them in Quizbox; no weights kept.
        let fractions = singleAnswerForm && correctCount > 1 ? nil : ChoiceWeights.fractions(answers.map(\.weight), isSingle: correctCount <= 1)
        var choices: [Choice] = []
        choices.reserveCapacity(answers.count)
        var feedback: String?
        for (index, answer) in answers.enumerated() {
            let choice = taggedString(answer.text, format: parts.format)
            if fractions == nil && singleAnswerForm && answer.weight > 0 && answer.weight < 100 {
                outcome.add(warning: problem(at: answer.marker, question: parts.stem,
                    "partial credit (\(GIFTBlock.percent(answer.weight))) for \"\(choice)\" is dropped: Quizbox grades all-or-nothing, so it counts as wrong"))
            }
            if isCorrect(answer) && feedback == nil, let range = answer.feedback {
                let text = taggedString(range, format: parts.format)
                if !text.isEmpty { feedback = text }
            }
            choices.append(Choice(id: index + 1, text: choice, isCorrect: isCorrect(answer), fraction: fractions?[index]))
        }
        if singleAnswerForm && correctCount > 1 {
            outcome.add(warning: problem(at: parts.open, question: parts.stem,
                "\(correctCount) answers are marked '=': in Moodle any one of them is right, in Quizbox the player must choose all of them"))
        }
        let body: QuestionBody = correctCount > 1 ? .multipleChoice(choices) : .singleChoice(choices)
        return Built(body: body, answerFeedback: feedback, itemOffsets: answers.map(\.marker))
    }

    /// Short answer: the answers worth 100% are accepted; partial credit is dropped with a
    /// warning, and answers worth nothing (kept in Moodle for their feedback) are dropped.
    /// Answers are plain text, as Moodle compares them.
    func readShortAnswer(_ parts: Parts, into outcome: inout Outcome) -> Built? {
        guard let answers = splitAnswers(parts.answers, tildes: false, unmarkedWeight: 100, parts, into: &outcome) else { return nil }
        var accepted: [String] = []
        var partial: [Alternative] = []
        var offsets: [Int] = []
        var feedback: String?
        for answer in answers {
            let (_, range) = GIFTText.format(in: text, answer.text, fallback: .plain)
            let value = string(range, format: .plain)
            if answer.weight >= 100 {
                if value.utf8.contains(UInt8(ascii: "*")) {
                    outcome.add(warning: problem(at: answer.marker, question: parts.stem,
                        "'*' in \"\(value)\" is a wildcard in Moodle but not in Quizbox: only what is around it is accepted"))
                }
                if feedback == nil, let range = answer.feedback {
                    let text = taggedString(range, format: parts.format)
                    if !text.isEmpty { feedback = text }
                }
                accepted.append(value)
                offsets.append(answer.marker)
            } else if answer.weight > 0, let fraction = Fraction(answer.weight / 100) {
                partial.append(Alternative(value, fraction: fraction))
            }
        }
        partial = Alternative.distinctPartial(partial, besides: accepted)
        guard !accepted.isEmpty else {
            outcome.add(problem: problem(at: parts.open, question: parts.stem,
                "no answer is worth 100% — mark each accepted answer with '=' and no weight"))
            return nil
        }
        return Built(body: .typedAnswer(accepted, partial: partial), answerFeedback: feedback, itemOffsets: offsets)
    }

    /// Ordering, as the `qtype_ordering` plugin (core Moodle since 4.4) writes it: `{>N options`
    /// on the first line (how many items Moodle shows, then layout, grading and numbering words,
    /// all ignored), then one item a line in the right order. Showing fewer than all the items
    /// is Moodle's alone: Quizbox asks for all of them, with a warning.
    func readOrdering(_ parts: Parts, into outcome: inout Outcome) -> Built? {
        let range = parts.answers
        let headerEnd = first(UInt8(ascii: "\n"), in: range) ?? range.upperBound
        let header = trimmed((range.lowerBound + 1)..<headerEnd)
        var shown = 0
        var i = header.lowerBound
        while i < header.upperBound, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[i]), shown < 1_000_000 {
            shown = shown * 10 + Int(text[i] - UInt8(ascii: "0"))
            i += 1
        }
        var items: [String] = []
        var offsets: [Int] = []
        var lineStart = headerEnd + 1
        while lineStart < range.upperBound {
            let lineEnd = first(UInt8(ascii: "\n"), in: lineStart..<range.upperBound) ?? range.upperBound
            let line = trimmed(lineStart..<lineEnd)
            if !line.isEmpty {
                items.append(taggedString(line, format: parts.format))
                offsets.append(line.lowerBound)
            }
            lineStart = lineEnd + 1
        }
        if shown > 0 && shown < items.count {
            outcome.add(warning: problem(at: parts.open, question: parts.stem,
                "Moodle shows \(shown) of the \(items.count) items; Quizbox asks for all of them in order"))
        }
        return Built(body: .ordering(Ordering(items: items)), answerFeedback: nil, itemOffsets: offsets)
    }

    /// Matching: `=prompt -> answer` for each pair, `= -> answer` for an extra answer that
    /// matches nothing. Moodle wants at least three; two pairs are read too (Quizbox's least).
    func readMatching(_ parts: Parts, into outcome: inout Outcome) -> Built? {
        guard let answers = splitAnswers(parts.answers, tildes: false, unmarkedWeight: 100, parts, into: &outcome) else { return nil }
        var pairs: [Matching.Pair] = []
        var extras: [String] = []
        var offsets: [Int] = []
        for answer in answers {
            guard let arrow = first(UInt8(ascii: "-"), UInt8(ascii: ">"), in: answer.text) else {
                outcome.add(problem: problem(at: answer.marker, question: parts.stem,
                    "\"\(string(answer.text, format: .plain))\" has no '->' — in a matching question write each pair as =prompt -> answer"))
                return nil
            }
            let prompt = taggedString(trimmed(answer.text.lowerBound..<arrow), format: parts.format)
            let matched = taggedString(trimmed((arrow + 2)..<answer.text.upperBound), format: parts.format)
            if prompt.isEmpty {
                extras.append(matched)
            } else {
                pairs.append(Matching.Pair(prompt: prompt, answer: matched))
                offsets.append(answer.marker)
            }
        }
        return Built(body: .matching(Matching(pairs: pairs, extras: extras)), answerFeedback: nil, itemOffsets: offsets)
    }

    /// `T`, `TRUE`, `F` or `FALSE` before any feedback, as Moodle spells them.
    func trueFalseValue(_ answers: Range<Int>) -> Bool? {
        let value = trimmed(answers.lowerBound..<(first(UInt8(ascii: "#"), in: answers) ?? answers.upperBound))
        if equals(value, "T") || equals(value, "TRUE") { return true }
        if equals(value, "F") || equals(value, "FALSE") { return false }
        return nil
    }

    /// True/false. As in Moodle, the first `#` feedback is shown for the wrong answer and the
    /// second for the right one, so the second is the one that can explain the answer.
    func readTrueFalse(_ value: Bool, _ parts: Parts) -> Built {
        var feedback: String?
        if let wrong = first(UInt8(ascii: "#"), in: parts.answers),
           let right = first(UInt8(ascii: "#"), in: (wrong + 1)..<parts.answers.upperBound) {
            feedback = taggedString((right + 1)..<parts.answers.upperBound, format: parts.format)
        }
        return Built(body: .trueFalse(value), answerFeedback: feedback, itemOffsets: [])
    }

    /// "50%", "33.33333%".
    static func percent(_ weight: Double) -> String {
        (weight == weight.rounded() ? String(Int(weight)) : String(weight)) + "%"
    }
}
