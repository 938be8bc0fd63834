import QuizText

/// One thing wrong with an imported file, located by line and column (text formats) or by a
/// JSON path (bundles), with the question's text when known so the author can find it.
public struct FormatProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based physical line.
    public var line: Int?
    /// 1-based column; for CSV, the field's position in its row.
    public var column: Int?
    /// Where in a structured document, e.g. "subjects[0].topics[2].quizzes[1].questions[4].choices".
    public var path: String?
    /// In a spreadsheet: the row and column as the spreadsheet shows them ("row 12, column H").
    public var cell: SheetCell?
    /// The text of the question concerned, when there is one.
    public var question: String?
    public var message: String

    public init(line: Int? = nil, column: Int? = nil, path: String? = nil, cell: SheetCell? = nil, question: String? = nil, message: String) {
        self.line = line
        self.column = column
        self.path = path
        self.cell = cell
        self.question = question
        self.message = message
    }

    /// "line 4, column 12: answer \"Paris\" is not one of the options", then the question if known.
    public var description: String {
        var location: [String] = []
        if let line { location.append("line \(line)") }
        if let column { location.append("column \(column)") }
        if let path { location.append(path) }
        if let cell {
            if let row = cell.row { location.append("row \(row)") }
            if let letters = cell.columnLetters { location.append("column \(letters)") }
        }
        var text = location.isEmpty ? message : location.joined(separator: ", ") + ": " + message
        if let question { text += " (question \"\(FormatProblem.excerpt(question))\")" }
        return text
    }

    /// The description in `t`'s language: the message is looked up as a pattern in the catalog.
    public func description(_ t: Texts) -> String {
        if t.language == .en { return description }
        var location: [String] = []
        if let line { location.append(t("line {line}", ["line": String(line)])) }
        if let column { location.append(t("column {column}", ["column": String(column)])) }
        if let path { location.append(path) }
        if let cell {
            if let row = cell.row { location.append(t("row {row}", ["row": String(row)])) }
            if let letters = cell.columnLetters { location.append(t("column {column}", ["column": letters])) }
        }
        let message = t(self.message)
        var text = location.isEmpty ? message : t("{location}: {message}", ["location": location.joined(separator: ", "), "message": message])
        if let question { text = t("{message} (question “{question}”)", ["message": text, "question": FormatProblem.excerpt(question)]) }
        return text
    }

    /// A question is quoted only far enough to recognise it: a long one would bury the message.
    static func excerpt(_ text: String, limit: Int = 60) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count <= limit ? flat : flat.prefix(limit - 1) + "…"
    }
}

/// A spreadsheet cell as its user finds it: row 12, column H, or "H12".
public struct SheetCell: Sendable, Hashable {
    /// 1-based, as the spreadsheet numbers its rows; nil for a whole column.
    public var row: Int?
    /// 1-based (A is 1); nil when the problem is the whole row's.
    public var column: Int?

    public init(row: Int?, column: Int? = nil) {
        self.row = row
        self.column = column
    }

    /// "H" for 8, "AA" for 27.
    public var columnLetters: String? {
        guard var number = column, number > 0 else { return nil }
        var letters: [Character] = []
        while number > 0 {
            let digit = (number - 1) % 26
            letters.append(Character(UnicodeScalar(UInt8(65 + digit))))
            number = (number - 1) / 26
        }
        return String(letters.reversed())
    }

    /// "H12", "12" for a whole row, "H" for a whole column.
    public var reference: String { (columnLetters ?? "") + (row.map(String.init) ?? "") }

    /// The 1-based column of a reference's letters ("H12" → 8); nil when it starts with none.
    static func column(ofReference reference: Substring) -> Int? {
        var number = 0
        var letters = 0
        for byte in reference.utf8 {
            let upper = byte & ~0x20
            guard upper >= 65 && upper <= 90 else { break }
            number = number * 26 + Int(upper - 64)
            letters += 1
            if letters > 3 { return nil }
        }
        return letters == 0 ? nil : number
    }
}
