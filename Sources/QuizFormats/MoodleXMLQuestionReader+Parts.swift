import QuizCore

/// The kinds with parts: matching, ordering (the `qtype_ordering` plugin) and cloze.
extension MoodleXMLQuestionReader {
    /// `<subquestion>`s, each a prompt with its `<answer>`; one with no prompt but an answer is an
    /// extra answer that matches nothing (Moodle's own way of writing them).
    mutating func matching() -> (body: QuestionBody, correct: [Answer])? {
        var pairs: [Matching.Pair] = []
        var extras: [String] = []
        for subquestion in element.children("subquestion") {
            let prompt = plainText(of: subquestion)
            let answer = MoodleXMLText.trimmed(subquestion.child("answer").map { $0.child("text")?.text ?? $0.text } ?? "")
            if prompt.isEmpty {
                if !answer.isEmpty { extras.append(answer) }
            } else {
                pairs.append(Matching.Pair(prompt: prompt, answer: answer))
            }
        }
        return (.matching(Matching(pairs: pairs, extras: extras)), [])
    }

    /// The plugin stores each item's place in its answer's `fraction` (1, 2, 3…): items are read
    /// in that order, and in file order where the fractions say nothing.
    mutating func ordering() -> (body: QuestionBody, correct: [Answer])? {
        let answers = element.children("answer").enumerated().map { offset, answer in
            (place: Double(MoodleXMLText.trimmed(answer.attributes["fraction"] ?? "")) ?? Double(offset + 1),
             offset: offset, text: plainText(of: answer))
        }
        let items = answers.sorted { ($0.place, $0.offset) < ($1.place, $1.offset) }.map(\.text).filter { !$0.isEmpty }
        return (.ordering(Ordering(items: items)), [])
    }

    /// The question text holds the gaps. When its first line has no gap and more follows, that
    /// line is the question's text and the rest the gap fill's; otherwise the question's text is
    /// its name (Moodle requires one).
    mutating func cloze(_ passage: String) -> (body: QuestionBody, text: String)? {
        var heading = name
        var body = passage
        if let newline = passage.firstIndex(where: \.isNewline) {
            let first = MoodleXMLText.trimmed(String(passage[..<newline]))
            let rest = MoodleXMLText.trimmed(String(passage[newline...]))
            if !first.isEmpty, !rest.isEmpty, !first.contains("{") {
                heading = first
                body = rest
            }
        }
        do {
            let parsed = try MoodleCloze.parse(body)
            for warning in parsed.warnings { warn(warning) }
            return (.gapFill(parsed.gapFill), heading.isEmpty ? "Fill in the gaps" : heading)
        } catch {
            for message in error.messages { fail(message) }
            return nil
        }
    }
}
