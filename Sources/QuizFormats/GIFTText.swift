/// The text formats a GIFT text may declare with a leading tag: `[moodle]` (the default, where
/// HTML is allowed and a line break is a line break), `[html]`, `[plain]` and `[markdown]`.
enum GIFTFormat: Sendable {
    case moodle, html, plain, markdown

    /// HTML formats are shown by Moodle as HTML, so Quizbox, which shows plain text, converts them.
    var isHTML: Bool { self == .moodle || self == .html }
}

/// Turns the bytes of one GIFT text (a stem, an answer, a feedback) into the plain text Quizbox
/// shows: escapes resolved, and for the HTML formats tags stripped (`<br>` and block ends become
/// line breaks), entities decoded and white space collapsed as a browser would.
///
/// The bytes come from a `GIFTBlock`, where an escape `\X` is stored as 0xFF followed by X | 0x80.
enum GIFTText {
    static let escapeMarker: UInt8 = 0xFF

    /// The format named by a tag at the start of `range`, and the range after the tag; `fallback`
    /// and `range` unchanged when there is no tag. Unknown tags such as `[info]` are text, as in Moodle.
    static func format(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, fallback: GIFTFormat) -> (GIFTFormat, Range<Int>) {
        guard range.count >= 6, text[range.lowerBound] == UInt8(ascii: "[") else { return (fallback, range) }
        let nameStart = range.lowerBound + 1
        var end = nameStart
        while end < range.upperBound && end - nameStart <= 8 && text[end] != UInt8(ascii: "]") { end += 1 }
        guard end < range.upperBound && text[end] == UInt8(ascii: "]") else { return (fallback, range) }
        let name = String(decoding: UnsafeBufferPointer(rebasing: text[nameStart..<end]), as: UTF8.self).lowercased()
        let format: GIFTFormat
        switch name {
        case "moodle": format = .moodle
        case "html": format = .html
        case "plain": format = .plain
        case "markdown": format = .markdown
        default: return (fallback, range)
        }
        return (format, trimmed(text, (end + 1)..<range.upperBound))
    }

    /// `range` without the spaces, tabs and line breaks around it.
    static func trimmed(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && isSpace(text[lower]) { lower += 1 }
        while upper > lower && isSpace(text[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C || byte == 0
    }

    /// The text of `range` in `format`, trimmed.
    static func decode(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, format: GIFTFormat) -> String {
        let range = trimmed(text, range)
        guard needsWork(text, range, format) else {
            return String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
        }
        if format.isHTML {
            return GIFTHTML.plainText(text, range, format: format)
        }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let byte = text[i]
            if byte == escapeMarker && i + 1 < range.upperBound {
                out.append(unescaped(text[i + 1]))
                i += 2
            } else {
                out.append(byte)
                i += 1
            }
        }
        return out.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[trimmed(buffer, 0..<buffer.count)]), as: UTF8.self)
        }
    }

    /// The character an escape stands for, given the byte stored after the marker.
    @inline(__always)
    static func unescaped(_ stored: UInt8) -> UInt8 {
        let byte = stored & 0x7F
        return byte == UInt8(ascii: "n") ? 0x0A : byte
    }

    /// Whether the bytes can be taken as they are: no escape, and for HTML formats nothing a
    /// browser would change (a tag, an entity, a line break or other control character, or two
    /// spaces in a row). `GIFTHTML` must give the same text for whatever this lets through.
    private static func needsWork(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ format: GIFTFormat) -> Bool {
        let html = format.isHTML
        // A no-break space (C2 A0) at either end is trimmed away by `GIFTHTML`.
        if html && range.count >= 2
            && ((text[range.lowerBound] == 0xC2 && text[range.lowerBound + 1] == 0xA0)
                || (text[range.upperBound - 2] == 0xC2 && text[range.upperBound - 1] == 0xA0)) {
            return true
        }
        var previousSpace = false
        for i in range {
            let byte = text[i]
            if byte == escapeMarker { return true }
            // Most bytes are letters: one comparison sends them on.
            guard html && (byte <= UInt8(ascii: "&") || byte == UInt8(ascii: "<")) else {
                previousSpace = false
                continue
            }
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "&"), 0..<0x20: return true  // control characters are white space to HTML
            case 0x20:
                if previousSpace { return true }
                previousSpace = true
                continue
            default: break
            }
            previousSpace = false
        }
        return false
    }
}
