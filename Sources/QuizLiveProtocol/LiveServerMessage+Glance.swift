/// A glance at a server message without parsing it: its kind and top-level numbers, booleans and
/// strings (without escapes), read straight from the text. For a load generator reading one
/// message per simulated phone per event on one thread, where a full parse of each delayed the
/// reading of the next sockets, and so the timings; an app decodes `LiveServerMessage` instead.
/// `LiveProtocolTests` checks it against the `Codable` shape of every message.
extension LiveServerMessage {
    public struct Glance {
        private let bytes: [UInt8]

        public init(_ text: String) { bytes = Array(text.utf8) }

        /// The message's `type`; nil for one this side does not know.
        public var kind: Kind? { string("type").flatMap(Kind.init(rawValue:)) }

        /// Where the value of the first `"key":` at or after `from` starts.
        private func value(_ key: String, from: Int = 0) -> Int? {
            let pattern = Array("\"\(key)\":".utf8)
            guard pattern.count <= bytes.count else { return nil }
            var index = from
            while index + pattern.count <= bytes.count {
                if bytes[index] == pattern[0], bytes[index..<index + pattern.count].elementsEqual(pattern) { return index + pattern.count }
                index += 1
            }
            return nil
        }

        public func string(_ key: String) -> String? {
            guard let start = value(key), start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
            guard let end = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        }

        /// The first `key` (after the first `after`, for a field of a nested object).
        public func int(_ key: String, after: String? = nil) -> Int? {
            var from = 0
            if let after {
                guard let start = value(after) else { return nil }
                from = start
            }
            guard var index = value(key, from: from) else { return nil }
            var sign = 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { sign = -1; index += 1 }
            var number = 0
            var digits = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                number = number * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            return digits > 0 ? sign * number : nil
        }

        public func bool(_ key: String) -> Bool? {
            guard let start = value(key), start < bytes.count else { return nil }
            return bytes[start] == UInt8(ascii: "t")
        }

        public func contains(_ key: String) -> Bool { value(key) != nil }

        /// Every `"id":N` inside the array `key` (the choices of a question).
        public func ids(in key: String) -> [Int] {
            guard let start = value(key), let end = arrayEnd(start) else { return [] }
            var ids: [Int] = []
            var from = start
            while let index = value("id", from: from), index < end {
                var number = 0
                var cursor = index
                while cursor < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) {
                    number = number * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                    cursor += 1
                }
                ids.append(number)
                from = cursor
            }
            return ids
        }

        /// The `]` closing the array opening at `start`: a `]` inside a string (a choice's text or
        /// its maths) is not it.
        private func arrayEnd(_ start: Int) -> Int? {
            var (depth, quoted, index) = (0, false, start)
            while index < bytes.count {
                switch (quoted, bytes[index]) {
                case (true, UInt8(ascii: "\\")): index += 1
                case (_, UInt8(ascii: "\"")): quoted.toggle()
                case (false, UInt8(ascii: "[")): depth += 1
                case (false, UInt8(ascii: "]")):
                    depth -= 1
                    if depth == 0 { return index }
                default: break
                }
                index += 1
            }
            return nil
        }
    }
}
