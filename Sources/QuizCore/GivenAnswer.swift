import Foundation

/// What a player answered, as kept with its verdict: the answer, and whether it came after the
/// question's time limit (it then scored nothing, and the page says why).
///
/// Kept as JSON with the API's names, one key for the answer: `{"choiceId":3}`,
/// `{"choiceIds":[1,2]}`, `{"value":true}`, `{"text":"Paris"}`, `{"number":42}`, `{"order":[3,1,2]}`,
/// `{"matches":{"1":2}}`, `{"gaps":{"1":{"choiceId":2},"2":{"text":"Paris"}}}`, plus
/// `"tooLate":true` when late. Every row Quizbox has stored reads back: the API's shapes, the pages'
/// `{"text":"42"}` for a number (read as the text the player typed), and late answers, which were
/// stored with `{"tooLate":true,` spliced in front.
public struct GivenAnswer: Sendable, Hashable, Codable {
    public var answer: Answer
    public var late: Bool
    /// Part of the credit, kept with the answer (`"credit":0.667`) when it was neither all nor
    /// nothing; otherwise the row's `correct` says which.
    public var partialCredit: Credit?

    public init(_ answer: Answer, late: Bool = false, credit: Credit? = nil) {
        self.answer = answer
        self.late = late
        self.partialCredit = credit.flatMap { $0.isPartial ? $0 : nil }
    }

    /// The credit the answer earned, given the row's `correct`.
    public func credit(correct: Bool) -> Credit {
        partialCredit ?? (correct ? .full : .none)
    }

    enum CodingKeys: String, CodingKey {
        case tooLate, credit, choiceId, choiceIds, value, text, number, order, matches, gaps, read
    }

    /// One gap's answer, as the API writes it.
    struct GapRecord: Codable {
        var choiceId: Int?
        var text: String?
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        late = try row.decodeIfPresent(Bool.self, forKey: .tooLate) ?? false
        partialCredit = try row.decodeIfPresent(Double.self, forKey: .credit).map { Credit($0) }
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
        } else if let order = try row.decodeIfPresent([Int].self, forKey: .order) {
            answer = .order(order)
        } else if let matches = try row.decodeIfPresent([String: Int].self, forKey: .matches) {
            answer = .matches(try Self.keyedByNumber(matches, decoder))
        } else if let gaps = try row.decodeIfPresent([String: GapRecord].self, forKey: .gaps) {
            answer = .gaps(try Self.keyedByNumber(gaps, decoder).mapValues { record in
                if let id = record.choiceId { return .choice(id) }
                guard let text = record.text else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "A gap's answer has no choiceId or text."))
                }
                return .text(text)
            })
        } else if try row.decodeIfPresent(Bool.self, forKey: .read) == true {
            answer = .read
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "No answer in the row."))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        if late { try row.encode(true, forKey: .tooLate) }
        if let partialCredit { try row.encode(Self.rounded(partialCredit), forKey: .credit) }
        switch answer {
        case .choice(let id): try row.encode(id, forKey: .choiceId)
        case .choices(let ids): try row.encode(ids.sorted(), forKey: .choiceIds)
        case .bool(let value): try row.encode(value, forKey: .value)
        case .text(let text): try row.encode(text, forKey: .text)
        case .number(let number): try row.encode(number, forKey: .number)
        case .order(let order): try row.encode(order, forKey: .order)
        case .matches(let matches): try row.encode(Dictionary(uniqueKeysWithValues: matches.map { (String($0.key), $0.value) }), forKey: .matches)
        case .gaps(let gaps):
            try row.encode(Dictionary(uniqueKeysWithValues: gaps.map { key, value in
                switch value {
                case .choice(let id): (String(key), GapRecord(choiceId: id))
                case .text(let text): (String(key), GapRecord(text: text))
                }
            }), forKey: .gaps)
        case .read: try row.encode(true, forKey: .read)
        }
    }

    /// Three decimals: a thousandth of the points is finer than any question's points.
    private static func rounded(_ credit: Credit) -> Double {
        (credit.value * 1000).rounded() / 1000
    }

    /// JSON keys are strings; parts are numbered.
    private static func keyedByNumber<Value>(_ object: [String: Value], _ decoder: any Decoder) throws -> [Int: Value] {
        var result: [Int: Value] = [:]
        for (key, value) in object {
            guard let number = Int(key) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(key) is no part number."))
            }
            result[number] = value
        }
        return result
    }

    /// The JSON `encode(to:)` writes, written directly: this runs once per answer, and a
    /// `JSONEncoder` costs some 30 times as much as these few appends.
    public var stored: String {
        var json = late ? #"{"tooLate":true,"# : "{"
        if let partialCredit { json += #""credit":\#(Self.rounded(partialCredit)),"# }
        switch answer {
        case .choice(let id): json += #""choiceId":\#(id)"#
        case .choices(let ids): json += #""choiceIds":[\#(ids.sorted().map(String.init).joined(separator: ","))]"#
        case .bool(let value): json += #""value":\#(value)"#
        case .text(let text): json += #""text":"# + JSONText.quoted(text)
        // JSON has no infinity: such a number (never graded right) keeps its spelling as text.
        case .number(let number) where !number.isFinite: json += #""text":"# + JSONText.quoted(String(number))
        case .number(let number): json += #""number":\#(number)"#
        case .order(let order): json += #""order":[\#(order.map(String.init).joined(separator: ","))]"#
        case .matches(let matches):
            json += #""matches":{"# + matches.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}"
        case .gaps(let gaps):
            json += #""gaps":{"# + gaps.sorted { $0.key < $1.key }.map { key, value in
                switch value {
                case .choice(let id): #""\#(key)":{"choiceId":\#(id)}"#
                case .text(let text): #""\#(key)":{"text":"# + JSONText.quoted(text) + "}"
                }
            }.joined(separator: ",") + "}"
        case .read: json += #""read":true"#
        }
        return json + "}"
    }

    /// Reads a stored row; nil for one that holds no answer (none was ever written).
    public init?(stored: String) {
        guard let read = try? JSONDecoder().decode(GivenAnswer.self, from: Data(stored.utf8)) else { return nil }
        self = read
    }
}
