import Foundation
import QuizCore

/// The state of reading a CSV file's rows, kept between batches: the columns from the header,
/// the problems so far, and where the next row starts.
struct CSVRows {
    let reader: CSVReader
    private(set) var problems = ProblemList()
    private var columns: CSVColumns?
    private var sawHeader = false
    private var unusableHeader = false
    private var position = CSVTokenizer.Position()
    private var kept = 0
    private(set) var isAtEnd = false

    init(reader: CSVReader) {
        self.reader = reader
    }

    /// Reads rows until `limit` questions went to `add` or the input ends. Once a problem makes
    /// the import fail (not skipping), rows are still checked but no longer handed out.
    mutating func read(_ input: UnsafeBufferPointer<UInt8>, limit: Int, _ add: (Question, String, String) -> Void) {
        var added = 0
        var problems = self.problems
        var columns = self.columns
        var sawHeader = self.sawHeader
        var unusableHeader = self.unusableHeader
        let skipInvalid = reader.options.skipInvalid
        CSVTokenizer.forEachRecord(in: input, from: &position) { record in
            if columns == nil {
                guard !unusableHeader else { return true }
                switch CSVColumns.header(from: record.fields) {
                case .none:
                    columns = .fixed
                case .columns(let found):
                    columns = found
                    sawHeader = true
                    return true
                case .invalid(let found, let omitted):
                    // Rows cannot be read without knowing their columns: report the header only.
                    unusableHeader = true
                    for problem in found {
                        problems.appendWholeFile(FormatProblem(line: record.line, column: problem.column, message: problem.message))
                    }
                    problems.omit(omitted)
                    return true
                }
            }
            if record.problems.isEmpty && record.fields.allSatisfy({ $0?.isEmpty == true }) { return true }
            let accepting = skipInvalid || problems.isEmpty
            reader.readRow(record, columns ?? .fixed, problems: &problems) { question, subject, topic in
                guard accepting else { return }
                add(question, subject, topic)
                added += 1
            }
            return added < limit
        }
        kept += added
        isAtEnd = position.offset >= input.count
        self.problems = problems
        self.columns = columns
        self.sawHeader = sawHeader
        self.unusableHeader = unusableHeader
    }

    /// After the last row: the problems of rows left out (skipping), or the error that fails the file.
    func finish() throws(ImportError) -> ProblemList {
        if problems.isEmpty && kept == 0 {
            let message = sawHeader ? "the file has a header but no questions" : "the file holds no questions"
            throw ImportError(problems: [FormatProblem(message: message)])
        }
        return try problems.skippedProblems(skipInvalid: reader.options.skipInvalid, keptAny: kept > 0)
    }
}

/// Reads a CSV file a batch at a time, so a large file can be stored while it is read instead of
/// being held whole in memory as questions. All or nothing still holds: the last batch throws
/// when the file had problems, and the caller's transaction rolls back what it stored.
public struct CSVBatchReader: Sendable {
    private let data: Data
    private var rows: CSVRows
    private var finished = false

    public init(data: Data, options: CSVReader.Options) {
        self.data = data
        rows = CSVRows(reader: CSVReader(options: options))
    }

    /// Up to `limit` questions with their subject and topic, in file order; nil after the last.
    public mutating func next(limit: Int) throws(ImportError) -> [BankEntry]? {
        guard !finished else { return nil }
        let options = rows.reader.options
        guard data.count <= options.maxBytes else { throw .tooLarge(size: data.count, limit: options.maxBytes) }
        var batch: [BankEntry] = []
        batch.reserveCapacity(min(limit, 10_000))
        data.withUnsafeBytes { raw in
            rows.read(raw.bindMemory(to: UInt8.self), limit: limit) { batch.append(BankEntry(question: $0, subject: $1, topic: $2)) }
        }
        if rows.isAtEnd {
            finished = true
            skipped = try rows.finish()
            if batch.isEmpty { return nil }
        }
        return batch
    }

    private var skipped = ProblemList()

    /// With `Options.skipInvalid`, once `next` returned nil: the problems of the rows left out.
    public var skippedProblems: [FormatProblem] { skipped.problems }
    public var skippedOmittedCount: Int { skipped.omittedCount }
}
