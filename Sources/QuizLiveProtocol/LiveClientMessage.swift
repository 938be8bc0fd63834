import Foundation

/// What a host's screen or a player's phone sends: the greeting first (`host`, `join`, `resume`,
/// `rejoin`), then answers (players) or commands (hosts).
public enum LiveClientMessage: Sendable, Equatable {
    case host(game: Int64)
    /// `team`: 1-based, in team mode only; nil lets the server pick the smallest team.
    case join(pin: String, nickname: String, team: Int?)
    case resume(pin: String, player: Int, secret: String)
    case rejoin(pin: String, nickname: String, code: String)
    case answer(question: Int, answer: Answer)
    case settings(LiveProtocol.Settings)
    case start, close, next, end
    case kick(player: Int)
    case lock(locked: Bool)
    /// A word cloud's entry (`key`, as the cloud names it) hidden from every screen.
    case hide(question: Int, key: String)

    /// The `type` of each message.
    public enum Kind: String, Sendable, CaseIterable {
        case host, join, resume, rejoin, answer, settings, start, close, next, end, kick, lock, hide
    }

    /// An answer: exactly one field, named after the question's kind.
    public enum Answer: Sendable, Equatable {
        case choice(Int)
        case choices([Int])
        case value(Bool)
        case text(String)
        case number(Number)
        /// An ordering's item ids, in the player's order.
        case order([Int])
        /// A matching's answer id for each prompt id.
        case matches([Int: Int])
        /// A gap fill's answer for each gap id.
        case gaps([Int: Gap])
    }

    /// One gap's answer: a choice's id, or typed text.
    public enum Gap: Sendable, Equatable, Codable {
        case choice(Int)
        case text(String)

        enum Field: String, CodingKey { case choice, text }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Field.self)
            switch self {
            case .choice(let id): try container.encode(id, forKey: .choice)
            case .text(let text): try container.encode(text, forKey: .text)
            }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Field.self)
            let choice = try container.decodeIfPresent(Int.self, forKey: .choice)
            let text = try container.decodeIfPresent(String.self, forKey: .text)
            switch (choice, text) {
            case (let id?, nil): self = .choice(id)
            case (nil, let text?): self = .text(text)
            default:
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "A gap's answer has a choice or a text."))
            }
        }
    }

    /// A number may come typed or as the digits a field held ("1,5").
    public enum Number: Sendable, Equatable {
        case digits(String)
        case value(Double)
    }

    public var kind: Kind {
        switch self {
        case .host: .host
        case .join: .join
        case .resume: .resume
        case .rejoin: .rejoin
        case .answer: .answer
        case .settings: .settings
        case .start: .start
        case .close: .close
        case .next: .next
        case .end: .end
        case .kick: .kick
        case .lock: .lock
        case .hide: .hide
        }
    }

    /// Every field any message may carry; which are needed depends on `type`.
    enum Field: String, CodingKey {
        case v, type, game, pin, nickname, team, player, secret, code, question, answer, settings, locked, key
    }

    /// The message as a client sends it: keys sorted, `"v": 1`.
    public var text: String { LiveProtocol.text(self) }
}

extension LiveClientMessage: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Field.self)
        try container.encode(LiveProtocol.version, forKey: .v)
        try container.encode(kind.rawValue, forKey: .type)
        switch self {
        case .host(let game): try container.encode(game, forKey: .game)
        case .join(let pin, let nickname, let team):
            try container.encode(pin, forKey: .pin)
            try container.encode(nickname, forKey: .nickname)
            try container.encodeIfPresent(team, forKey: .team)
        case .resume(let pin, let player, let secret):
            try container.encode(pin, forKey: .pin)
            try container.encode(player, forKey: .player)
            try container.encode(secret, forKey: .secret)
        case .rejoin(let pin, let nickname, let code):
            try container.encode(pin, forKey: .pin)
            try container.encode(nickname, forKey: .nickname)
            try container.encode(code, forKey: .code)
        case .answer(let question, let answer):
            try container.encode(question, forKey: .question)
            try container.encode(answer, forKey: .answer)
        case .settings(let settings): try container.encode(settings, forKey: .settings)
        case .start, .close, .next, .end: break
        case .kick(let player): try container.encode(player, forKey: .player)
        case .lock(let locked): try container.encode(locked, forKey: .locked)
        case .hide(let question, let key):
            try container.encode(question, forKey: .question)
            try container.encode(key, forKey: .key)
        }
    }
}

extension LiveClientMessage.Answer: Codable {
    enum Field: String, CodingKey { case choice, choices, value, text, number, order, matches, gaps }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Field.self)
        switch self {
        case .choice(let id): try container.encode(id, forKey: .choice)
        case .choices(let ids): try container.encode(ids, forKey: .choices)
        case .value(let value): try container.encode(value, forKey: .value)
        case .text(let text): try container.encode(text, forKey: .text)
        case .number(.digits(let digits)): try container.encode(digits, forKey: .number)
        case .number(.value(let value)): try container.encode(value, forKey: .number)
        case .order(let ids): try container.encode(ids, forKey: .order)
        case .matches(let matches): try container.encode(Self.keyed(matches), forKey: .matches)
        case .gaps(let gaps): try container.encode(Self.keyed(gaps), forKey: .gaps)
        }
    }

    /// JSON object keys are strings; parts are numbered.
    static func keyed<Value>(_ parts: [Int: Value]) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: parts.map { (String($0.key), $0.value) })
    }

    static func numbered<Value>(_ object: [String: Value]?) throws -> [Int: Value]? {
        guard let object else { return nil }
        var parts: [Int: Value] = [:]
        for (key, value) in object {
            guard let number = Int(key) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(key) is no part number."))
            }
            parts[number] = value
        }
        return parts
    }

    /// Each field of its type (else a `DecodingError`); nil unless exactly one is given.
    static func read(from decoder: any Decoder) throws -> Self? {
        let container = try decoder.container(keyedBy: Field.self)
        let choice = try container.decodeIfPresent(Int.self, forKey: .choice)
        let choices = try container.decodeIfPresent([Int].self, forKey: .choices)
        let value = try container.decodeIfPresent(Bool.self, forKey: .value)
        let text = try container.decodeIfPresent(String.self, forKey: .text)
        var number: LiveClientMessage.Number?
        if let digits = try? container.decodeIfPresent(String.self, forKey: .number) {
            number = .digits(digits)
        } else if let typed = try container.decodeIfPresent(Double.self, forKey: .number) {
            number = .value(typed)
        }
        let order = try container.decodeIfPresent([Int].self, forKey: .order)
        let matches = try Self.numbered(container.decodeIfPresent([String: Int].self, forKey: .matches))
        let gaps = try Self.numbered(container.decodeIfPresent([String: LiveClientMessage.Gap].self, forKey: .gaps))
        let given = [choice != nil, choices != nil, value != nil, text != nil, number != nil, order != nil, matches != nil, gaps != nil]
            .filter { $0 }.count
        guard given == 1 else { return nil }
        if let order { return .order(order) }
        if let matches { return .matches(matches) }
        if let gaps { return .gaps(gaps) }
        if let choice { return .choice(choice) }
        if let choices { return .choices(choices) }
        if let value { return .value(value) }
        if let text { return .text(text) }
        return number.map(Self.number)
    }

    public init(from decoder: any Decoder) throws {
        guard let answer = try Self.read(from: decoder) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "An answer has exactly one field."))
        }
        self = answer
    }
}
