import Foundation
import QuizCore

/// Reads Moodle's Aiken format: single-choice questions written as plain text.
///
/// ```
/// What is the capital of France?
/// A. Lyon
/// B) Paris
/// ANSWER: B
/// ```
/// A question is its text (one line, or several up to the first option), two or more options
/// lettered A, B, C… in order (`A.` or `A)` then a space), and `ANSWER:` with the correct letter.
/// Questions are separated by blank lines (optional after an `ANSWER:` line). Blank lines between
/// the text and the options, or among the options, are allowed; but text, a blank line and more
/// text means the first question never got its options, which is reported. Leading and trailing
/// spaces are ignored on every line; a UTF-8 byte-order mark and CRLF or CR line ends are accepted.
/// `ANSWER` may be in any case and the letter may be lower case. Aiken has no escapes: a text
/// line that starts like an option ("A. Lincoln…") is read as one.
///
/// Aiken has no categories, difficulty or feedback: every question is medium difficulty and goes
/// into `defaults.subject` → `defaults.topic`, in one quiz titled `defaults.quizTitle`.
///
/// Every problem is reported (up to `ImportError.maxProblems`) with its line and column, and
/// nothing is returned unless the whole file is good.
public struct AikenReader: Sendable {
    public var defaults: ImportDefaults

    public init(defaults: ImportDefaults = .init()) {
        self.defaults = defaults
    }

    public func read(_ data: Data) throws(ImportError) -> ReadResult {
        guard data.count <= defaults.maxBytes else { throw .tooLarge(size: data.count, limit: defaults.maxBytes) }
        let lines = try AikenReader.lines(of: [UInt8](data))
        var parser = AikenParser(lineCount: lines.count)
        for (index, line) in lines.enumerated() {
            parser.consume(line, number: index + 1)
        }
        parser.finish()
        if parser.problems.isEmpty && parser.questions.isEmpty {
            throw ImportError(problems: [FormatProblem(message: "the file holds no questions")])
        }
        let skipped = try parser.problems.skippedProblems(skipInvalid: defaults.skipInvalid, keptAny: !parser.questions.isEmpty)
        var builder = BankBuilder()
        for question in parser.questions {
            builder.add(question, subject: defaults.subject, topic: defaults.topic)
        }
        return ReadResult(bank: builder.bank(quizTitle: defaults.quizTitle), skipping: skipped)
    }

    /// The file's lines as text, split at LF, CRLF or a lone CR, without a leading byte-order mark.
    /// Fails at the first line that is not UTF-8, pointing at the first bad byte.
    static func lines(of bytes: [UInt8]) throws(ImportError) -> [String] {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw ImportError(problems: [FormatProblem(line: 1, column: 1, message: "the file is UTF-16; save it as UTF-8")])
        }
        var lines: [String] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var index = start
        func endLine() throws(ImportError) {
            let slice = bytes[start..<index]
            guard let line = String(validating: slice, as: UTF8.self) else {
                let column = invalidUTF8Column(slice)
                let message = "the file is not valid UTF-8 (save it as UTF-8)"
                throw ImportError(problems: [FormatProblem(line: lines.count + 1, column: column, message: message)])
            }
            lines.append(line)
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            try endLine()
            index += byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
            start = index
        }
        if start < bytes.count { try endLine() }
        return lines
    }

    /// 1-based column (in characters of the valid prefix) of the first byte that is not UTF-8.
    private static func invalidUTF8Column(_ bytes: ArraySlice<UInt8>) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var column = 1
        while case .valid = parser.parseScalar(from: &iterator) { column += 1 }
        return column
    }
}
