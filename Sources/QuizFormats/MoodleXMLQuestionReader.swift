import QuizCore

/// Reads one `<question>` of a kind Quizbox has (multichoice, truefalse, shortanswer, numerical,
/// matching, ordering, cloze, description) into a `Question`, collecting errors (which fail the import) and warnings (what was left out).
/// Problems about one answer carry that answer's line; the rest, the question's.
struct MoodleXMLQuestionReader {
    /// One `<answer>` as read: plain text, its fraction snapped to Moodle's grade, its feedback.
    struct Answer {
        /// 1-based position among the question's answers, for messages.
        var number: Int
        var line: Int
        var text: String
        /// The answer has neither text nor image (Moodle's editor may leave "<p></p>"): Moodle
        /// ignores such answers, and so does Quizbox.
        var isBlank: Bool
        var fraction: Double
        var feedback: String
        var element: MoodleXMLElement
    }

    let element: MoodleXMLElement
    let type: String
    let name: String
    private(set) var problems: [FormatProblem] = []
    var warnings: [FormatProblem] = []
    /// An HTML text had an image.
    private var sawImages = false
    /// The question's plain text, once read: it names the question in messages when it has no name.
    private var questionText: String?
    /// For each choice or accepted answer of the body, the number of the answer it came from.
    var answerNumbers: [Int] = []

    init(element: MoodleXMLElement, type: String) {
        self.element = element
        self.type = type
        name = MoodleXMLText.trimmed(element.childText("name") ?? "")
    }

    /// The question, or nil when it has errors.
    mutating func read() -> Question? {
        let holder = element.child("questiontext")
        let converted = MoodleXMLText.convert(rawText(of: holder), format: holder?.attributes["format"])
        var text = converted.text
        questionText = text
        let found = MoodleXMLPicture.read(holder)
        let sound = MoodleXMLSound.read(holder)
        let picked = found.picture == nil ? 0 : 1
        // The question text's images other than its picture are left out.
        if converted.hasImages && found.tagCount > picked { sawImages = true }
        if text.isEmpty && (converted.hasImages || (holder?.fileCount ?? 0) > 0) {
            fail("the question text is only an image, which Quizbox cannot import")
        }
        let points = readPoints()
        let parsed: (body: QuestionBody, correct: [Answer])?
        switch type {
        case "matching": parsed = matching()
        case "ordering": parsed = ordering()
        case "description": parsed = (.slide, [])
        case "cloze":
            let cloze = self.cloze(text)
            parsed = cloze.map { ($0.body, []) }
            if let cloze { text = cloze.text }
        default:
            let answers = element.children("answer").enumerated().map { readAnswer($0.element, number: $0.offset + 1) }
            switch type {
            case "multichoice": parsed = multichoice(answers)
            case "truefalse": parsed = trueFalse(answers)
            case "shortanswer": parsed = shortAnswer(answers)
            default: parsed = numerical(answers)
            }
        }

        var explanation = plainText(of: element.child("generalfeedback"))
        for refusal in found.refusals + sound.refusals { warn("\(refusal): it was not imported") }
        let files = element.fileCount - picked - (sound.audio == nil ? 0 : 1)
        if sawImages || files > 0 {
            let detail = files == 0 ? "" : files == 1 ? " (1 embedded file)" : " (\(files) embedded files)"
            warn(picked == 0 ? "images were not imported\(detail)" : "images other than the question's picture were not imported\(detail)")
        }
        guard let parsed, problems.isEmpty else { return nil }

        if explanation.isEmpty {
            explanation = parsed.correct.lazy.map(\.feedback).first { !$0.isEmpty } ?? ""
        }
        let question = Question(
            text: text, explanation: explanation.isEmpty ? nil : explanation,
            points: points ?? Question.defaultPoints, body: parsed.body, picture: found.picture, audio: sound.audio)
        for error in question.validationErrors() {
            fail("\(describe(error.field)) \(error.message)")
        }
        return problems.isEmpty ? question : nil
    }

    // MARK: - Common parts

    /// The plain text of an element holding `<text>` (questiontext, answer, feedback), by its format.
    mutating func plainText(of holder: MoodleXMLElement?) -> String {
        guard let holder else { return "" }
        let converted = MoodleXMLText.convert(rawText(of: holder), format: holder.attributes["format"])
        if converted.hasImages { sawImages = true }
        return converted.text
    }

    /// The text as written: `<text>`'s content, or for old files without one, the element's own.
    func rawText(of holder: MoodleXMLElement?) -> String {
        guard let holder else { return "" }
        return holder.child("text")?.text ?? holder.text
    }

    /// `<defaultgrade>`, rounded and kept within 1...100; nil when absent or wrong.
    private mutating func readPoints() -> Int? {
        guard let grade = element.child("defaultgrade") else { return nil }
        let written = MoodleXMLText.trimmed(grade.text)
        guard !written.isEmpty else { return nil }
        guard let value = Double(written), value.isFinite else {
            fail("defaultgrade \"\(written)\" is not a number", line: grade.line)
            return nil
        }
        return Int(min(100, max(1, value.rounded())))
    }

    private mutating func readAnswer(_ answer: MoodleXMLElement, number: Int) -> Answer {
        let converted = MoodleXMLText.convert(rawText(of: answer), format: answer.attributes["format"])
        let hasImages = converted.hasImages || answer.fileCount > 0
        if hasImages { sawImages = true }
        let feedback = plainText(of: answer.child("feedback"))
        var fraction = 0.0
        let written = MoodleXMLText.trimmed(answer.attributes["fraction"] ?? "0")
        if let value = Double(written), let grade = MoodleXMLGrade.snapped(value) {
            fraction = grade
        } else if Double(written)?.isFinite == true {
            fail("answer \(number) has fraction \(written), which is not a Moodle grade "
                 + "(\(MoodleXMLGrade.list), or a negative one)", line: answer.line)
        } else {
            fail("answer \(number) has fraction \"\(written)\", which is not a number", line: answer.line)
        }
        return Answer(
            number: number, line: answer.line, text: converted.text, isBlank: converted.text.isEmpty && !hasImages,
            fraction: fraction, feedback: feedback, element: answer)
    }

    // MARK: - Reporting

    /// The question's name, or its text when it has none.
    private var label: String? {
        [name, questionText ?? ""].first { !$0.isEmpty }
    }

    mutating func fail(_ message: String, line: Int? = nil) {
        problems.append(FormatProblem(line: line ?? element.line, question: label, message: message))
    }

    mutating func warn(_ message: String, line: Int? = nil) {
        warnings.append(FormatProblem(line: line ?? element.line, question: label, message: message))
    }

    /// A validation error's field in Moodle's words: "choices[2].text" is "answer 3" when the
    /// third choice came from the third `<answer>`.
    private func describe(_ field: String) -> String {
        switch field {
        case "text": return "question text"
        case "explanation": return "feedback"
        case "choices", "answers": return "answers"
        case "points": return "defaultgrade"
        case "value": return "the correct answer"
        case "pairs": return "subquestions"
        case "items": return "answers"
        default:
            for prefix in ["choices[", "answers["] where field.hasPrefix(prefix) {
                let digits = field.dropFirst(prefix.count).prefix { $0.isNumber }
                if let index = Int(digits), answerNumbers.indices.contains(index) {
                    return "answer \(answerNumbers[index])"
                }
            }
            return field
        }
    }
}
