/// A strict JSON (RFC 8259) parser over bytes that says where a syntax error is by line and
/// column, which Foundation's parsers do not. Duplicate object keys are errors (which one would
/// win is unclear), and nesting deeper than `maxDepth` is refused so a hostile file cannot
/// exhaust the stack.
struct JSONParser {
    struct Error: Swift.Error, Sendable, Hashable {
        var line: Int
        var column: Int
        var message: String
        /// The bytes of a string are not UTF-8 (the message says so already).
        var isInvalidUTF8 = false
    }

    static let maxDepth = 64

    static func parse(_ input: UnsafeBufferPointer<UInt8>) throws(Error) -> JSONValue {
        var parser = JSONParser(input: input)
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == input.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private let input: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(input: UnsafeBufferPointer<UInt8>) {
        self.input = input
    }

    private var current: UInt8? { position < input.count ? input[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func parseValue(depth: Int) throws(Error) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("nested deeper than \(JSONParser.maxDepth) levels") }
        guard let byte = current else { throw error("unexpected end of the file") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a value")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(Error) -> JSONValue {
        for byte in word.utf8 {
            guard current == byte else { throw error("expected a value") }
            position += 1
        }
        return value
    }

    private mutating func parseObject(depth: Int) throws(Error) -> JSONValue {
        position += 1
        var members: [JSONValue.Member] = []
        var keys = Set<String>()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object([])
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let keyStart = position
            let key = try parseString()
            guard keys.insert(key).inserted else { throw error("duplicate key \"\(key)\"", at: keyStart) }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected \":\" after the key") }
            position += 1
            skipWhitespace()
            members.append(.init(key: key, value: try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1; skipWhitespace()
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw error("expected \",\" or \"}\"")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Error) -> JSONValue {
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        while true {
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1; skipWhitespace()
            case UInt8(ascii: "]"): position += 1; return .array(items)
            default: throw error("expected \",\" or \"]\"")
            }
        }
    }

    private mutating func parseString() throws(Error) -> String {
        let start = position
        position += 1
        var bytes: [UInt8] = []
        var runStart = position
        while true {
            guard let byte = current else { throw error("string never closed: a \" is missing", at: start) }
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw error("control character in a string; write it as an escape such as \\n") }
            if byte != UInt8(ascii: "\\") {
                position += 1
                continue
            }
            bytes += UnsafeBufferPointer(rebasing: input[runStart..<position])
            position += 1
            guard let escape = current else { throw error("string never closed: a \" is missing", at: start) }
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"): bytes += Array(String(try parseUnicodeEscape()).utf8)
            default: throw error("unknown escape \\\(Unicode.Scalar(escape))", at: position - 2)
            }
            runStart = position
        }
        let tail = UnsafeBufferPointer(rebasing: input[runStart..<position])
        position += 1
        // Every escape adds bytes, so an empty buffer means none: validate in place, no copy.
        let decoded = bytes.isEmpty ? String(validating: tail, as: UTF8.self) : String(validating: bytes + tail, as: UTF8.self)
        guard let string = decoded else {
            var invalid = error("string is not valid UTF-8", at: start)
            invalid.isInvalidUTF8 = true
            throw invalid
        }
        return string
    }

    /// After "\u": four hex digits, and a second "\uXXXX" when the first is a high surrogate.
    private mutating func parseUnicodeEscape() throws(Error) -> Unicode.Scalar {
        let start = position - 2
        let first = try hex4()
        var value = UInt32(first)
        if (0xD800..<0xDC00).contains(first) {
            guard current == UInt8(ascii: "\\"), position + 1 < input.count, input[position + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate escape", at: start)
            }
            position += 2
            let second = try hex4()
            guard (0xDC00..<0xE000).contains(second) else { throw error("unpaired surrogate escape", at: start) }
            value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw error("unpaired surrogate escape", at: start) }
        return scalar
    }

    private mutating func hex4() throws(Error) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigit(byte) else { throw error("expected four hex digits after \\u") }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func parseNumber() throws(Error) -> JSONValue {
        let start = position
        func digits() -> Int {
            let from = position
            while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
            return position - from
        }
        if current == UInt8(ascii: "-") { position += 1 }
        let leadingZero = current == UInt8(ascii: "0")
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("expected a digit") }
        if leadingZero && integerDigits > 1 { throw error("numbers cannot start with 0", at: start) }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("expected a digit after \".\"") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number \(text) is out of range", at: start) }
        return .number(value)
    }

    /// Line and column (in characters, 1-based) of `offset`, counted only when there is an error.
    private func error(_ message: String, at offset: Int? = nil) -> Error {
        let offset = min(offset ?? position, input.count)
        var line = 1
        var column = 1
        for byte in input[..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count UTF-8 lead bytes, not continuation bytes
                column += 1
            }
        }
        return Error(line: line, column: column, message: message)
    }
}
