import Foundation
import QuizCore

/// Reads Moodle's GIFT format as Moodle does, into questions Quizbox can play.
///
/// Questions are separated by blank lines; lines starting with `//` are comments (including
/// Moodle's `// [id:…] [tag:…]`). A question is `::title::` (dropped: Quizbox questions have no
/// title), an optional `[html]`/`[moodle]`/`[plain]`/`[markdown]` tag, its text and one answer
/// block in braces:
///
/// | GIFT | Quizbox |
/// |---|---|
/// | `{=right ~wrong ~wrong}` | single choice |
/// | `{~%50%a ~%50%b ~%-100%c}` (no `=`, several positive weights) | multiple choice, all-or-nothing: the answers with a positive weight are the correct ones |
/// | `{T}` `{TRUE}` `{F}` `{FALSE}` | true/false |
/// | `{=answer =other}` | typed answer (only 100% answers are accepted) |
/// | `{#v}` `{#v:tolerance}` `{#min..max}` `{#=v:t =%50%w:t}` | numeric (the first 100% answer) |
/// | text continuing after `}` | the stem with `_____` in place of the block |
/// | matching (`->`), essay (`{}`), description (no braces) | not imported: a warning |
///
/// `$CATEGORY: a/b/c` (after an optional `$course$/`, `$system$/`, `$module$/` and Moodle's
/// `top/`) puts the questions that follow in subject "a", topic "c"; a single name is both.
/// Questions before any category go to `ImportDefaults.subject`/`topic`, and each topic's
/// questions form one quiz titled `ImportDefaults.quizTitle`. General feedback (`####…`) becomes
/// the explanation, or else the correct answer's `#` feedback. Text in the HTML formats
/// (`[moodle]` is the default) is turned into plain text (`GIFTHTML`). Escapes `\~ \= \# \{ \}
/// \: \\` and `\n` (a line break) work everywhere. A UTF-8 byte-order mark and CRLF are fine.
///
/// Every problem is reported with its line and column and the question's text, and each
/// question is checked with `Question.validationErrors()`. `read` throws when anything is wrong
/// (nothing is half-read); what it had to leave out comes back as `ReadResult.warnings`.
public struct GIFTReader: Sendable {
    public var defaults: ImportDefaults

    public init(defaults: ImportDefaults = .init()) {
        self.defaults = defaults
    }

    public func read(_ data: Data) throws(ImportError) -> ReadResult {
        try data.withUnsafeBytes { read(buffer: $0.bindMemory(to: UInt8.self)) }.get()
    }

    public func read(_ bytes: [UInt8]) throws(ImportError) -> ReadResult {
        try bytes.withUnsafeBufferPointer(read(buffer:)).get()
    }

    private func read(buffer input: UnsafeBufferPointer<UInt8>) -> Result<ReadResult, ImportError> {
        guard input.count <= defaults.maxBytes else {
            return .failure(.tooLarge(size: input.count, limit: defaults.maxBytes))
        }
        if let bad = GIFTUTF8.firstInvalidByte(in: input) {
            return .failure(ImportError(problems: [GIFTReader.notUTF8(input, at: bad)]))
        }
        var document = GIFTDocument(input: input, defaults: defaults)
        document.read()
        // As for every other format: a file without a single question is an error, not a warning.
        if document.questionsSeen == 0 {
            return .failure(ImportError(problems: [FormatProblem(message: "the file holds no questions")]))
        }
        let skipped: ProblemList
        do {
            skipped = try document.problems.skippedProblems(skipInvalid: defaults.skipInvalid, keptAny: !document.builder.isEmpty)
        } catch {
            return .failure(error)
        }
        var warnings = document.warnings
        if document.builder.isEmpty {
            warnings.append(FormatProblem(message: "the file holds no questions Quizbox can import"))
        }
        return .success(ReadResult(bank: document.builder.bank(quizTitle: defaults.quizTitle), warnings: warnings, skipping: skipped))
    }

    private static func notUTF8(_ input: UnsafeBufferPointer<UInt8>, at offset: Int) -> FormatProblem {
        var line = 1
        var lineStart = GIFTDocument.byteOrderMarkLength(input)
        for i in lineStart..<offset where input[i] == 0x0A || (input[i] == 0x0D && input[i + 1] != 0x0A) {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<offset where input[i] & 0xC0 != 0x80 { column += 1 }
        let byte = String(input[offset], radix: 16, uppercase: true)
        return FormatProblem(line: line, column: column,
            message: "the file is not UTF-8 (byte 0x\(byte)) — save it as UTF-8 and import it again")
    }
}
