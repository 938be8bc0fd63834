import Foundation

/// What the server sends a host's screen or a player's phone. Each case's payload is the
/// message's fields beside `type` and `v`.
public enum LiveServerMessage: Sendable, Equatable {
    /// A player's greeting accepted; the game's state follows.
    case joined(Joined)
    /// A host's greeting accepted; the roster and the game's state follow.
    case hosting(Hosting)
    /// The host's roster.
    case players(Roster)
    case question(Question)
    /// Answers so far (host only).
    case progress(Progress)
    /// A word cloud as it grows (host only) or after the host hid an entry (everyone, once shown).
    case cloud(Cloud)
    case reveal(Reveal)
    /// A player's own outcome of a question.
    case result(Result)
    case leaderboard(Leaderboard)
    case ended(Ended)
    /// The host's screen went away or came back.
    case host(Host)
    /// The host removed this player; the server closes the socket.
    case kicked
    /// A player's answer is stored.
    case ack(Ack)
    case error(Failure)

    /// The `type` of each message.
    public enum Kind: String, Sendable, CaseIterable {
        case joined, hosting, players, question, progress, cloud, reveal, result, leaderboard, ended, host, kicked, ack, error
    }

    public var kind: Kind {
        switch self {
        case .joined: .joined
        case .hosting: .hosting
        case .players: .players
        case .question: .question
        case .progress: .progress
        case .cloud: .cloud
        case .reveal: .reveal
        case .result: .result
        case .leaderboard: .leaderboard
        case .ended: .ended
        case .host: .host
        case .kicked: .kicked
        case .ack: .ack
        case .error: .error
        }
    }

    /// The message as the server sends it: keys sorted, slashes unescaped, `"v": 1`. `result` and
    /// `ack`, sent to every player at once, are written by hand (`fastText`) the same way.
    public var text: String { fastText ?? LiveProtocol.text(self) }

    /// Reads one text frame. A `type` this side does not know throws `LiveProtocol.UnknownType`;
    /// a known one with a field missing or of another type, a `DecodingError`.
    public init(text: String) throws {
        self = try Self.decoder.decode(Self.self, from: Data(text.utf8))
    }

    private static let decoder = JSONDecoder()
    private enum Tag: String, CodingKey { case type, v }
}

extension LiveServerMessage: Codable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .joined(let payload): try payload.encode(to: encoder)
        case .hosting(let payload): try payload.encode(to: encoder)
        case .players(let payload): try payload.encode(to: encoder)
        case .question(let payload): try payload.encode(to: encoder)
        case .progress(let payload): try payload.encode(to: encoder)
        case .cloud(let payload): try payload.encode(to: encoder)
        case .reveal(let payload): try payload.encode(to: encoder)
        case .result(let payload): try payload.encode(to: encoder)
        case .leaderboard(let payload): try payload.encode(to: encoder)
        case .ended(let payload): try payload.encode(to: encoder)
        case .host(let payload): try payload.encode(to: encoder)
        case .kicked: break
        case .ack(let payload): try payload.encode(to: encoder)
        case .error(let payload): try payload.encode(to: encoder)
        }
        var tag = encoder.container(keyedBy: Tag.self)
        try tag.encode(kind.rawValue, forKey: .type)
        try tag.encode(LiveProtocol.version, forKey: .v)
    }

    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: Tag.self).decode(String.self, forKey: .type)
        guard let kind = Kind(rawValue: type) else { throw LiveProtocol.UnknownType(type: type) }
        switch kind {
        case .joined: self = .joined(try Joined(from: decoder))
        case .hosting: self = .hosting(try Hosting(from: decoder))
        case .players: self = .players(try Roster(from: decoder))
        case .question: self = .question(try Question(from: decoder))
        case .progress: self = .progress(try Progress(from: decoder))
        case .cloud: self = .cloud(try Cloud(from: decoder))
        case .reveal: self = .reveal(try Reveal(from: decoder))
        case .result: self = .result(try Result(from: decoder))
        case .leaderboard: self = .leaderboard(try Leaderboard(from: decoder))
        case .ended: self = .ended(try Ended(from: decoder))
        case .host: self = .host(try Host(from: decoder))
        case .kicked: self = .kicked
        case .ack: self = .ack(try Ack(from: decoder))
        case .error: self = .error(try Failure(from: decoder))
        }
    }
}
