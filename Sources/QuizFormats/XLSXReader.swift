import Foundation
import QuizCore

/// Reads a question bank from the first worksheet of an Excel workbook (`.xlsx`), in one of two
/// layouts, told apart by a header row found by its text wherever it is:
///
/// - **Kahoot's quiz template** (`KahootQuizTemplate.xlsx`, and the sheets tools write for
///   Kahoot): "Question - max 120 characters", "Answer 1 - max 75 characters" … "Answer 4",
///   "Time limit (sec)" (kept as the question's own time), "Correct answer(s)" (the numbers of
///   the correct answers, "1,3"). Rows
///   above the header (the template's instructions) are not read.
/// - **Quizbox's CSV columns** (`question, option1 … option4, answer` and the optional columns
///   the CSV reader knows), or, without a header, the CSV's fixed six columns from column A.
///
/// Every problem names its cell as a spreadsheet shows it ("row 12, column H").
public struct XLSXReader: Sendable {
    public let defaults: ImportDefaults

    public init(defaults: ImportDefaults = ImportDefaults()) {
        self.defaults = defaults
    }

    /// Rows read before a header must have turned up; after them the sheet is read as the CSV's
    /// fixed columns from its first row.
    static let headerSearchRows = 20

    public func read(_ data: Data) throws(ImportError) -> ReadResult {
        guard data.count <= defaults.maxBytes else { throw .tooLarge(size: data.count, limit: defaults.maxBytes) }
        var workbook = try XLSXWorkbook(data)
        var state = XLSXRows(defaults: defaults)
        try workbook.forEachRow { row in state.take(row) }
        return try state.finish()
    }
}

/// The layout a header row announced, and the problems and questions so far.
struct XLSXRows {
    enum Layout {
        case kahoot(KahootColumns)
        /// Quizbox's CSV columns, the first of them in 0-based sheet column `offset`.
        case quizbox(CSVColumns, offset: Int)
    }

    let defaults: ImportDefaults
    private var layout: Layout?
    private var waiting: [XLSXWorkbook.Row] = []
    private var sawHeader = false
    private var builder = BankBuilder()
    private(set) var problems = ProblemList()
    private var kept = 0
    private let csv: CSVReader

    init(defaults: ImportDefaults) {
        self.defaults = defaults
        csv = CSVReader(options: CSVReader.Options(
            defaultSubject: defaults.subject, defaultTopic: defaults.topic, quizTitle: defaults.quizTitle,
            maxBytes: defaults.maxBytes, answerColumn: defaults.csvAnswerColumn, skipInvalid: defaults.skipInvalid))
    }

    /// Takes one row; false once nothing more can be read (an unusable header).
    mutating func take(_ row: XLSXWorkbook.Row) -> Bool {
        if let layout {
            read(row, layout)
            return true
        }
        if let kahoot = KahootColumns(header: row) {
            layout = .kahoot(kahoot)
            sawHeader = true
            waiting = []
            return true
        }
        if row.cells.contains(where: { $0.lowercased() == "question" }) {
            let start = row.cells.firstIndex { !$0.isEmpty } ?? 0
            let end = (row.cells.lastIndex { !$0.isEmpty } ?? start) + 1
            switch CSVColumns.header(from: row.cells[start..<end].map { $0 }) {
            case .columns(let columns):
                layout = .quizbox(columns, offset: start)
                sawHeader = true
                waiting = []
                return true
            case .invalid(let found, let omitted):
                for problem in found {
                    problems.appendWholeFile(FormatProblem(cell: SheetCell(row: row.number, column: problem.column.map { start + $0 }),
                                                           message: problem.message))
                }
                problems.omit(omitted)
                return false
            case .none:
                break
            }
        }
        waiting.append(row)
        if waiting.count >= XLSXReader.headerSearchRows { startFixedLayout() }
        return true
    }

    private mutating func startFixedLayout() {
        let rows = waiting
        waiting = []
        layout = .quizbox(.fixed, offset: 0)
        for row in rows { read(row, .quizbox(.fixed, offset: 0)) }
    }

    private mutating func read(_ row: XLSXWorkbook.Row, _ layout: Layout) {
        let accepting = defaults.skipInvalid || problems.isEmpty
        switch layout {
        case .kahoot(let columns):
            guard let found = columns.question(in: row, problems: &problems) else { return }
            if accepting { builder.add(found, subject: defaults.subject, topic: defaults.topic) }
            kept += 1
        case .quizbox(let columns, let offset):
            let fields: [String?] = (0..<columns.fieldCount).map { row.cell(offset + $0) }
            if fields.allSatisfy({ $0?.isEmpty == true }) { return }
            let record = CSVTokenizer.Record(line: row.number, fields: fields)
            var found = ProblemList()
            var added = false
            csv.readRow(record, columns, problems: &found) { question, subject, topic in
                added = true
                if accepting { builder.add(question, subject: subject, topic: topic) }
            }
            if added { kept += 1 }
            for problem in found.problems {
                problems.append(FormatProblem(cell: SheetCell(row: row.number, column: problem.column.map { offset + $0 }),
                                              question: problem.question, message: problem.message))
            }
        }
    }

    mutating func finish() throws(ImportError) -> ReadResult {
        if layout == nil && !waiting.isEmpty { startFixedLayout() }
        if problems.isEmpty && kept == 0 {
            let message = sawHeader ? "the sheet has a header but no questions" : "no questions found: the sheet is empty"
            throw ImportError(problems: [FormatProblem(message: message)])
        }
        let skipped = try problems.skippedProblems(skipInvalid: defaults.skipInvalid, keptAny: kept > 0)
        return ReadResult(bank: builder.bank(quizTitle: defaults.quizTitle), warnings: [], skipping: skipped)
    }
}
