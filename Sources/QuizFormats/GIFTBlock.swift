/// One question of a GIFT file as the parser sees it: the lines between two blank lines, each
/// trimmed, comment lines (`//…`) left out, joined by "\n" — what Moodle reads too.
///
/// Each escape `\X` (X one of `\ ~ = # { } : n`) is stored as the two bytes 0xFF, X | 0x80, so no
/// search for a control character finds an escaped one; 0xFF never occurs in UTF-8, and an escape
/// keeps its length, so every offset still maps back to a line and column of the file.
struct GIFTBlock {
    struct Line {
        /// 1-based line number in the file.
        var number: Int
        /// Offset in the file of the line's first byte, and of its first byte after indentation.
        var lineStart: Int
        var start: Int
        /// Where the line's text starts in `text`.
        var offset: Int
    }

    let text: UnsafeBufferPointer<UInt8>
    let lines: [Line]
    let input: UnsafeBufferPointer<UInt8>

    /// The line and (1-based, in characters) column of the file byte behind `offset` in `text`.
    func location(of offset: Int) -> (line: Int, column: Int) {
        var low = 0
        var high = lines.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lines[middle].offset <= offset { low = middle } else { high = middle - 1 }
        }
        let line = lines[low]
        let position = min(line.start + max(0, offset - line.offset), input.count)
        var column = 1
        for index in line.lineStart..<position where input[index] & 0xC0 != 0x80 { column += 1 }
        return (line.number, column)
    }

    func problem(at offset: Int, question: String?, _ message: String) -> FormatProblem {
        let (line, column) = location(of: offset)
        return FormatProblem(line: line, column: column, question: question?.isEmpty == false ? question : nil, message: message)
    }

    // MARK: - Searching, with escaped characters never matching

    func first(_ byte: UInt8, in range: Range<Int>) -> Int? {
        var i = range.lowerBound
        while i < range.upperBound {
            if text[i] == byte { return i }
            i += 1
        }
        return nil
    }

    func contains(_ byte: UInt8, in range: Range<Int>) -> Bool { first(byte, in: range) != nil }

    /// The first `a` followed by `b` (such as "::" or "->") in `range`.
    func first(_ a: UInt8, _ b: UInt8, in range: Range<Int>) -> Int? {
        var i = range.lowerBound
        while i + 1 < range.upperBound {
            if text[i] == a && text[i + 1] == b { return i }
            i += 1
        }
        return nil
    }

    /// The last "####" in `range`, where the general feedback starts.
    func lastGeneralFeedbackMark(in range: Range<Int>) -> Int? {
        var i = range.upperBound - 4
        while i >= range.lowerBound {
            if text[i] == 0x23 && text[i + 1] == 0x23 && text[i + 2] == 0x23 && text[i + 3] == 0x23 { return i }
            i -= 1
        }
        return nil
    }

    func trimmed(_ range: Range<Int>) -> Range<Int> { GIFTText.trimmed(text, range) }

    func string(_ range: Range<Int>, format: GIFTFormat) -> String { GIFTText.decode(text, range, format: format) }

    /// A text that may start with its own format tag, else is in `format` (the question's).
    func taggedString(_ range: Range<Int>, format: GIFTFormat) -> String {
        let (own, rest) = GIFTText.format(in: text, trimmed(range), fallback: format)
        return GIFTText.decode(text, rest, format: own)
    }

    /// The bytes of `range` exactly, for short ASCII pieces such as "TRUE" or a weight.
    func equals(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        let bytes = literal.utf8Start
        for (k, i) in range.enumerated() where text[i] != bytes[k] { return false }
        return true
    }

    /// The text of a short piece with escapes resolved, for messages; a long one is cut short.
    func quoted(_ range: Range<Int>) -> String {
        let limit = 40
        guard range.count > limit else { return "\"" + string(range, format: .plain) + "\"" }
        var end = range.lowerBound + limit
        // Cut before a whole character, and never inside an escape.
        while end > range.lowerBound && (text[end] & 0xC0 == 0x80 || text[end - 1] == GIFTText.escapeMarker) { end -= 1 }
        return "\"" + string(range.lowerBound..<end, format: .plain) + "…\""
    }
}
