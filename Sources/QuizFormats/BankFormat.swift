import Foundation
import QuizCore

/// Every question-bank format Quizbox reads, which of them it writes, and how a file's format
/// is recognised from its name and first bytes.
public enum BankFormat: String, CaseIterable, Sendable {
    case csv, gift, moodleXML = "moodle-xml", aiken, openTriviaDB = "opentdb", remote, bundle
    /// An Excel workbook (.xlsx): read in Kahoot's template or Quizbox's columns, written in Quizbox's.
    case xlsx
    /// Kahoot's quiz template, an .xlsx: read as `xlsx` is, written in Kahoot's columns.
    case kahoot

    public var canWrite: Bool { self != .openTriviaDB && self != .remote }

    public var fileExtension: String {
        switch self {
        case .csv: "csv"
        case .gift: "gift"
        case .moodleXML: "xml"
        case .aiken: "txt"
        case .openTriviaDB, .remote, .bundle: "json"
        case .xlsx, .kahoot: "xlsx"
        }
    }

    /// A workbook is a ZIP archive, not text.
    public var isSpreadsheet: Bool { self == .xlsx || self == .kahoot }

    /// By extension first, then by content for the ambiguous ones (.json, .txt, no extension).
    public static func detect(fileName: String, data: Data) -> BankFormat {
        let ext = (fileName as NSString).pathExtension.lowercased()
        // A workbook by its bytes, whatever its name: a ZIP archive (one without xl/workbook.xml
        // is refused as such), or an Office compound file (a password-protected workbook or .xls).
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || XLSXArchive.isEncryptedOffice(data) { return .xlsx }
        switch ext {
        case "xlsx", "xlsm": return .xlsx
        case "csv": return .csv
        case "gift": return .gift
        case "xml": return .moodleXML
        default: break
        }
        let head = String(decoding: data.prefix(4_096), as: UTF8.self)
            .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
        if head.hasPrefix("<") { return .moodleXML }
        if head.hasPrefix("{") || head.hasPrefix("[") {
            if head.contains("\"quizbox-bundle\"") { return .bundle }
            if head.contains("\"response_code\"") || head.contains("\"results\"") { return .openTriviaDB }
            if head.contains("\"question\"") && head.contains("\"answer\"") { return .remote }
            return .bundle
        }
        let lines = head.split(whereSeparator: \.isNewline)
        if lines.contains(where: { $0.hasPrefix("ANSWER:") || $0.hasPrefix("ANSWER :") }) { return .aiken }
        if head.contains("{") && (head.contains("=") || head.contains("~") || head.contains("$CATEGORY")) { return .gift }
        if ext == "txt" && head.contains("::") { return .gift }
        return .csv
    }

    /// Reads `data`; all problems come back in one ImportError, and nothing is half-read. With
    /// `defaults.skipInvalid`, questions with problems are left out and listed in `ReadResult.skipped`.
    public func read(_ data: Data, defaults: ImportDefaults) throws(ImportError) -> ReadResult {
        // A raw NUL byte in a UTF-8 file (UTF-16 has them everywhere and starts with its BOM).
        if !isSpreadsheet, !(data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])), let index = data.firstIndex(of: 0) {
            let line = data[data.startIndex..<index].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw ImportError(problems: [FormatProblem(line: line, message: "the file holds a NUL byte (\\0), which no text may contain")])
        }
        let result = try readFormat(data, defaults: defaults)
        // A NUL may come as a raw byte or a JSON/XML escape: refused whichever way it came.
        if let found = result.bank.firstTextWithNUL {
            throw ImportError(problems: [FormatProblem(question: found.question ?? found.text,
                                                       message: "the file holds a NUL character (\\0), which no text may contain")])
        }
        return result
    }

    private func readFormat(_ data: Data, defaults: ImportDefaults) throws(ImportError) -> ReadResult {
        switch self {
        case .csv:
            let options = CSVReader.Options(defaultSubject: defaults.subject, defaultTopic: defaults.topic,
                                            quizTitle: defaults.quizTitle, maxBytes: defaults.maxBytes,
                                            answerColumn: defaults.csvAnswerColumn, skipInvalid: defaults.skipInvalid)
            return try CSVReader(options: options).readResult(data)
        case .gift: return try GIFTReader(defaults: defaults).read(data)
        case .moodleXML: return try MoodleXMLReader(defaults: defaults).read(data)
        case .aiken: return try AikenReader(defaults: defaults).read(data)
        case .openTriviaDB: return try OpenTriviaReader(defaults: defaults).read(data)
        case .remote: return try RemoteQuestionReader(defaults: defaults).read(data)
        // A bundle is Quizbox's own complete copy: a problem in it means a damaged file, never skipped.
        case .bundle: return ReadResult(bank: try BundleCodec(maxBytes: defaults.maxBytes).read(data))
        case .xlsx, .kahoot: return try XLSXReader(defaults: defaults).read(data)
        }
    }

    /// Moodle XML embeds pictures and sound clips and the bundle carries them; the other formats have no place for one.
    public var holdsPictures: Bool { self == .moodleXML || self == .bundle }

    /// The file's bytes and the questions this format cannot hold (or, for formats without
    /// pictures, whose picture it left out); nil for read-only formats.
    public func write(_ bank: Bank) -> (data: Data, skipped: [FormatProblem])? {
        guard let (data, skipped) = writeQuestions(bank) else { return nil }
        guard !holdsPictures else { return (data, skipped) }
        let questions = bank.subjects.flatMap(\.topics).flatMap { topic in topic.quizzes.flatMap(\.questions) + topic.questions }
        let lost = questions.filter { $0.picture != nil }
            .map { FormatProblem(question: $0.text, message: "its picture was left out: the \(rawValue) format cannot hold pictures (use Moodle XML or the Quizbox bundle)") }
            + questions.filter { $0.audio != nil }
            .map { FormatProblem(question: $0.text, message: "its sound clip was left out: the \(rawValue) format cannot hold sound clips (use Moodle XML or the Quizbox bundle)") }
        return (data, skipped + lost)
    }

    private func writeQuestions(_ bank: Bank) -> (data: Data, skipped: [FormatProblem])? {
        switch self {
        case .csv:
            let output = CSVWriter().write(bank)
            return (Data(output.csv.utf8), output.skipped.map {
                FormatProblem(question: $0.question, message: $0.reason)
            })
        case .gift:
            let output = GIFTWriter().write(bank)
            return (Data(output.text.utf8), output.skipped)
        case .moodleXML:
            let output = MoodleXMLWriter().write(bank)
            return (Data(output.text.utf8), output.skipped)
        case .aiken:
            let output = AikenWriter().write(bank)
            return (Data(output.text.utf8), output.skipped)
        case .bundle: return (BundleCodec().write(bank), [])
        case .openTriviaDB, .remote: return nil
        case .xlsx: return SpreadsheetBankWriter().quizbox(bank)
        case .kahoot: return SpreadsheetBankWriter().kahoot(bank)
        }
    }
}
