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
    /// The text of the question concerned, when there is one.
    public var question: String?
    public var message: String

    public init(line: Int? = nil, column: Int? = nil, path: String? = nil, question: String? = nil, message: String) {
        self.line = line
        self.column = column
        self.path = path
        self.question = question
        self.message = message
    }

    /// "line 4, column 12: answer \"Paris\" is not one of the options", then the question if known.
    public var description: String {
        var location: [String] = []
        if let line { location.append("line \(line)") }
        if let column { location.append("column \(column)") }
        if let path { location.append(path) }
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
