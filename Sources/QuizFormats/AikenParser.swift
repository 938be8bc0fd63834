import Foundation
import QuizCore

/// The line-by-line state machine behind `AikenReader`: collects a question's text, then its
/// options, and closes it at its `ANSWER:` line. After a broken question it carries on with the
/// next one, so one pass reports every problem in the file.
struct AikenParser {
    private(set) var problems = ProblemList()
    private(set) var questions: [Question] = []
    private var pending: Pending?
    private let lineCount: Int

    init(lineCount: Int) {
        self.lineCount = lineCount
    }

    /// A question being read.
    private struct Pending {
        var line: Int
        var column: Int
        /// The text's lines joined by "\n", kept up to date so that reporting costs no joining.
        var text: String
        var options: [Option] = []
        /// The line of each letter's first option: a hostile file's thousands of repeated letters
        /// are then found in constant time each.
        var letterLines: [Character: Int] = [:]
        /// A blank line followed the text: more text means the question never got its options.
        var blankAfterStem = false
        /// A problem was already reported: the question is finished but not kept.
        var failed = false
    }

    private struct Option {
        var letter: Character
        var text: String
        var line: Int
        var letterColumn: Int
        var textColumn: Int
        /// Characters on the option's line, to point just past its end.
        var lineLength: Int
    }

    mutating func consume(_ raw: String, number: Int) {
        switch AikenLine(raw) {
        case .blank:
            if pending?.options.isEmpty == true { pending?.blankAfterStem = true }
        case .text(let text, let column):
            // Taken out of `pending` while changed, so that appending does not copy: a copy per
            // line would make a long question quadratic.
            if var question = pending.take() {
                if question.options.isEmpty && !question.blankAfterStem {
                    question.text += "\n" + text
                    pending = question
                    return
                }
                closeWithoutAnswer(question)
            }
            pending = Pending(line: number, column: column, text: text)
        case .option(let letter, let letterColumn, let text, let textColumn):
            let option = Option(
                letter: letter, text: text, line: number, letterColumn: letterColumn, textColumn: textColumn,
                lineLength: raw.unicodeScalars.count)
            guard var question = pending.take() else {
                report(number, letterColumn, "option \(letter) comes before any question text")
                pending = Pending(
                    line: number, column: letterColumn, text: "", options: [option], letterLines: [letter: number], failed: true)
                return
            }
            let expected = AikenLine.letters.dropFirst(question.options.count).first
            if letter != expected {
                if let earlier = question.letterLines[letter] {
                    let message = "option \(letter) repeats the option \(letter) on line \(earlier)"
                    report(number, letterColumn, message, question.text)
                } else if let expected {
                    report(number, letterColumn, "option \(letter) is out of order: expected \(expected)", question.text)
                }
                question.failed = true
            }
            question.options.append(option)
            if question.letterLines[letter] == nil { question.letterLines[letter] = number }
            pending = question
        case .answer(let letter, let column, let keywordColumn, let problem):
            guard let question = pending.take() else {
                report(number, keywordColumn, "\"ANSWER:\" line without a question before it")
                return
            }
            if let problem {
                report(number, column, problem, question.text)
                return
            }
            if let letter { close(question, answer: letter, line: number, column: column) }
        }
    }

    /// Call after the last line: a question still open never got its `ANSWER:` line.
    mutating func finish() {
        if let question = pending { closeWithoutAnswer(question) }
        pending = nil
    }

    /// A question ended by something other than its `ANSWER:` line: reported where that line
    /// belonged, right after the last option (or at the end of the file).
    private mutating func closeWithoutAnswer(_ question: Pending) {
        guard let last = question.options.last else {
            return report(question.line, question.column, AikenParser.noOptions, question.text)
        }
        if last.line < lineCount {
            report(last.line + 1, 1, "expected \"ANSWER: X\" after the options of the question above", question.text)
        } else {
            report(last.line, last.lineLength + 1, "the file ends before the question's \"ANSWER: X\" line", question.text)
        }
    }

    private static let noOptions = "question has no options: write them on the lines after it, as \"A. …\" or \"A) …\""

    private mutating func close(_ question: Pending, answer: Character, line: Int, column: Int) {
        let options = question.options
        var failed = question.failed
        if options.isEmpty {
            report(question.line, question.column, AikenParser.noOptions, question.text)
            failed = true
        } else if options.count < 2 {
            report(question.line, question.column, "question has only 1 option; it needs at least 2", question.text)
            failed = true
        }
        if !options.isEmpty && question.letterLines[answer] == nil {
            let first = options[0].letter, last = options[options.count - 1].letter
            let range = options.count == 1 ? "\(first)" : "\(first)–\(last)"
            report(line, column, "answer \(answer) is not one of the options (\(range))", question.text)
            failed = true
        }
        guard !failed else { return }
        let choices = options.enumerated().map { index, option in
            Choice(id: index + 1, text: option.text, isCorrect: option.letter == answer)
        }
        let result = Question(text: question.text, body: .singleChoice(choices))
        let errors = result.validationErrors()
        for error in errors {
            let (prefix, option) = describe(error.field, options)
            report(option?.line ?? question.line, option?.textColumn ?? question.column,
                   prefix + " " + AikenParser.inAikenTerms(error, options), question.text)
        }
        if errors.isEmpty { questions.append(result) }
    }

    /// What a validation error's field is called in the file, and the option it points at.
    private func describe(_ field: String, _ options: [Option]) -> (String, Option?) {
        if field == "text" { return ("question text", nil) }
        if field.hasPrefix("choices["), field.hasSuffix("].text"),
           let index = Int(field.dropFirst("choices[".count).dropLast("].text".count)), options.indices.contains(index) {
            return ("option \(options[index].letter)", options[index])
        }
        return (field == "choices" ? "question" : field, nil)
    }

    /// "repeats choices[0] (\".\")" → "repeats option A (\".\")"; "needs 2 to 10 choices" →
    /// "needs 2 to 10 options". Only the validator's own words are changed, never quoted text.
    private static func inAikenTerms(_ error: Question.ValidationError, _ options: [Option]) -> String {
        if error.field == "choices" {
            return error.message.replacingOccurrences(of: "choice", with: "option")
        }
        let prefix = "repeats choices["
        if error.message.hasPrefix(prefix), let close = error.message.firstIndex(of: "]"),
           let index = Int(error.message[error.message.index(error.message.startIndex, offsetBy: prefix.count)..<close]),
           options.indices.contains(index) {
            return "repeats option \(options[index].letter)" + error.message[error.message.index(after: close)...]
        }
        return error.message
    }

    private mutating func report(_ line: Int, _ column: Int, _ message: String, _ question: String? = nil) {
        let question = question.flatMap { $0.isEmpty ? nil : $0 }
        problems.append(FormatProblem(line: line, column: column, question: question, message: message))
    }
}
