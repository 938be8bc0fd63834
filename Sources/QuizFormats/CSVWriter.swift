import QuizCore

/// Writes a bank's single-choice questions in the Quizbox CSV format, with the header
/// `question,option1,option2,option3,option4,answer,subject,topic,difficulty,explanation`, so that
/// `CSVReader` reads them back. Rows end in CRLF (RFC 4180); fields are quoted only when needed.
///
/// The format holds less than a bank: quiz titles, descriptions, points and question kinds other
/// than single choice with at most four options are lost. Questions that do not fit are returned
/// as skipped rather than silently dropped.
public struct CSVWriter: Sendable {
    public struct Output: Sendable, Hashable {
        /// The CSV text, header included.
        public var csv: String
        public var skipped: [Skipped]
    }

    public struct Skipped: Sendable, Hashable {
        public var subject: String
        public var topic: String
        public var question: String
        public var reason: String
    }

    public static let header = "question,option1,option2,option3,option4,answer,subject,topic,difficulty,explanation"

    public init() {}

    /// Questions in bank order: each topic's quizzes in order, then the topic's questions outside any quiz.
    public func write(_ bank: Bank) -> Output {
        var csv = CSVWriter.header + "\r\n"
        var skipped: [Skipped] = []
        for subject in bank.subjects {
            for topic in subject.topics {
                for question in topic.quizzes.flatMap(\.questions) + topic.questions {
                    if let reason = reasonToSkip(question) {
                        skipped.append(Skipped(subject: subject.name, topic: topic.name, question: question.text, reason: reason))
                        continue
                    }
                    let choices = question.body.choices
                    let options = choices.map(\.text) + Array(repeating: "", count: 4 - choices.count)
                    let answer = choices.first(where: \.isCorrect)?.text ?? ""
                    let row = [question.text] + options + [
                        answer, subject.name, topic.name, question.difficulty.rawValue, question.explanation ?? "",
                    ]
                    csv += row.map(CSVWriter.escape).joined(separator: ",")
                    csv += "\r\n"
                }
            }
        }
        return Output(csv: csv, skipped: skipped)
    }

    func reasonToSkip(_ question: Question) -> String? {
        guard case .singleChoice(let choices) = question.body else {
            return "a \(question.kind.rawValue) question; CSV holds single-choice questions only"
        }
        if choices.contains(where: { $0.fraction != nil }) { return "gives partial credit on a choice, which CSV cannot hold" }
        if choices.count > 4 { return "has \(choices.count) options; CSV holds at most 4" }
        if choices.count < 2 { return "has fewer than 2 options" }
        if choices.count(where: \.isCorrect) != 1 { return "does not have exactly one correct option" }
        return nil
    }

    /// Quotes a field holding a comma, quote or line break; quotes inside are doubled. (Spaces
    /// around a field are not preserved either way: the reader trims them.)
    static func escape(_ field: String) -> String {
        var needsQuotes = false
        for byte in field.utf8 {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                needsQuotes = true
            default:
                continue
            }
            break
        }
        guard needsQuotes else { return field }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
    }
}
