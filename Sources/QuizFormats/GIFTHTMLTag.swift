/// Reads one HTML tag, comment or declaration starting at a `<` of a GIFT text (see `GIFTHTML`).
enum GIFTHTMLTag {
    /// What a tag does to the text around it.
    enum Kind: Equatable {
        case inline, lineBreak, block, listItem, cell
    }

    enum Reading: Equatable {
        /// A tag, and the offset after it (after the element's end for `<script>` and `<style>`).
        case tag(Kind, next: Int)
        /// The `<` opens no tag: it is text.
        case text
        /// It looks like a tag but nothing closes it.
        case unterminated
    }

    static func read(_ text: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, anyName: Bool) -> Reading {
        var i = start + 1
        guard i < end else { return .text }
        let first = text[i]
        if first == UInt8(ascii: "!") || first == UInt8(ascii: "?") {
            if i + 2 < end && text[i + 1] == UInt8(ascii: "-") && text[i + 2] == UInt8(ascii: "-") {
                guard let close = find(Array("-->".utf8), in: text, from: i + 3, end: end) else { return .unterminated }
                return .tag(.inline, next: close + 3)
            }
            guard let close = closingBracket(text, from: i + 1, end: end) else { return .unterminated }
            return .tag(.inline, next: close + 1)
        }
        let closing = first == UInt8(ascii: "/")
        if closing { i += 1 }
        guard i < end, isLetter(text[i]) else { return .text }
        let nameStart = i
        while i < end && isNameByte(text[i]) { i += 1 }
        guard i < end else { return .unterminated }
        let after = text[i]
        guard after == UInt8(ascii: ">") || after == UInt8(ascii: "/") || GIFTText.isSpace(after) else { return .text }
        let name = String(decoding: UnsafeBufferPointer(rebasing: text[nameStart..<i]), as: UTF8.self).lowercased()
        let known = kinds[name]
        guard anyName || known != nil else { return .text }
        guard let close = closingBracket(text, from: i, end: end) else { return .unterminated }
        var next = close + 1
        if !closing && (name == "script" || name == "style") {
            next = afterEndTag(named: Array(name.utf8), in: text, from: next, end: end)
        }
        var kind = known ?? .inline
        if kind == .listItem && closing { kind = .block }
        return .tag(kind, next: next)
    }

    /// The `>` ending a tag whose name ends before `from`, skipping quoted attribute values
    /// (`title="a>b"`); escaped characters count as what they stand for.
    private static func closingBracket(_ text: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int? {
        var quote: UInt8 = 0
        var lastSignificant: UInt8 = 0
        var i = from
        while i < end {
            var byte = text[i]
            var width = 1
            if byte == GIFTText.escapeMarker && i + 1 < end {
                byte = GIFTText.unescaped(text[i + 1])
                width = 2
            }
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: ">") {
                return i
            } else if (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")) && lastSignificant == UInt8(ascii: "=") {
                quote = byte
            }
            if !GIFTText.isSpace(byte) { lastSignificant = byte }
            i += width
        }
        return nil
    }

    /// The offset after `</name…>`, or `end` when the element is never closed (a browser hides
    /// the rest as well).
    private static func afterEndTag(named name: [UInt8], in text: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
        var i = from
        while let open = find([UInt8(ascii: "<"), UInt8(ascii: "/")], in: text, from: i, end: end) {
            let nameEnd = open + 2 + name.count
            if nameEnd <= end && zip(text[(open + 2)..<nameEnd], name).allSatisfy({ $0 | 0x20 == $1 }) {
                return (nameEnd..<end).first { text[$0] == UInt8(ascii: ">") }.map { $0 + 1 } ?? end
            }
            i = open + 2
        }
        return end
    }

    private static func find(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int? {
        guard let first = needle.first, end - from >= needle.count else { return nil }
        var i = from
        while i <= end - needle.count {
            if text[i] == first && (1..<needle.count).allSatisfy({ text[i + $0] == needle[$0] }) { return i }
            i += 1
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
    }

    /// The HTML elements recognised in the `[moodle]` format, and what each does to the text.
    static let kinds: [String: Kind] = {
        var kinds: [String: Kind] = ["br": .lineBreak, "li": .listItem, "td": .cell, "th": .cell]
        let blocks = """
            p div h1 h2 h3 h4 h5 h6 ul ol dl dt dd table tr thead tbody tfoot caption blockquote pre hr
            figure figcaption section article header footer address center nav aside main
            """
        let inline = """
            a abbr acronym b big cite code del dfn em font i img ins kbd mark q s samp small span strike
            strong sub sup tt u var video audio source track iframe object embed param math svg input
            label button picture col colgroup script style wbr bdi bdo time data ruby rt rp nobr
            """
        for name in blocks.split(whereSeparator: \.isWhitespace) { kinds[String(name)] = .block }
        for name in inline.split(whereSeparator: \.isWhitespace) { kinds[String(name)] = .inline }
        return kinds
    }()
}
