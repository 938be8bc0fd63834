/// Finds where a byte buffer stops being UTF-8, so the GIFT reader can name the line and column
/// of a file saved in another encoding instead of importing mangled text.
enum GIFTUTF8 {
    /// The offset of the first byte that does not start a well-formed UTF-8 sequence (overlong
    /// forms, surrogates and code points past U+10FFFF included), or nil when all of it is UTF-8.
    static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i < count {
            // Most text is ASCII: step over it eight bytes at a time.
            while i + 8 <= count && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            guard i < count else { break }
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; second = 0xA0...0xBF  // no overlong forms
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; second = 0x80...0x9F  // no surrogates
            case 0xF0: length = 4; second = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; second = 0x80...0x8F  // nothing past U+10FFFF
            default: return i
            }
            guard i + length <= count, second.contains(bytes[i + 1]) else { return i }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }
}
