/// Splits CSV bytes into records of fields (RFC 4180): fields separated by commas, records by LF,
/// CRLF or a lone CR; a field may be quoted, with `""` for a quote inside it and line breaks
/// allowed. Works on bytes directly: the only allocations are the field strings themselves.
///
/// Lenient where it costs nothing: a UTF-8 byte-order mark is skipped, blank lines are skipped,
/// spaces before an opening quote are allowed, and every field is trimmed of spaces and tabs
/// (a reader compares option texts with the answer, where stray spaces would only cause misses).
struct CSVTokenizer {
    struct Record {
        /// Physical line (1-based) the record starts on.
        var line = 1
        /// One entry per field; nil where the field is not valid UTF-8.
        var fields: [String?] = []
        /// Malformed quoting, by 1-based field position.
        var problems: [(column: Int, message: String)] = []
        /// An unclosed quote swallowed the rest of the file into this record.
        var unclosedQuote = false
    }

    /// Where reading stopped, so the next batch carries on from there.
    struct Position {
        var offset = 0
        var line = 1
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
    private static let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")

    static func forEachRecord(in input: UnsafeBufferPointer<UInt8>, _ body: (Record) -> Void) {
        var position = Position()
        forEachRecord(in: input, from: &position) { body($0); return true }
    }

    /// Reads records from `position` until the input ends or `body` returns false (after that
    /// record); `position` is then where the next record starts.
    static func forEachRecord(in input: UnsafeBufferPointer<UInt8>, from position: inout Position, _ body: (Record) -> Bool) {
        let end = input.count
        var i = position.offset == 0 && end >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF ? 3 : position.offset
        var line = position.line
        var record = Record()
        record.fields.reserveCapacity(16)
        var scratch: [UInt8] = []  // a quoted field's bytes, when they are not one contiguous run
        var goOn = true
        defer { position = Position(offset: i, line: line) }

        func emit() {
            goOn = body(record)
            record.fields.removeAll(keepingCapacity: true)
            record.problems.removeAll()
            record.unclosedQuote = false
        }

        while i < end && goOn {
            if record.fields.isEmpty {
                if input[i] == lf || input[i] == cr {  // blank line
                    i = afterLineBreak(input, i)
                    line += 1
                    continue
                }
                record.line = line
            }
            let column = record.fields.count + 1
            var start = i
            while start < end && (input[start] == space || input[start] == tab) { start += 1 }

            if start < end && input[start] == quote {
                i = start + 1
                var runStart = i
                var closed = false
                scratch.removeAll(keepingCapacity: true)
                while i < end {
                    let byte = input[i]
                    if byte == quote {
                        guard i + 1 < end && input[i + 1] == quote else {
                            closed = true
                            break
                        }
                        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart...i]))
                        i += 2
                        runStart = i
                        continue
                    }
                    if byte == lf || (byte == cr && !(i + 1 < end && input[i + 1] == lf)) { line += 1 }
                    i += 1
                }
                var run = UnsafeBufferPointer(rebasing: input[runStart..<i])
                if closed {
                    i += 1
                    var next = i
                    while next < end && (input[next] == space || input[next] == tab) { next += 1 }
                    if next < end && !isDelimiter(input[next]) {
                        record.problems.append((column, "text after a closing quote; inside a quoted field, write \" as \"\""))
                        // Keep the stray text so the field still reads as the author meant it.
                        scratch.append(contentsOf: run)
                        scratch.append(quote)
                        while next < end && !isDelimiter(input[next]) { next += 1 }
                        run = UnsafeBufferPointer(rebasing: input[i..<next])
                    }
                    i = next
                } else {
                    record.problems.append((column, "quoted field is never closed: a \" is missing"))
                    record.unclosedQuote = true
                }
                if scratch.isEmpty {
                    record.fields.append(makeString(run))
                } else {
                    scratch.append(contentsOf: run)
                    record.fields.append(scratch.withUnsafeBufferPointer(makeString))
                }
            } else {
                while i < end && !isDelimiter(input[i]) { i += 1 }
                record.fields.append(makeString(UnsafeBufferPointer(rebasing: input[start..<i])))
            }

            if i >= end {
                emit()
            } else if input[i] == comma {
                i += 1
                if i == end {  // "a,b," ends with an empty field
                    record.fields.append("")
                    emit()
                }
            } else {
                i = afterLineBreak(input, i)
                line += 1
                emit()
            }
        }
    }

    @inline(__always)
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == comma || byte == lf || byte == cr
    }

    /// Index after the line break at `i`; CRLF counts as one.
    @inline(__always)
    private static func afterLineBreak(_ input: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        input[i] == cr && i + 1 < input.count && input[i + 1] == lf ? i + 2 : i + 1
    }

    /// The field's text without surrounding spaces and tabs, or nil when it is not UTF-8.
    private static func makeString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var lower = 0
        var upper = bytes.count
        while lower < upper && (bytes[lower] == space || bytes[lower] == tab) { lower += 1 }
        while upper > lower && (bytes[upper - 1] == space || bytes[upper - 1] == tab) { upper -= 1 }
        if lower == upper { return "" }
        return String(validating: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
    }
}
