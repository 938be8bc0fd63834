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
            // A nickname with a control character (which nicknames refuse anyway) goes through
            // `Codable`, so the bytes are always the ones it writes; quotes and backslashes are
            // escaped as it escapes them, anything else is written as it is.
            guard let nickname = Self.plainJSONString(ahead.nickname) else { return LiveProtocol.text(LiveServerMessage.result(result)) }
            behind = #""behind":{"nickname":"# + nickname + #","points":\#(ahead.points)},"#
        }
        let credit = result.credit.map { #""credit":\#($0),"# } ?? ""
        return #"{"answered":\#(result.answered),"# + behind
            + #""bonus":\#(result.bonus),"correct":\#(result.correct),"# + credit + #""index":\#(result.index),"#
            + #""late":\#(result.late),"points":\#(result.points),"rank":\#(result.rank),"score":\#(result.score),"#
            + #""streak":\#(result.streak),"type":"result","v":\#(LiveProtocol.version)}"#
    }

    /// `text` as a JSON string, quoted, the way `JSONEncoder` writes it; nil when it holds a
    /// control character (JSONEncoder has its own spellings for those).
    static func plainJSONString(_ text: String) -> String? {
        var written = "\""
        written.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": written += "\\\""
            case "\\": written += "\\\\"
            case _ where scalar.value < 0x20: return nil
            default: written.unicodeScalars.append(scalar)
            }
        }
        return written + "\""
    }

    public static func ack(question: Int) -> String { #"{"question":\#(question),"type":"ack","v":\#(LiveProtocol.version)}"# }
}
