import QuizCore

extension GIFTBlock {
    /// What a block gave: a question, or the problems that stop it, and warnings either way.
    /// A question reports at most `maxReports` problems and as many warnings, then only counts
    /// them: locating each costs a scan of its line, which a hostile line could make quadratic.
    struct Outcome {
        static let maxReports = 10
        var question: Question?
        private(set) var problems: [FormatProblem] = []
        private(set) var warnings: [FormatProblem] = []
        private(set) var omittedProblems = 0
        private(set) var omittedWarnings = 0

        mutating func add(problem: @autoclosure () -> FormatProblem) {
            if problems.count < Outcome.maxReports { problems.append(problem()) } else { omittedProblems += 1 }
        }

        mutating func add(warning: @autoclosure () -> FormatProblem) {
            if warnings.count < Outcome.maxReports { warnings.append(warning()) } else { omittedWarnings += 1 }
        }

        /// One closing line for what was only counted.
        mutating func summarize(at location: (line: Int, column: Int), question: String?) {
            if omittedProblems > 0 {
                problems.append(FormatProblem(line: location.line, column: location.column, question: question,
                                              message: "…and \(omittedProblems) more problems in this question"))
            }
            if omittedWarnings > 0 {
                warnings.append(FormatProblem(line: location.line, column: location.column, question: question,
                                              message: "…and \(omittedWarnings) more warnings in this question"))
            }
        }
    }

    /// Where the parts of a question are, once its braces are found.
    struct Parts {
        /// Where the question's text starts, after any title.
        var start: Int
        var format: GIFTFormat
        var stem: String
        var open: Int
        /// Between the braces, trimmed, without the general feedback.
        var answers: Range<Int>
        var generalFeedback: Range<Int>?
    }

    /// A question's body as an answer reader built it, with where its items are for messages.
    struct Built {
        var body: QuestionBody
        /// The correct answer's feedback, used when there is no general feedback.
        var answerFeedback: String?
        /// Where each choice or accepted answer (or the numeric answer) starts.
        var itemOffsets: [Int]
    }

    func readQuestion() -> Outcome {
        var outcome = parseQuestion()
        if outcome.omittedProblems > 0 || outcome.omittedWarnings > 0 {
            outcome.summarize(at: location(of: 0), question: (outcome.problems.first ?? outcome.warnings.first)?.question)
        }
        return outcome
    }

    private func parseQuestion() -> Outcome {
        var outcome = Outcome()
        let end = text.count
        var start = 0
        if end >= 2 && text[0] == UInt8(ascii: ":") && text[1] == UInt8(ascii: ":") {
            guard let close = first(UInt8(ascii: ":"), UInt8(ascii: ":"), in: 2..<end) else {
                outcome.add(problem: problem(at: 0, question: string(2..<end, format: .plain),
                    "the title opened by '::' is never closed — end it with '::' (write \\: for a colon inside it)"))
                return outcome
            }
            start = trimmed((close + 2)..<end).lowerBound
        }
        let (format, body) = GIFTText.format(in: text, start..<end, fallback: .moodle)
        let stemStart = body.lowerBound
        func fail(_ offset: Int, _ message: String, stemEnd: Int) -> Outcome {
            outcome.add(problem: problem(at: offset, question: string(stemStart..<stemEnd, format: format), message))
            return outcome
        }
        let strayClose = "'}' closes no answer block — write \\} for a literal brace"

        guard let open = first(UInt8(ascii: "{"), in: body) else {
            if let stray = first(UInt8(ascii: "}"), in: body) { return fail(stray, strayClose, stemEnd: end) }
            // A description (Moodle's word): text to read, a slide.
            let stem = string(body, format: format)
            let parts = Parts(start: stemStart, format: format, stem: stem, open: stemStart, answers: end..<end, generalFeedback: nil)
            finish(Built(body: .slide, answerFeedback: nil, itemOffsets: []), parts, into: &outcome)
            return outcome
        }
        if let stray = first(UInt8(ascii: "}"), in: stemStart..<open) { return fail(stray, strayClose, stemEnd: open) }
        guard let close = first(UInt8(ascii: "}"), in: (open + 1)..<end) else {
            return fail(open, "unclosed '{' — every answer block needs a '}'", stemEnd: open)
        }
        if let inner = first(UInt8(ascii: "{"), in: (open + 1)..<close) {
            return fail(inner, "'{' inside an answer block — end the block with '}' first, or write \\{ for a literal brace", stemEnd: open)
        }
        let rest = trimmed((close + 1)..<end)
        if let second = first(UInt8(ascii: "{"), in: rest) {
            return fail(second, "a second answer block — a question has one; separate questions with a blank line", stemEnd: open)
        }
        if let stray = first(UInt8(ascii: "}"), in: rest) { return fail(stray, strayClose, stemEnd: open) }

        // Text after the block makes a "missing word" question: the block becomes a blank.
        let stem = rest.isEmpty ? string(stemStart..<open, format: format) : missingWordStem(stemStart..<open, after: close, format: format)
        var answers = trimmed((open + 1)..<close)
        var generalFeedback: Range<Int>?
        if let mark = lastGeneralFeedbackMark(in: answers) {
            generalFeedback = trimmed((mark + 4)..<answers.upperBound)
            answers = trimmed(answers.lowerBound..<mark)
        }
        let parts = Parts(start: stemStart, format: format, stem: stem, open: open, answers: answers, generalFeedback: generalFeedback)

        let built: Built?
        if answers.isEmpty {
            outcome.add(warning: problem(at: 0, question: stem, "essay questions are not supported by Quizbox"))
            return outcome
        } else if text[answers.lowerBound] == UInt8(ascii: ">") {
            built = readOrdering(parts, into: &outcome)
        } else if text[answers.lowerBound] == UInt8(ascii: "#") {
            built = readNumeric(parts, into: &outcome)
        } else if contains(UInt8(ascii: "~"), in: answers) {
            built = readChoices(parts, into: &outcome)
        } else if contains(UInt8(ascii: "="), in: answers) && first(UInt8(ascii: "-"), UInt8(ascii: ">"), in: answers) != nil {
            built = readMatching(parts, into: &outcome)
        } else if let value = trueFalseValue(answers) {
            built = readTrueFalse(value, parts)
        } else {
            built = readShortAnswer(parts, into: &outcome)
        }
        guard let built, outcome.problems.isEmpty else { return outcome }
        finish(built, parts, into: &outcome)
        return outcome
    }

    /// Moodle's missing-word stem: the text before the block, "_____", the text after it.
    private func missingWordStem(_ before: Range<Int>, after close: Int, format: GIFTFormat) -> String {
        let bytes = Array(text[before]) + Array("_____".utf8) + Array(text[(close + 1)..<text.count])
        return bytes.withUnsafeBufferPointer { GIFTText.decode($0, 0..<$0.count, format: format) }
    }

    private func finish(_ built: Built, _ parts: Parts, into outcome: inout Outcome) {
        var explanation = parts.generalFeedback.map { taggedString($0, format: parts.format) }
        if explanation?.isEmpty != false { explanation = built.answerFeedback }
        if explanation?.isEmpty == true { explanation = nil }
        let question = Question(text: parts.stem, explanation: explanation, body: built.body)
        let errors = question.validationErrors()
        guard !errors.isEmpty else {
            outcome.question = question
            return
        }
        for error in errors {
            let (offset, name) = place(of: error.field, built, parts)
            let message = GIFTBlock.renamingIndices(in: error.message)
            outcome.add(problem: problem(at: offset, question: parts.stem, "\(name) \(message)"))
        }
    }

    /// Where a validation error's field is in the file, and what an author calls it.
    private func place(of field: String, _ built: Built, _ parts: Parts) -> (Int, String) {
        switch field {
        case "text": return (parts.start, "the question text")
        case "explanation": return (parts.generalFeedback?.lowerBound ?? parts.open, "the feedback")
        case "choices", "answers": return (parts.open, "the answer block")
        case "value": return (built.itemOffsets.first ?? parts.open, "the number")
        case "tolerance": return (built.itemOffsets.first ?? parts.open, "the tolerance")
        default:
            if let index = GIFTBlock.index(in: field), built.itemOffsets.indices.contains(index) {
                return (built.itemOffsets[index], "answer \(index + 1)")
            }
            return (parts.start, field)
        }
    }

    /// 0 for "choices[0].text" or "answers[0]".
    static func index(in field: String) -> Int? {
        guard let open = field.firstIndex(of: "["), let close = field.firstIndex(of: "]"), open < close else { return nil }
        return Int(field[field.index(after: open)..<close])
    }

    /// "repeats choices[0] (…)" → "repeats answer 1 (…)": authors number answers from 1.
    static func renamingIndices(in message: String) -> String {
        for prefix in ["choices[", "answers["] {
            guard let open = message.firstRange(of: prefix), let close = message[open.upperBound...].firstIndex(of: "]"),
                  let index = Int(message[open.upperBound..<close]) else { continue }
            var renamed = message
            renamed.replaceSubrange(open.lowerBound...close, with: "answer \(index + 1)")
            return renamed
        }
        return message
    }
}
