import Foundation

/// Reading a client's message: every field of its type, `"v": 1`, the fields its type needs, and
/// an answer of exactly one field. Unknown fields are ignored.
extension LiveClientMessage: Decodable {
    /// Why a text is not a message; in the order the checks are made.
    public enum ReadError: Error, Equatable {
        /// Over `LiveProtocol.maxMessageBytes`.
        case tooLarge
        /// Not one JSON object, or a known field of another type.
        case malformed
        /// `v` missing or not 1.
        case version(type: String?)
        case missing(field: String, type: String)
        /// `answer` without exactly one of its fields, or one the reader does not accept.
        case badAnswer
        case unknownType(String?)

        /// The `type` of the message it answers, as far as it could be read.
        public var type: String? {
            switch self {
            case .tooLarge, .malformed: nil
            case .version(let type), .unknownType(let type): type
            case .missing(_, let type): type
            case .badAnswer: Kind.answer.rawValue
            }
        }
    }

    /// Reads one text frame. `accepting` is the reader's own limits on an answer (sizes, counts):
    /// an answer it refuses is a `badAnswer`, checked before the question's index is.
    public static func read(_ text: String, accepting: (Answer) -> Bool = { _ in true }) throws(ReadError) -> LiveClientMessage {
        guard text.utf8.count <= LiveProtocol.maxMessageBytes else { throw .tooLarge }
        let raw: Raw
        do {
            raw = try decoder.decode(Raw.self, from: Data(text.utf8))
        } catch {
            throw .malformed
        }
        return try raw.message(accepting: accepting)
    }

    public init(from decoder: any Decoder) throws {
        self = try Raw(from: decoder).message(accepting: { _ in true })
    }

    private static let decoder = JSONDecoder()

    /// Every field any message may carry, each of its type.
    private struct Raw: Decodable {
        struct GivenAnswer: Decodable {
            var answer: Answer?
            init(from decoder: any Decoder) throws { answer = try Answer.read(from: decoder) }
        }

        var v: Int?
        var type: String?
        var game: Int64?
        var pin: String?
        var nickname: String?
        var team: Int?
        var player: Int?
        var secret: String?
        var code: String?
        var question: Int?
        var answer: GivenAnswer?
        var settings: LiveProtocol.Settings?
        var locked: Bool?
        var key: String?

        func message(accepting: (Answer) -> Bool) throws(ReadError) -> LiveClientMessage {
            guard v == LiveProtocol.version else { throw .version(type: type) }
            guard let type, let kind = Kind(rawValue: type) else { throw .unknownType(type) }
            func need<T>(_ value: T?, _ field: Field) throws(ReadError) -> T {
                guard let value else { throw .missing(field: field.rawValue, type: type) }
                return value
            }
            switch kind {
            case .host: return .host(game: try need(game, .game))
            case .join: return .join(pin: try need(pin, .pin), nickname: try need(nickname, .nickname), team: team)
            case .resume: return .resume(pin: try need(pin, .pin), player: try need(player, .player), secret: try need(secret, .secret))
            case .rejoin: return .rejoin(pin: try need(pin, .pin), nickname: try need(nickname, .nickname), code: try need(code, .code))
            case .answer:
                guard let given = answer?.answer, accepting(given) else { throw .badAnswer }
                return .answer(question: try need(question, .question), answer: given)
            case .settings: return .settings(try need(settings, .settings))
            case .start: return .start
            case .close: return .close
            case .next: return .next
            case .end: return .end
            case .kick: return .kick(player: try need(player, .player))
            case .lock: return .lock(locked: try need(locked, .locked))
            case .hide: return .hide(question: try need(question, .question), key: try need(key, .key))
            }
        }
    }
}
