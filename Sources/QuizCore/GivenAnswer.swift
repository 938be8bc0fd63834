import Foundation

/// What a player answered, as kept with its verdict: the answer, and whether it came after the
/// question's time limit (it then scored nothing, and the page says why).
///
/// Kept as JSON with the API's names, one key for the answer: `{"choiceId":3}`,
/// `{"choiceIds":[1,2]}`, `{"value":true}`, `{"text":"Paris"}`, `{"number":42}`, plus
/// `"tooLate":true` when late. Every row Quizbox has stored reads back: the API's shapes, the pages'
/// `{"text":"42"}` for a number (read as the text the player typed), and late answers, which were
/// stored with `{"tooLate":true,` spliced in front.
public struct GivenAnswer: Sendable, Hashable, Codable {
    public var answer: Answer
    public var late: Bool

    public init(_ answer: Answer, late: Bool = false) {
        self.answer = answer
        self.late = late
    }

    enum CodingKeys: String, CodingKey {
        case tooLate, choiceId, choiceIds, value, text, number
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        late = try row.decodeIfPresent(Bool.self, forKey: .tooLate) ?? false
        if let id = try row.decodeIfPresent(Int.self, forKey: .choiceId) {
            answer = .choice(id)
        } else if let ids = try row.decodeIfPresent([Int].self, forKey: .choiceIds) {
            answer = .choices(Set(ids))
        } else if let value = try row.decodeIfPresent(Bool.self, forKey: .value) {
            answer = .bool(value)
        } else if let text = try row.decodeIfPresent(String.self, forKey: .text) {
            answer = .text(text)
        } else if let number = try row.decodeIfPresent(Double.self, forKey: .number) {
            answer = .number(number)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "No answer in the row."))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        if late { try row.encode(true, forKey: .tooLate) }
        switch answer {
        case .choice(let id): try row.encode(id, forKey: .choiceId)
        case .choices(let ids): try row.encode(ids.sorted(), forKey: .choiceIds)
        case .bool(let value): try row.encode(value, forKey: .value)
        case .text(let text): try row.encode(text, forKey: .text)
        case .number(let number): try row.encode(number, forKey: .number)
        }
    }

    /// The JSON `encode(to:)` writes, written directly: this runs once per answer, and a
    /// `JSONEncoder` costs some 30 times as much as these few appends.
    public var stored: String {
        var json = late ? #"{"tooLate":true,"# : "{"
        switch answer {
        case .choice(let id): json += #""choiceId":\#(id)"#
        case .choices(let ids): json += #""choiceIds":[\#(ids.sorted().map(String.init).joined(separator: ","))]"#
        case .bool(let value): json += #""value":\#(value)"#
        case .text(let text): json += #""text":"# + JSONText.quoted(text)
        // JSON has no infinity: such a number (never graded right) keeps its spelling as text.
        case .number(let number) where !number.isFinite: json += #""text":"# + JSONText.quoted(String(number))
        case .number(let number): json += #""number":\#(number)"#
        }
        return json + "}"
    }

    /// Reads a stored row; nil for one that holds no answer (none was ever written).
    public init?(stored: String) {
        guard let read = try? JSONDecoder().decode(GivenAnswer.self, from: Data(stored.utf8)) else { return nil }
        self = read
    }
}
