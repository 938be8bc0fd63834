/// A parsed JSON document. Kept apart from Foundation's `Any` trees so that `true` is never read
/// as the number 1 (nor 1 as `true`), object keys keep their order, and writing is byte-stable.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys in document order; the parser rejects duplicates.
    case object([Member])

    struct Member: Sendable, Equatable {
        var key: String
        var value: JSONValue
    }

    /// How a problem message names the value's type: "expected a string, found a number".
    var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Pretty-printed UTF-8 with keys sorted and two-space indents, ending in a newline: the same
    /// value always gives the same bytes, so exported files diff cleanly.
    func serialized() -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .number(let value): out += Array(JSONValue.format(value).utf8)
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let items):
            guard !items.isEmpty else { return out += Array("[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                out += Array((index == 0 ? "\n" : ",\n").utf8)
                out += Array(repeating: UInt8(ascii: " "), count: indent + 2)
                item.write(to: &out, indent: indent + 2)
            }
            out.append(UInt8(ascii: "\n"))
            out += Array(repeating: UInt8(ascii: " "), count: indent)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return out += Array("{}".utf8) }
            out.append(UInt8(ascii: "{"))
            // Sorted by UTF-8 bytes: a plain, locale-free order any tool reproduces.
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                out += Array((index == 0 ? "\n" : ",\n").utf8)
                out += Array(repeating: UInt8(ascii: " "), count: indent + 2)
                JSONValue.writeString(member.key, to: &out)
                out += Array(": ".utf8)
                member.value.write(to: &out, indent: indent + 2)
            }
            out.append(UInt8(ascii: "\n"))
            out += Array(repeating: UInt8(ascii: " "), count: indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Whole numbers without a fraction ("3", not "3.0"); others in Swift's shortest round-trip
    /// form, which is valid JSON ("0.1", "1e-05"). JSON has no NaN or infinity: those become null,
    /// which reading then reports.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return String(value)
    }

    private static func writeString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case UInt8(ascii: "\n"): out += Array("\\n".utf8)
            case UInt8(ascii: "\r"): out += Array("\\r".utf8)
            case UInt8(ascii: "\t"): out += Array("\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
