import Foundation
import QuizCore

/// Reads the Quizbox CSV format: one single-choice question per row,
/// `question,option1,option2,option3,option4,answer`, where `answer` is the text of the correct
/// option and options 3 and 4 may be empty.
///
/// A first row with a cell named "question" is a header; it may order the six columns freely and
/// add `subject`, `topic`, `difficulty` (easy, medium, hard) and `explanation`. Rows are grouped
/// by subject and topic (the options' defaults when absent), each topic getting one quiz titled
/// `Options.quizTitle` with its rows in file order. Rows whose cells are all empty are skipped.
///
/// Every problem is reported (up to `ImportError.maxProblems`) with its row's first physical line
/// and the field's 1-based position as column, and nothing is returned unless the whole file is good.
public struct CSVReader: Sendable {
    /// How the answer column names the correct option.
    public enum AnswerColumn: String, Sendable, Hashable, CaseIterable {
        /// The option's text (the Quizbox format).
        case text
        /// `1`–`4`: the option's column.
        case index
        /// `A`–`D` (either case): the option's column.
        case letter
    }

    public struct Options: Sendable, Hashable {
        public var defaultSubject: String
        public var defaultTopic: String
        public var quizTitle: String
        /// Larger inputs are rejected before parsing.
        public var maxBytes: Int
        public var answerColumn: AnswerColumn
        /// Keep the good rows and list the bad ones, instead of all or nothing.
        public var skipInvalid: Bool

        public init(
            defaultSubject: String = "Imported", defaultTopic: String = "Imported",
            quizTitle: String = "Imported questions", maxBytes: Int = 20 * 1024 * 1024, answerColumn: AnswerColumn = .text,
            skipInvalid: Bool = false
        ) {
            self.skipInvalid = skipInvalid
            self.defaultSubject = defaultSubject
            self.defaultTopic = defaultTopic
            self.quizTitle = quizTitle
            self.maxBytes = maxBytes
            self.answerColumn = answerColumn
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    public func read(_ data: Data) throws(ImportError) -> Bank {
        try readResult(data).bank
    }

    public func read(_ bytes: [UInt8]) throws(ImportError) -> Bank {
        try bytes.withUnsafeBufferPointer(read(buffer:)).get().bank
    }

    /// The bank, and with `Options.skipInvalid` the problems of the rows left out.
    public func readResult(_ data: Data) throws(ImportError) -> ReadResult {
        try data.withUnsafeBytes { read(buffer: $0.bindMemory(to: UInt8.self)) }.get()
    }

    private func read(buffer input: UnsafeBufferPointer<UInt8>) -> Result<ReadResult, ImportError> {
        guard input.count <= options.maxBytes else {
            return .failure(.tooLarge(size: input.count, limit: options.maxBytes))
        }
        var rows = CSVRows(reader: self)
        var builder = BankBuilder()
        rows.read(input, limit: .max) { builder.add($0, subject: $1, topic: $2) }
        do {
            let skipped = try rows.finish()
            return .success(ReadResult(bank: builder.bank(quizTitle: options.quizTitle), skipping: skipped))
        } catch {
            return .failure(error)
        }
    }

    private typealias Name = CSVColumns.Name

    /// Reads one row into a question, or reports why it cannot.
    func readRow(
        _ record: CSVTokenizer.Record, _ columns: CSVColumns,
        problems: inout ProblemList, add: (Question, String, String) -> Void
    ) {
        var failed = false
        func report(_ column: Int?, _ message: String) {
            problems.append(FormatProblem(line: record.line, column: column, message: message))
            failed = true
        }
        func column(_ name: Name) -> Int? { columns.index(of: name).map { $0 + 1 } }

        for problem in record.problems {
            let found = FormatProblem(line: record.line, column: problem.column, message: problem.message)
            // An unclosed quote took every later row with it: skipping this one would lose them silently.
            if record.unclosedQuote { problems.appendWholeFile(found) } else { problems.append(found) }
            failed = true
        }
        if failed { return }  // a quoting mistake shifts fields: anything more would be noise
        guard record.fields.count == columns.fieldCount else {
            let layout = columns.fromHeader ? " as in the header" : " (\(CSVColumns.fixedLayoutDescription))"
            let extra = record.fields.count > columns.fieldCount ? columns.fieldCount + 1 : nil
            report(extra, "expected \(columns.fieldCount) fields\(layout), found \(record.fields.count)")
            return
        }
        for (index, field) in record.fields.enumerated() where field == nil {
            report(index + 1, "is not valid UTF-8 (save the file as UTF-8)")
        }
        if failed { return }
        let fields = record.fields

        let text = columns.value(.question, in: fields)
        if text.isEmpty { report(column(.question), "question is empty") }

        var cells: [(name: Name, text: String, key: String)] = []  // the non-empty options
        for name in Name.options {
            let option = columns.value(name, in: fields)
            if option.isEmpty {
                if name == .option1 || name == .option2 {
                    report(column(name), "\(name.title) is empty: a question needs at least two options")
                }
                continue
            }
            let key = Question.choiceKey(option)
            if let earlier = cells.first(where: { $0.key == key }) {
                report(column(name), "\(name.title) \"\(option)\" repeats \(earlier.name.title)")
            }
            cells.append((name, option, key))
        }

        let answer = columns.value(.answer, in: fields)
        var correct: Int?
        if answer.isEmpty {
            report(column(.answer), "answer is empty: it must be the text of the correct option")
        } else if options.answerColumn != .text {
            correct = optionByPosition(answer, cells: cells.map { ($0.name, $0.text) }) { report(column(.answer), $0) }
        } else {
            // Exact text first; then as a player's answer would be compared ("paris" for "Paris").
            correct = cells.firstIndex { $0.text == answer }
                ?? cells.firstIndex { $0.key == Question.choiceKey(answer) }
                ?? uniqueLooseMatch(answer, in: cells.map(\.text))
            if correct == nil { report(column(.answer), "answer \"\(answer)\" is not one of the options") }
        }

        var difficulty = Difficulty.medium
        let difficultyText = columns.value(.difficulty, in: fields)
        if !difficultyText.isEmpty {
            if let known = Difficulty(rawValue: difficultyText.lowercased()) {
                difficulty = known
            } else {
                report(column(.difficulty), "unknown difficulty \"\(difficultyText)\": use easy, medium or hard")
            }
        }
        let picture = self.picture(columns.value(.image, in: fields), alt: columns.value(.imageAlt, in: fields),
                                   column: column, report: report)
        if failed { return }

        let explanation = columns.value(.explanation, in: fields)
        let choices = cells.enumerated().map { index, option in
            Choice(id: index + 1, text: option.text, isCorrect: index == correct)
        }
        var question = Question(
            text: text, explanation: explanation.isEmpty ? nil : explanation,
            difficulty: difficulty, body: .singleChoice(choices))
        question.picture = picture
        for error in question.validationErrors() {
            let (name, columnName) = csvName(of: error.field, options: cells.map(\.name))
            report(columnName.flatMap(column), "\(name) \(error.message)")
        }
        if failed { return }

        let subject = columns.value(.subject, in: fields)
        let topic = columns.value(.topic, in: fields)
        add(question, subject.isEmpty ? options.defaultSubject : subject, topic.isEmpty ? options.defaultTopic : topic)
    }

    /// The `image` column's picture, to download before the import stores it: an http(s) address,
    /// described by `image_alt` (a neutral description when empty; never the address, which may
    /// name the answer).
    private func picture(_ address: String, alt: String, column: (Name) -> Int?, report: (Int?, String) -> Void) -> QuestionPicture? {
        guard !address.isEmpty else { return nil }
        guard address.utf8.count <= 2_000, let url = URL(string: address), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            report(column(.image), "image must be the http or https address of a PNG, JPEG or WebP picture")
            return nil
        }
        guard alt.count <= QuestionPicture.maxAltLength else {
            report(column(.imageAlt), "image_alt is longer than \(QuestionPicture.maxAltLength) characters")
            return nil
        }
        return .named(address: address, alt: alt.isEmpty ? QuestionPicture.fallbackAlt : alt)
    }

    /// Whether the file's header names an `image` column: such a file is read whole, its pictures
    /// downloaded before anything is stored.
    public static func namesPictures(_ data: Data) -> Bool {
        var found = false
        data.withUnsafeBytes { raw in
            var position = CSVTokenizer.Position()
            CSVTokenizer.forEachRecord(in: raw.bindMemory(to: UInt8.self), from: &position) { record in
                if case .columns(let columns) = CSVColumns.header(from: record.fields) { found = columns.index(of: .image) != nil }
                return false
            }
        }
        return found
    }

    /// The CSV column a validation error's field came from: "choices[2].text" is the third
    /// non-empty option, which is option4 when option3 was left empty.
    private func csvName(of field: String, options: [Name]) -> (String, Name?) {
        switch field {
        case "text": return ("question", .question)
        case "explanation": return ("explanation", .explanation)
        default:
            if field.hasPrefix("choices["), field.hasSuffix("].text"),
               let index = Int(field.dropFirst("choices[".count).dropLast("].text".count)),
               options.indices.contains(index) {
                return (options[index].title, options[index])
            }
            return (field, nil)
        }
    }
}

/// The one option that matches `answer` as a typed answer would (accents and punctuation ignored);
/// nil when none or several do, so "C" never silently picks "C#" over "C++".
private func uniqueLooseMatch(_ answer: String, in options: [String]) -> Int? {
    let key = AnswerNormalizer.normalize(answer)
    let matches = options.indices.filter { AnswerNormalizer.normalize(options[$0]) == key }
    return matches.count == 1 ? matches[0] : nil
}

extension CSVReader {
    /// The option an answer like `2` or `B` names; a value that could also be read as another
    /// option's text is refused rather than guessed.
    func optionByPosition(_ answer: String, cells: [(name: CSVColumns.Name, text: String)], report: (String) -> Void) -> Int? {
        let position: Int?
        switch options.answerColumn {
        case .index:
            position = Int(answer).flatMap { (1...4).contains($0) ? $0 : nil }
        case .letter:
            position = answer.count == 1 ? ["A": 1, "B": 2, "C": 3, "D": 4][answer.uppercased()] : nil
        case .text:
            position = nil
        }
        guard let position else {
            report("answer \"\(answer)\" is not \(options.answerColumn == .index ? "1, 2, 3 or 4" : "A, B, C or D")")
            return nil
        }
        let name = CSVColumns.Name.options[position - 1]
        guard let index = cells.firstIndex(where: { $0.name == name }) else {
            report("answer \"\(answer)\" points at \(name.title), which is empty")
            return nil
        }
        if let other = cells.firstIndex(where: { $0.text == answer }), other != index {
            report("answer \"\(answer)\" could mean \(name.title) or \(cells[other].name.title), whose text is \"\(answer)\"")
            return nil
        }
        return index
    }
}
