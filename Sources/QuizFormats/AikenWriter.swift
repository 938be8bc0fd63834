import Foundation
import QuizCore

/// Writes a bank's single-choice questions in Moodle's Aiken format, so that `AikenReader` (and
/// Moodle) read them back: the question text, options `A. …`, `B. …`, then `ANSWER: X`, with a
/// blank line between questions and LF line ends.
///
/// Aiken holds less than a bank: subjects, topics, quiz titles, difficulty, explanations and
/// points are lost, and spaces at the ends of lines are not kept. Aiken has no escapes, so what it
/// cannot say is reported as skipped (with the question's path in the bank) rather than written
/// wrongly: other kinds of question, more than 26 options, empty text or options, and text lines
/// that a reader would take for an option or an `ANSWER:` line. Blank lines inside a question's
/// text are dropped (a blank line ends a question's text in Aiken), and an option's line breaks
/// become spaces.
public struct AikenWriter: Sendable {
    public init() {}

    /// Questions in bank order: each topic's quizzes in order, then the topic's questions outside any quiz.
    public func write(_ bank: Bank) -> (text: String, skipped: [FormatProblem]) {
        var text = ""
        var skipped: [FormatProblem] = []
        for (s, subject) in bank.subjects.enumerated() {
            for (t, topic) in subject.topics.enumerated() {
                let topicPath = "subjects[\(s)].topics[\(t)]"
                var located: [(path: String, question: Question)] = []
                for (q, quiz) in topic.quizzes.enumerated() {
                    located += quiz.questions.enumerated().map {
                        ("\(topicPath).quizzes[\(q)].questions[\($0.offset)]", $0.element)
                    }
                }
                located += topic.questions.enumerated().map { ("\(topicPath).questions[\($0.offset)]", $0.element) }
                for (path, question) in located {
                    switch block(for: question) {
                    case .success(let block):
                        if !text.isEmpty { text += "\n" }
                        text += block
                    case .failure(let reason):
                        skipped.append(FormatProblem(path: path, question: question.text, message: reason.message))
                    }
                }
            }
        }
        return (text, skipped)
    }

    private struct Reason: Error {
        var message: String
    }

    private func block(for question: Question) -> Result<String, Reason> {
        guard case .singleChoice(let choices) = question.body else {
            return .failure(Reason(message: "a \(question.kind.rawValue) question; Aiken holds single-choice questions only"))
        }
        if choices.contains(where: { $0.fraction != nil }) { return .failure(Reason(message: "gives partial credit on a choice, which Aiken cannot hold")) }
        guard choices.count >= 2 else { return .failure(Reason(message: "has fewer than 2 options")) }
        guard choices.count <= AikenLine.letters.count else {
            return .failure(Reason(message: "has \(choices.count) options; Aiken letters them A–Z, so at most 26"))
        }
        guard let correct = choices.firstIndex(where: \.isCorrect), choices.count(where: \.isCorrect) == 1 else {
            return .failure(Reason(message: "does not have exactly one correct option"))
        }

        let stem = question.text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
        guard !stem.isEmpty else { return .failure(Reason(message: "has no text")) }
        for line in stem {
            switch AikenLine(line) {
            case .text: continue
            case .option: return .failure(Reason(message: "a line of its text, \"\(line)\", would be read as an option"))
            case .answer, .blank:
                return .failure(Reason(message: "a line of its text, \"\(line)\", would be read as an \"ANSWER:\" line"))
            }
        }
        var block = stem.joined(separator: "\n") + "\n"
        for (index, choice) in choices.enumerated() {
            let flat = choice.text.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
            let letter = AikenLine.letters[index]
            guard !flat.isEmpty else { return .failure(Reason(message: "option \(letter) is empty")) }
            block += "\(letter). \(flat)\n"
        }
        block += "ANSWER: \(AikenLine.letters[correct])\n"
        return .success(block)
    }
}
