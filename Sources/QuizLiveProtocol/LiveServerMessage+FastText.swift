/// Written by hand, numbers and booleans (and a plain nickname), the bytes `JSONEncoder` gives (keys sorted): a
/// `result` goes to every player when a question ends, 10,000 at once in a full game, and an
/// `ack` answers every answer, where encoding through `Codable` was a tenth of the server's time.
/// `LiveProtocolTests` holds them to the `Codable` shape.
extension LiveServerMessage {
    /// nil for messages written through `Codable`.
    public var fastText: String? {
        switch self {
        case .result(let result): Self.text(result)
        case .ack(let ack): Self.ack(question: ack.question)
        default: nil
        }
    }

    public static func text(_ result: Result) -> String {
        var behind = ""
        if let ahead = result.behind {
            // A nickname is written by hand only when no character of it needs escaping; any
            // other goes through `Codable`, so the bytes are always the ones it writes.
            guard ahead.nickname.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
                return LiveProtocol.text(LiveServerMessage.result(result))
            }
            behind = #""behind":{"nickname":"\#(ahead.nickname)","points":\#(ahead.points)},"#
        }
        return #"{"answered":\#(result.answered),"# + behind
            + #""bonus":\#(result.bonus),"correct":\#(result.correct),"index":\#(result.index),"#
            + #""late":\#(result.late),"points":\#(result.points),"rank":\#(result.rank),"score":\#(result.score),"#
            + #""streak":\#(result.streak),"type":"result","v":\#(LiveProtocol.version)}"#
    }

    public static func ack(question: Int) -> String { #"{"question":\#(question),"type":"ack","v":\#(LiveProtocol.version)}"# }
}
