import Foundation
import QuizCore

/// Reads and writes the Quizbox bundle: a JSON file holding a whole `Bank`.
///
/// ```
/// {"format": "quizbox-bundle", "version": 1, "subjects": [{"name", "description",
///   "topics": [{"name", "description", "quizzes": [{"title", "description", "questions": [Q…]}],
///               "questions": [Q…]}]}]}
/// ```
/// A question Q has "kind" (singleChoice, multipleChoice, trueFalse, typedAnswer, numeric,
/// nameAll, …), "text", "difficulty" (default medium), "explanation", "points" (default 1),
/// "timeLimitSeconds" (the question's own seconds to answer; none leaves it to the game), and
/// per kind: "choices" [{"text", "correct"}]; "answer" (bool); "answers" [String] and
/// "partial" [{"text", "fraction"}]; "value", "tolerance" (default 0), "unit", "units"
/// [{"name", "multiplier"}]; "items" [{"answer", "alternates"}], "timeLimitSeconds"
/// (default 300), "typoTolerance" (default false). Descriptions default to "".
///
/// Question ids are not part of the format: a bank read back has `id == nil` everywhere.
public struct BundleCodec: Sendable {
    public static let format = "quizbox-bundle"
    public static let version = 1

    /// Larger inputs are rejected before parsing.
    public var maxBytes: Int

    public init(maxBytes: Int = 20 * 1024 * 1024) {
        self.maxBytes = maxBytes
    }

    public func read(_ data: Data) throws(ImportError) -> Bank {
        try data.withUnsafeBytes { read(buffer: $0.bindMemory(to: UInt8.self)) }.get()
    }

    public func read(_ bytes: [UInt8]) throws(ImportError) -> Bank {
        try bytes.withUnsafeBufferPointer(read(buffer:)).get()
    }

    /// Pretty-printed JSON with sorted keys: the same bank always gives the same bytes.
    public func write(_ bank: Bank) -> Data {
        Data(BundleEncoder.encode(bank).serialized())
    }

    private func read(buffer: UnsafeBufferPointer<UInt8>) -> Result<Bank, ImportError> {
        guard buffer.count <= maxBytes else { return .failure(.tooLarge(size: buffer.count, limit: maxBytes)) }
        let root: JSONValue
        do {
            root = try JSONParser.parse(buffer)
        } catch {
            let problem = FormatProblem(line: error.line, column: error.column, message: "not valid JSON: \(error.message)")
            return .failure(ImportError(problems: [problem]))
        }
        var decoder = BundleDecoder()
        let bank = decoder.decode(root)
        return decoder.problems.isEmpty ? .success(bank) : .failure(decoder.problems.error)
    }
}
