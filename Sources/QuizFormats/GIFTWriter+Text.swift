import QuizCore

extension GIFTWriter {
    /// A text escaped for GIFT, tagged with `tag` when it starts with something that reads as a
    /// format tag ("[html] is a format").
    static func piece(_ text: String, tag: String) -> String {
        startsWithFormatTag(text) ? tag + escape(text) : escape(text)
    }

    /// Every GIFT control character behind a backslash, and line breaks as `\n`.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\\", "~", "=", "#", "{", "}", ":":
                out.unicodeScalars.append("\\")
                out.unicodeScalars.append(scalar)
            case "\n":
                if !afterCarriageReturn { out += "\\n" }
            case "\r":
                out += "\\n"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func startsWithFormatTag(_ text: String) -> Bool {
        let lowered = text.prefix(10).lowercased()
        return ["[moodle]", "[html]", "[plain]", "[markdown]"].contains { lowered.hasPrefix($0) }
    }

    /// Whether the default `[moodle]` format would show any of the question's texts differently
    /// from how it is written (markup, entities, repeated spaces), or the text could be misread
    /// (a leading "//" makes a comment line), so that the question must be tagged `[plain]`.
    static func needsPlainFormat(_ question: Question) -> Bool {
        if question.text.hasPrefix("//") || startsWithFormatTag(question.text) { return true }
        var texts = [question.text]
        if let explanation = question.explanation { texts.append(explanation) }
        texts += question.body.choices.map(\.text)
        return texts.contains { text in
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                GIFTText.decode(bytes, 0..<bytes.count, format: .moodle) != GIFTText.decode(bytes, 0..<bytes.count, format: .plain)
            }
        }
    }

    /// A subject or topic name in a `$CATEGORY:` path: "/" doubled as Moodle expects, backslashes
    /// escaped, line breaks as spaces.
    static func categoryName(_ name: String) -> String {
        var out = ""
        for character in name {
            switch character {
            case "/": out += "//"
            case "\\": out += "\\\\"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    /// A weight with at most five decimals, as Moodle writes them: "50", "33.33333".
    static func weightText(_ percent: Double) -> String {
        if percent < 0 { return "-" + weightText(-percent) }
        let scaled = Int((percent * 100_000).rounded())
        let whole = scaled / 100_000
        var fraction = scaled % 100_000
        guard fraction != 0 else { return String(whole) }
        var digits = 5
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let padded = String(repeating: "0", count: digits - String(fraction).count) + String(fraction)
        return "\(whole).\(padded)"
    }

    /// A number that reads back exactly: "42", "-3.5", "1e-05".
    static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
