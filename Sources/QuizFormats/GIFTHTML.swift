/// The plain text a browser would show for a GIFT text in an HTML format, which is what Quizbox
/// keeps: tags are dropped, `<br>` is a line break and the ends of blocks (`</p>`, `</div>`,
/// `<li>`, …) start a new line, list items get a "- ", runs of white space become one space,
/// comments and the contents of `<script>` and `<style>` disappear, and entities are decoded
/// (`HTMLEntities`). Lines are trimmed, including of no-break spaces, and at most one empty line
/// is kept between paragraphs.
///
/// In `[html]` any tag is stripped; in the default `[moodle]` format, where text is often meant
/// literally ("a<b"), only known HTML tag names are, and a line break in the source is kept.
/// Once a `<` turns out to open nothing that ends, the rest of the text is read as text, which
/// keeps the work linear on any input.
enum GIFTHTML {
    static func plainText(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, format: GIFTFormat) -> String {
        let keepsLineBreaks = format == .moodle
        var out = Output()
        out.bytes.reserveCapacity(range.count)
        var tagsPossible = true
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let byte = text[i]
            switch byte {
            case GIFTText.escapeMarker where i + 1 < end:
                let character = GIFTText.unescaped(text[i + 1])
                if character == 0x0A {
                    if keepsLineBreaks { out.lineBreak() } else { out.space() }
                } else {
                    out.append(character)
                }
                i += 2
            case 0x20, 0x09, 0x0D, 0x0B, 0x0C, 0:
                out.space()
                i += 1
            case 0x0A:
                if keepsLineBreaks { out.lineBreak() } else { out.space() }
                i += 1
            case UInt8(ascii: "<") where tagsPossible:
                switch GIFTHTMLTag.read(text, at: i, end: end, anyName: format == .html) {
                case .tag(let tag, let next):
                    out.apply(tag)
                    i = next
                case .text:
                    out.append(byte)
                    i += 1
                case .unterminated:
                    tagsPossible = false
                    out.append(byte)
                    i += 1
                }
            default:
                out.append(byte)
                i += 1
            }
        }
        var result = out.finish()
        if out.bytes.contains(UInt8(ascii: "&")) {
            result = HTMLEntities.decode(result)
            if result.unicodeScalars.contains("\u{A0}") { result = trimmingLines(result) }
        } else if out.hasNoBreakSpace {
            result = trimmingLines(result)
        }
        return result
    }

    /// Each line without the spaces and no-break spaces around it, without empty lines at either
    /// end, and with at most one empty line in a row.
    static func trimmingLines(_ text: String) -> String {
        func isBlank(_ c: Character) -> Bool { c == " " || c == "\u{A0}" || c == "\t" }
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var trimmed = line.drop(while: isBlank)
            while let last = trimmed.last, isBlank(last) { trimmed.removeLast() }
            if trimmed.isEmpty && (lines.last?.isEmpty ?? true) { continue }
            lines.append(trimmed)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// The text being built, with white space collapsed as it is written.
    struct Output {
        var bytes: [UInt8] = []
        private var pendingSpace = false

        mutating func append(_ byte: UInt8) {
            if pendingSpace {
                if let last = bytes.last, last != 0x0A { bytes.append(0x20) }
                pendingSpace = false
            }
            bytes.append(byte)
        }

        mutating func space() { pendingSpace = true }

        /// `<br>` or a line break the format keeps; a third break in a row is dropped.
        mutating func lineBreak() {
            pendingSpace = false
            guard !bytes.isEmpty else { return }
            let count = bytes.count
            if count >= 2 && bytes[count - 1] == 0x0A && bytes[count - 2] == 0x0A { return }
            bytes.append(0x0A)
        }

        /// The start or end of a block: a new line unless one has just begun.
        mutating func blockBreak() {
            pendingSpace = false
            if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
        }

        mutating func apply(_ tag: GIFTHTMLTag.Kind) {
            switch tag {
            case .inline: break
            case .lineBreak: lineBreak()
            case .block: blockBreak()
            case .listItem:
                blockBreak()
                append(UInt8(ascii: "-"))
                space()
            case .cell: space()
            }
        }

        /// Whether a U+00A0 (bytes C2 A0) was written, which lines may have to lose at their ends.
        var hasNoBreakSpace: Bool {
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == 0xA0 && previous == 0xC2 { return true }
                previous = byte
            }
            return false
        }

        func finish() -> String {
            var upper = bytes.count
            while upper > 0 && (bytes[upper - 1] == 0x0A || bytes[upper - 1] == 0x20) { upper -= 1 }
            return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[0..<upper]), as: UTF8.self) }
        }
    }
}
