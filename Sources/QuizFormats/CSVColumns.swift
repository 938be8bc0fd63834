/// Where each known column sits in a row: the fixed six-column layout, or what a header names.
struct CSVColumns: Sendable {
    enum Name: Int, CaseIterable, Sendable {
        case question, option1, option2, option3, option4, answer, subject, topic, difficulty, explanation, image, imageAlt

        /// Spelled out: `String(describing:)` goes through reflection, which made refusing a
        /// header of 100,000 cells (each compared with every name) take seconds.
        var title: String {
            switch self {
            case .question: "question"
            case .option1: "option1"
            case .option2: "option2"
            case .option3: "option3"
            case .option4: "option4"
            case .answer: "answer"
            case .subject: "subject"
            case .topic: "topic"
            case .difficulty: "difficulty"
            case .explanation: "explanation"
            case .image: "image"
            case .imageAlt: "image_alt"
            }
        }

        static let byTitle = Dictionary(uniqueKeysWithValues: allCases.map { ($0.title, $0) })
        static let required: [Name] = [.question, .option1, .option2, .answer]
        static let options: [Name] = [.option1, .option2, .option3, .option4]
    }

    /// 0-based field index of each name, indexed by `Name.rawValue`; nil when the file lacks it.
    private var positions: [Int?]
    /// Fields every row must have.
    let fieldCount: Int
    let fromHeader: Bool

    private init(positions: [Int?], fieldCount: Int, fromHeader: Bool) {
        self.positions = positions
        self.fieldCount = fieldCount
        self.fromHeader = fromHeader
    }

    /// `question,option1,option2,option3,option4,answer`, for files without a header.
    static let fixed = CSVColumns(
        positions: Name.allCases.map { $0.rawValue < 6 ? $0.rawValue : nil }, fieldCount: 6, fromHeader: false)

    static var fixedLayoutDescription: String {
        Name.allCases.prefix(6).map(\.title).joined(separator: ",")
    }

    func index(of name: Name) -> Int? { positions[name.rawValue] }

    /// The field under `name`, "" when the file has no such column.
    func value(_ name: Name, in fields: [String?]) -> String {
        guard let index = positions[name.rawValue] else { return "" }
        return fields[index] ?? ""
    }

    /// Reads a header row. A row is a header when one of its cells is "question" (any case): the
    /// fixed layout's first column, or the same names in another order.
    enum Header {
        case none
        case columns(CSVColumns)
        /// A header that cannot be used, with the problems by 1-based column (nil: the whole row)
        /// and how many more there were.
        case invalid([(column: Int?, message: String)], omitted: Int)
    }

    static func header(from fields: [String?]) -> Header {
        guard fields.contains(where: { ($0 ?? "").lowercased() == Name.question.title }) else { return .none }

        var positions = [Int?](repeating: nil, count: Name.allCases.count)
        var problems: [(column: Int?, message: String)] = []
        var omitted = 0
        // A header of a million cells is one mistake: past what an ImportError shows, its
        // problems are counted, not built (that took seconds and gigabytes for a 20 MiB upload).
        func report(_ column: Int, _ message: @autoclosure () -> String) {
            if problems.count < ImportError.maxProblems { problems.append((column, message())) } else { omitted += 1 }
        }
        for (index, field) in fields.enumerated() {
            let title = (field ?? "").lowercased()
            guard let name = Name.byTitle[title] else {
                report(index + 1, "unknown column \"\(field ?? "")\"")
                continue
            }
            if let earlier = positions[name.rawValue] {
                report(index + 1, "column \"\(title)\" repeats column \(earlier + 1)")
            } else {
                positions[name.rawValue] = index
            }
        }
        let missing = Name.required.filter { positions[$0.rawValue] == nil }.map(\.title)
        if !missing.isEmpty {
            // One message that says what was expected: a file in another layout (a Kahoot export
            // with "Answer1" and a "Correct" number, say) fails here, and should learn why.
            problems.insert((nil, "header lacks the column(s) \(missing.joined(separator: ", ")); "
                + "the header must name question, option1, option2, option3, option4, answer "
                + "(and optionally subject, topic, difficulty, explanation, image, image_alt)"), at: 0)
        }
        if !problems.isEmpty { return .invalid(problems, omitted: omitted) }
        return .columns(CSVColumns(positions: positions, fieldCount: fields.count, fromHeader: true))
    }
}
