import Foundation

/// A streaming reader of the XML a worksheet and its shared strings are written in, over bytes:
/// start tags (with their attributes read on demand), end tags and text, handed to a handler
/// as they come. It exists for speed: Foundation's `XMLParser` spends about 11 µs a row of
/// Kahoot's template on its own events (a dictionary of attributes per element, a string per
/// name), which alone is under 100,000 rows a second; this reads a row in about a microsecond.
///
/// It checks what a reader must to be safe and to say "damaged" rather than guess: tags nest and
/// close, attribute values are quoted, text is UTF-8, and only XML's five entities and numeric
/// character references appear. A DOCTYPE (so any entity declaration) is refused, processing
/// instructions and comments are skipped, CDATA is text. It is not a validating parser: the
/// workbook's other parts, small and read once, still go through `XMLParser`.
struct XLSXScanner {
    /// Element names a handler tells apart without making a string (local names, any prefix).
    enum Name: Equatable {
        case row, c, v, `is`, t, rPh, f, si, r, other
    }

    /// A start tag's bytes, read for an attribute only when asked.
    struct Tag {
        let bytes: UnsafeBufferPointer<UInt8>
        let range: Range<Int>

        /// The value of the attribute `name` (local name, ASCII), decoded; nil when absent.
        func attribute(_ name: StaticString) -> String? {
            let want = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            var i = range.lowerBound
            let end = range.upperBound
            while i < end {
                // An attribute name: after a space, up to "=".
                guard XLSXScanner.isSpace(bytes[i]) else { i += 1; continue }
                while i < end, XLSXScanner.isSpace(bytes[i]) { i += 1 }
                let nameStart = i
                while i < end, bytes[i] != UInt8(ascii: "="), !XLSXScanner.isSpace(bytes[i]) { i += 1 }
                var local = nameStart
                for j in nameStart..<i where bytes[j] == UInt8(ascii: ":") { local = j + 1 }
                let matches = i - local == want.count && (0..<want.count).allSatisfy { bytes[local + $0] == want[$0] }
                while i < end, bytes[i] != UInt8(ascii: "\"") && bytes[i] != UInt8(ascii: "'") { i += 1 }
                guard i < end else { return nil }
                let quote = bytes[i]
                let valueStart = i + 1
                i = valueStart
                while i < end, bytes[i] != quote { i += 1 }
                if matches { return XLSXScanner.decode(UnsafeBufferPointer(rebasing: bytes[valueStart..<min(i, end)])) }
                i += 1
            }
            return nil
        }
    }

    enum Failure: Error {
        /// The XML itself is wrong at this byte offset.
        case malformed(offset: Int, Kind)
        /// A handler's own refusal (a limit, a damaged cell).
        case problem(FormatProblem)
        /// A handler has read enough.
        case stop
    }

    enum Kind {
        case doctype, entity, encoding, structure

        var message: String {
            switch self {
            case .doctype: "a <!DOCTYPE> declaration (entities), which spreadsheets do not write: the workbook is not imported"
            case .entity: "an entity XML does not define, which spreadsheets do not write: the workbook is not imported"
            case .encoding: "text in the workbook is not UTF-8: the file is damaged"
            case .structure: "the workbook's XML is malformed: the file is damaged"
            }
        }
    }

    /// Nesting deeper than this is no spreadsheet (a sheet's text nests five levels).
    static let maxDepth = 64

    /// Reads `bytes` to the end, or throws the first problem with its byte offset.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, start: (Name, Tag) throws(Failure) -> Void,
                     end: (Name) throws(Failure) -> Void,
                     text: (_ bytes: UnsafeBufferPointer<UInt8>, _ cdata: Bool) throws(Failure) -> Void) throws(Failure) {
        // A text's problem is found by the handler, which knows no offset: it says -1, filled in here.
        func hand(_ range: Range<Int>, cdata: Bool) throws(Failure) {
            do {
                try text(UnsafeBufferPointer(rebasing: bytes[range]), cdata)
            } catch {
                if case .malformed(-1, let kind) = error { throw .malformed(offset: range.lowerBound, kind) }
                throw error
            }
        }
        var open: [Range<Int>] = []  // the names of the open elements, as byte ranges
        var sawRoot = false
        var i = 0
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        func find(_ a: UInt8, _ b: UInt8, from: Int) -> Int? {
            var j = from
            while j + 1 < count {
                if bytes[j] == a && bytes[j + 1] == b { return j }
                j += 1
            }
            return nil
        }
        while i < count {
            guard bytes[i] == UInt8(ascii: "<") else {
                // Text up to the next tag.
                var j = i
                while j < count, bytes[j] != UInt8(ascii: "<") { j += 1 }
                if open.isEmpty {
                    guard (i..<j).allSatisfy({ isSpace(bytes[$0]) }) else { throw .malformed(offset: i, .structure) }
                } else {
                    try hand(i..<j, cdata: false)
                }
                i = j
                continue
            }
            guard i + 1 < count else { throw .malformed(offset: i, .structure) }
            let next = bytes[i + 1]
            if next == UInt8(ascii: "?") {
                guard let close = find(UInt8(ascii: "?"), UInt8(ascii: ">"), from: i + 2) else {
                    throw .malformed(offset: i, .structure)
                }
                i = close + 2
            } else if next == UInt8(ascii: "!") {
                if matches(bytes, at: i, "<!--") {
                    var j = i + 4
                    while j + 2 < count, !(bytes[j] == UInt8(ascii: "-") && bytes[j + 1] == UInt8(ascii: "-") && bytes[j + 2] == UInt8(ascii: ">")) { j += 1 }
                    guard j + 2 < count else { throw .malformed(offset: i, .structure) }
                    i = j + 3
                } else if matches(bytes, at: i, "<![CDATA[") {
                    guard !open.isEmpty else { throw .malformed(offset: i, .structure) }
                    var j = i + 9
                    while j + 2 < count, !(bytes[j] == UInt8(ascii: "]") && bytes[j + 1] == UInt8(ascii: "]") && bytes[j + 2] == UInt8(ascii: ">")) { j += 1 }
                    guard j + 2 < count else { throw .malformed(offset: i, .structure) }
                    try hand((i + 9)..<j, cdata: true)
                    i = j + 3
                } else if matches(bytes, at: i, "<!DOCTYPE") {
                    throw .malformed(offset: i, .doctype)
                } else {
                    throw .malformed(offset: i, .structure)
                }
            } else if next == UInt8(ascii: "/") {
                var j = i + 2
                while j < count, bytes[j] != UInt8(ascii: ">") { j += 1 }
                guard j < count else { throw .malformed(offset: i, .structure) }
                var nameEnd = i + 2
                while nameEnd < j, !isSpace(bytes[nameEnd]) { nameEnd += 1 }
                guard let last = open.popLast(), last.count == nameEnd - (i + 2),
                      (0..<last.count).allSatisfy({ bytes[last.lowerBound + $0] == bytes[i + 2 + $0] }) else {
                    throw .malformed(offset: i, .structure)
                }
                try end(name(bytes, last))
                i = j + 1
            } else {
                // A start tag: its name, then attributes with quoted values, then ">" or "/>".
                let nameStart = i + 1
                var j = nameStart
                while j < count, !isSpace(bytes[j]), bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: "/") { j += 1 }
                guard j > nameStart else { throw .malformed(offset: i, .structure) }
                let nameRange = nameStart..<j
                var quote: UInt8 = 0
                while j < count {
                    let byte = bytes[j]
                    if quote != 0 {
                        if byte == quote { quote = 0 } else if byte == UInt8(ascii: "<") { throw .malformed(offset: j, .structure) }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                    } else if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "<") {
                        break
                    }
                    j += 1
                }
                guard j < count, bytes[j] == UInt8(ascii: ">") else { throw .malformed(offset: i, .structure) }
                let selfClosing = bytes[j - 1] == UInt8(ascii: "/")
                guard open.isEmpty ? !sawRoot : true else { throw .malformed(offset: i, .structure) }
                sawRoot = true
                let element = name(bytes, nameRange)
                try start(element, Tag(bytes: bytes, range: nameRange.upperBound..<(selfClosing ? j - 1 : j)))
                if selfClosing {
                    try end(element)
                } else {
                    guard open.count < maxDepth else { throw .malformed(offset: i, .structure) }
                    open.append(nameRange)
                }
                i = j + 1
            }
        }
        guard open.isEmpty else { throw .malformed(offset: count, .structure) }
        guard sawRoot else { throw .malformed(offset: count, .structure) }
    }

    private static func name(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Name {
        var start = range.lowerBound
        for j in range where bytes[j] == UInt8(ascii: ":") { start = j + 1 }
        let length = range.upperBound - start
        func byte(_ k: Int) -> UInt8 { bytes[start + k] }
        switch length {
        case 1:
            switch byte(0) {
            case UInt8(ascii: "c"): return .c
            case UInt8(ascii: "v"): return .v
            case UInt8(ascii: "t"): return .t
            case UInt8(ascii: "f"): return .f
            case UInt8(ascii: "r"): return .r
            default: return .other
            }
        case 2:
            if byte(0) == UInt8(ascii: "i") && byte(1) == UInt8(ascii: "s") { return .is }
            if byte(0) == UInt8(ascii: "s") && byte(1) == UInt8(ascii: "i") { return .si }
            return .other
        case 3:
            if byte(0) == UInt8(ascii: "r") && byte(1) == UInt8(ascii: "o") && byte(2) == UInt8(ascii: "w") { return .row }
            if byte(0) == UInt8(ascii: "r") && byte(1) == UInt8(ascii: "P") && byte(2) == UInt8(ascii: "h") { return .rPh }
            return .other
        default: return .other
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = literal.utf8Start
        for k in 0..<count where bytes[index + k] != pointer[k] { return false }
        return true
    }

    /// A text's characters (a CDATA section's as they are); throws, at offset -1, what is wrong.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, cdata: Bool) throws(Failure) -> String {
        if let text = cdata ? String(validating: bytes, as: UTF8.self) : decode(bytes) { return text }
        throw .malformed(offset: -1, String(validating: bytes, as: UTF8.self) == nil ? .encoding : .entity)
    }

    /// Text with XML's entities and character references decoded; nil when it holds an entity
    /// XML does not define, a broken reference or bytes that are not UTF-8.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(validating: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "&") else { out.append(byte); i += 1; continue }
            var j = i + 1
            while j < bytes.count, bytes[j] != UInt8(ascii: ";"), j - i < 12 { j += 1 }
            guard j < bytes.count, bytes[j] == UInt8(ascii: ";") else { return nil }
            let entity = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<j]), as: UTF8.self)
            switch entity {
            case "amp": out.append(UInt8(ascii: "&"))
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                let hex = entity.hasPrefix("#x") || entity.hasPrefix("#X")
                guard entity.hasPrefix("#"), let value = UInt32(entity.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10),
                      let scalar = Unicode.Scalar(value), value != 0 else { return nil }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            i = j + 1
        }
        return String(validating: out, as: UTF8.self)
    }
}
