/// Why an import failed: every problem found (up to `ImportError.maxProblems`), so an author can
/// fix a file in one pass instead of one error per attempt.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public static let maxProblems = 100

    public var problems: [FormatProblem]
    /// Problems found beyond `maxProblems` and left out.
    public var omittedCount: Int

    public init(problems: [FormatProblem], omittedCount: Int = 0) {
        self.problems = problems
        self.omittedCount = omittedCount
    }

    /// One problem per line, and a last line saying how many more there were.
    public var description: String {
        var lines = problems.map(\.description)
        if omittedCount > 0 { lines.append("…and \(omittedCount) more problems") }
        return lines.joined(separator: "\n")
    }
}

/// Collects problems while a reader keeps going, keeping the first `ImportError.maxProblems`.
struct ProblemList {
    private(set) var problems: [FormatProblem] = []
    private(set) var omittedCount = 0
    /// A problem no skipping can get past (an unreadable header, an unclosed quote).
    private(set) var concernsWholeFile = false

    var isEmpty: Bool { problems.isEmpty }
    /// A reader can stop early once nothing more would be shown.
    var isFull: Bool { problems.count >= ImportError.maxProblems }

    mutating func append(_ problem: FormatProblem) {
        if isFull { omittedCount += 1 } else { problems.append(problem) }
    }

    mutating func appendWholeFile(_ problem: FormatProblem) {
        concernsWholeFile = true
        append(problem)
    }

    /// Problems found past the limit and only counted: they would be left out anyway.
    mutating func omit(_ count: Int) {
        omittedCount += count
    }

    var error: ImportError { ImportError(problems: problems, omittedCount: omittedCount) }
}

extension ImportError {
    /// Said before parsing anything, so a huge upload costs no more than its length check.
    static func tooLarge(size: Int, limit: Int) -> ImportError {
        let message = "the file is \(describeSize(size)), over the import limit of \(describeSize(limit))"
        return ImportError(problems: [FormatProblem(message: message)])
    }

    private static func describeSize(_ bytes: Int) -> String {
        guard bytes >= 1_048_576 else { return "\(bytes) bytes" }
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
