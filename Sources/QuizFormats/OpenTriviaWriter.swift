import Foundation

/// Strings as Open Trivia DB's API writes them under each `encode` value, for Quizbox's compatible
/// API: the inverse of `OpenTriviaReader.decode`. Every string field of a result goes through it,
/// `type` and `difficulty` included, as the original does.
public enum OpenTriviaWriter {
    /// The encoding an `encode` query value names: none (or empty) is the HTML default; anything
    /// else unknown is nil, which the API answers as an invalid parameter.
    public static func encoding(parameter: String?) -> OpenTriviaReader.Encoding? {
        switch parameter {
        case nil, ""?: .htmlEntities
        case "urlLegacy"?: .urlLegacy
        case "url3986"?: .url3986
        case "base64"?: .base64
        default: nil
        }
    }

    public static func encode(_ text: String, _ encoding: OpenTriviaReader.Encoding) -> String {
        switch encoding {
        case .htmlEntities: htmlSpecialCharacters(text)
        // PHP's urlencode: "+" for a space, "~" escaped.
        case .urlLegacy: percentEncode(text, keep: Array("-_.".utf8), spaceAsPlus: true)
        // PHP's rawurlencode: RFC 3986's unreserved characters stay.
        case .url3986: percentEncode(text, keep: Array("-_.~".utf8), spaceAsPlus: false)
        case .base64: Data(text.utf8).base64EncodedString()
        }
    }

    /// PHP's htmlspecialchars with ENT_QUOTES, which Open Trivia DB's default output matches:
    /// other characters stay as they are.
    static func htmlSpecialCharacters(_ text: String) -> String {
        guard text.utf8.contains(where: { "&<>\"'".utf8.contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#039;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    static func percentEncode(_ text: String, keep: [UInt8], spaceAsPlus: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.append(byte)
            case UInt8(ascii: " ") where spaceAsPlus:
                out.append(UInt8(ascii: "+"))
            case _ where keep.contains(byte):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
