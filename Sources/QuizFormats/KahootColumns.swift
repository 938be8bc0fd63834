import Foundation
import QuizCore

/// Where Kahoot's quiz template keeps each part of a question, found from its header row by text:
/// "Question - max 120 characters", "Answer 1 - max 75 characters" … "Answer 4 - …",
/// "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs", "Correct answer(s) - choose at
/// least one". Generators vary the dashes, spacing and trailing notes, and may leave out the
/// leading number column, so only the start of each header counts. Columns are 0-based.
struct KahootColumns {
    let question: Int
    /// Answer 1, 2, … in order (Kahoot has four; a sheet with "Answer 5" and "Answer 6" is read too).
    let answers: [Int]
    let time: Int?
    let correct: Int

    /// The most answers a Kahoot question has; a choice question in Quizbox holds up to ten.
    static let maxAnswers = 6

    init?(header row: XLSXWorkbook.Row) {
        var question: Int?, time: Int?, correct: Int?
        var answers: [Int: Int] = [:]
        for (column, text) in row.cells.enumerated() where !text.isEmpty {
            let title = KahootColumns.normalized(text)
            if title.hasPrefix("question"), question == nil {
                question = column
            } else if title.hasPrefix("answer") {
                let rest = title.dropFirst("answer".count).drop { $0 == " " }
                if let digit = rest.first?.wholeNumberValue, (1...Self.maxAnswers).contains(digit),
                   rest.dropFirst().first.map({ !$0.isNumber }) ?? true, answers[digit] == nil {
                    answers[digit] = column
                }
            } else if title.hasPrefix("time limit") || title == "time" || title.hasPrefix("time (") {
                time = time ?? column
            } else if title.hasPrefix("correct answer") || title == "correct" {
                correct = correct ?? column
            }
        }
        guard let question, let correct, let first = answers[1], let second = answers[2] else { return nil }
        var ordered = [first, second]
        for number in 3...Self.maxAnswers {
            guard let column = answers[number] else { break }
            ordered.append(column)
        }
        self.question = question
        self.answers = ordered
        self.time = time
        self.correct = correct
    }

    /// Lowercased, with typographic dashes and spaces made plain.
    static func normalized(_ text: String) -> String {
        var result = ""
        for character in text.lowercased() {
            switch character {
            case "–", "—", "‐", "−": result.append("-")
            case "\u{00A0}", "\t": result.append(" ")
            default: result.append(character)
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// The row's question, or nil with its problems added (nothing for a row without a question,
    /// answers or correct answer: the template's numbered empty rows).
    func question(in row: XLSXWorkbook.Row, problems: inout ProblemList) -> Question? {
        let text = row.cell(question)
        let correctText = row.cell(correct)
        guard !text.isEmpty || !correctText.isEmpty || answers.contains(where: { !row.cell($0).isEmpty }) else { return nil }
        var failed = false
        func report(_ column: Int, _ message: String) {
            problems.append(FormatProblem(cell: SheetCell(row: row.number, column: column + 1), question: text.isEmpty ? nil : text,
                                          message: message))
            failed = true
        }

        if text.isEmpty { report(question, "the question is empty") }
        var given: [(number: Int, text: String, key: String)] = []
        for (index, column) in answers.enumerated() {
            let answer = row.cell(column)
            guard !answer.isEmpty else { continue }
            let key = Question.choiceKey(answer)
            if let earlier = given.first(where: { $0.key == key }) {
                report(column, "answer \(index + 1) \"\(answer)\" repeats answer \(earlier.number)")
            }
            given.append((index + 1, answer, key))
        }
        if given.count < 2 {
            let missing = answers.first { row.cell($0).isEmpty } ?? answers[1]
            report(missing, given.isEmpty ? "the question has no answers: it needs at least two"
                                          : "the question has only one answer: it needs at least two")
        }

        var chosen: Set<Int> = []
        if correctText.isEmpty {
            report(correct, "no correct answer: give the number of the correct answer (1–\(answers.count)), several separated by commas")
        } else {
            for token in correctText.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " }) {
                guard let number = Int(token), (1...answers.count).contains(number) else {
                    report(correct, "correct answer \"\(token)\" is not the number of an answer (1–\(answers.count))")
                    continue
                }
                guard given.contains(where: { $0.number == number }) else {
                    report(correct, "correct answer \(number) names an empty answer")
                    continue
                }
                chosen.insert(number)
            }
        }
        var seconds: Int?
        if let time, case let given = row.cell(time), !given.isEmpty {
            if let whole = Self.seconds(given), Question.timeLimitRange.contains(whole) {
                seconds = whole
            } else {
                report(time, "time limit \"\(given)\" is not a number of seconds from 5 to 240")
            }
        }
        if failed { return nil }

        let choices = given.enumerated().map { index, answer in
            Choice(id: index + 1, text: answer.text, isCorrect: chosen.contains(answer.number))
        }
        let body: QuestionBody
        if let truth = Self.trueFalse(choices) {
            body = .trueFalse(truth)
        } else if chosen.count > 1 {
            body = .multipleChoice(choices)
        } else {
            body = .singleChoice(choices)
        }
        let found = Question(text: text, body: body, timeLimitSeconds: seconds)
        for error in found.validationErrors() {
            var column = question
            if error.field.hasPrefix("choices["), let close = error.field.firstIndex(of: "]"),
               let index = Int(error.field.dropFirst("choices[".count).prefix(upTo: close)), given.indices.contains(index) {
                column = answers[given[index].number - 1]
            } else if error.field == "choices" {
                column = correct
            }
            let name = error.field == "text" ? "the question text"
                : column == correct ? "the correct answers" : "answer \(answers.firstIndex(of: column).map { $0 + 1 } ?? 0)"
            report(column, "\(name) \(error.message)")
        }
        return failed ? nil : found
    }

    /// "20", "20.0" (a number cell), "20 s", "20 sec", "20 secs".
    static func seconds(_ text: String) -> Int? {
        var digits = Substring(text.lowercased())
        for suffix in ["seconds", "second", "secs", "sec", "s"] where digits.hasSuffix(suffix) {
            digits = digits.dropLast(suffix.count)
            break
        }
        let trimmed = digits.trimmingCharacters(in: .whitespaces)
        if let whole = Int(trimmed) { return whole }
        guard trimmed.count <= 12, let number = Double(trimmed), number.rounded() == number, abs(number) < 1e6 else { return nil }
        return Int(number)
    }

    /// Two answers that read as true and false, one of them correct: a true/false question, true
    /// when the correct one is "true".
    static func trueFalse(_ choices: [Choice]) -> Bool? {
        guard choices.count == 2, choices.count(where: \.isCorrect) == 1 else { return nil }
        let truths = choices.map { truthValue($0.text) }
        guard let first = truths[0], let second = truths[1], first != second else { return nil }
        return choices[0].isCorrect ? first : second
    }

    static func truthValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "tosi", "oikein": true
        case "false", "epätosi", "väärin": false
        default: nil
        }
    }
}
