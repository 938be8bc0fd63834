import Foundation
import QuizCore

/// Reads a response of the Open Trivia Database API (opentdb.com/api.php), saved to a file:
///
/// ```
/// {"response_code": 0, "results": [{"category": "Science: Computers", "type": "multiple",
///   "difficulty": "easy", "question": "…", "correct_answer": "…", "incorrect_answers": ["…", …]}]}
/// ```
/// - `multiple` becomes a single-choice question whose options are all the answers sorted by text.
///   The API sends the correct answer apart from the others, so some fixed place has to be chosen
///   for it. Always first or always last would give the answer away; a random place would make two
///   imports of the same file differ, which breaks duplicate detection, diffs of exported banks and
///   tests. Sorting hides the answer and gives the same bank every time.
/// - `boolean` becomes a true/false question; `correct_answer` must be "True" or "False".
/// - "Science: Computers" files the question under subject "Science", topic "Computers"; a
///   category without a colon ("Science & Nature") is both the subject and the topic. Without a
///   category, `defaults.subject` and `defaults.topic` are used. Each topic gets one quiz titled
///   `defaults.quizTitle`. `difficulty` (easy, medium, hard) is kept; medium when absent.
/// - Every string (category, type and difficulty included) is decoded with the response's
///   `encode` setting: HTML entities (the API's default, decoded exactly once), `url3986`,
///   `urlLegacy` or `base64`. With `encoding: nil` it is detected from the data.
/// - A non-zero `response_code` is an error saying what the API meant by it. Keys the API may add
///   later are ignored.
///
/// Problems carry a JSON path (`results[3].correct_answer`) and the question's text; nothing is
/// returned unless the whole file is good.
public struct OpenTriviaReader: Sendable {
    /// How the API encoded the strings (its `encode` parameter).
    public enum Encoding: Sendable, Hashable, CaseIterable {
        /// The default: `&quot;`, `&#039;`, `&amp;` … in otherwise plain text.
        case htmlEntities
        /// `encode=url3986`: percent-encoding, `%20` for a space.
        case url3986
        /// `encode=urlLegacy`: percent-encoding with `+` for a space.
        case urlLegacy
        /// `encode=base64`: each string is the base64 of its UTF-8.
        case base64
    }

    public var defaults: ImportDefaults
    /// nil: detect it from the data.
    public var encoding: Encoding?

    public init(defaults: ImportDefaults = .init(), encoding: Encoding? = nil) {
        self.defaults = defaults
        self.encoding = encoding
    }

    /// What each `response_code` means, from the API's documentation.
    static let responseCodes: [Int: String] = [
        1: "No Results: the API did not have enough questions for the query",
        2: "Invalid Parameter: the request contained an invalid parameter",
        3: "Token Not Found: the session token does not exist",
        4: "Token Empty: the session token has returned every question for the query; reset it",
        5: "Rate Limit: too many requests; each IP address may ask once every 5 seconds",
    ]

    public func read(_ data: Data) throws(ImportError) -> ReadResult {
        guard data.count <= defaults.maxBytes else { throw .tooLarge(size: data.count, limit: defaults.maxBytes) }
        let root = try OpenTriviaReader.parseJSON([UInt8](data))
        var decoder = BundleDecoder()
        guard case .object(let members) = root else {
            let message = "not an Open Trivia DB response: expected a JSON object with \"results\", found \(root.typeDescription)"
            throw ImportError(problems: [FormatProblem(message: message)])
        }
        let response = BundleDecoder.Fields(path: "", members: members)
        if let code = decoder.integer(response, "response_code", .optional), code != 0 {
            let meaning = OpenTriviaReader.responseCodes[code] ?? "a code this reader does not know"
            let message = "the API answered with response code \(code) (\(meaning)), so the file holds no questions"
            throw ImportError(problems: [FormatProblem(path: "response_code", message: message)])
        }
        guard let results = decoder.array(response, "results") else { throw decoder.problems.error }
        // A problem before the first question (a response_code that is not a number) is the whole file's.
        let responseProblem = !decoder.problems.isEmpty

        let raws = results.enumerated().compactMap { index, value in
            OpenTriviaResult(value, at: "results[\(index)]", decoder: &decoder)
        }
        let encoding = self.encoding ?? OpenTriviaReader.detectEncoding(raws)
        var builder = BankBuilder()
        for raw in raws {
            guard let (question, category) = raw.question(encoding: encoding, decoder: &decoder) else { continue }
            let (subject, topic) = split(category)
            builder.add(question, subject: subject, topic: topic)
        }
        if decoder.problems.isEmpty && builder.isEmpty {
            throw ImportError(problems: [FormatProblem(path: "results", message: "the response holds no questions")])
        }
        let skipped = try decoder.problems.skippedProblems(skipInvalid: defaults.skipInvalid, keptAny: !builder.isEmpty,
                                                           wholeFile: responseProblem)
        return ReadResult(bank: builder.bank(quizTitle: defaults.quizTitle), skipping: skipped)
    }

    /// "Science: Computers" → ("Science", "Computers"); "Science & Nature" → the same for both.
    func split(_ category: String?) -> (subject: String, topic: String) {
        let whole = category?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !whole.isEmpty else { return (defaults.subject, defaults.topic) }
        guard let colon = whole.firstIndex(of: ":") else { return (whole, whole) }
        let subject = whole[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
        let topic = whole[whole.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        if subject.isEmpty || topic.isEmpty {
            let only = subject.isEmpty ? topic : subject
            return only.isEmpty ? (defaults.subject, defaults.topic) : (only, only)
        }
        return (subject, topic)
    }

    /// Parses strict JSON, turning a syntax error into a problem with its line and column.
    static func parseJSON(_ bytes: [UInt8]) throws(ImportError) -> JSONValue {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw ImportError(problems: [FormatProblem(line: 1, column: 1, message: "the file is UTF-16; save it as UTF-8")])
        }
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParser.Error) in try JSONParser.parse(buffer) }
        }
        switch parsed {
        case .success(let value):
            return value
        case .failure(let error):
            var message = "not valid JSON: \(error.message)"
            if !error.isInvalidUTF8 && String(validating: bytes, as: UTF8.self) == nil {
                message += " (the file is not valid UTF-8; save it as UTF-8)"
            }
            throw ImportError(problems: [FormatProblem(line: error.line, column: error.column, message: message)])
        }
    }
}
