import QuizCore

/// SplitMix64 (QuizCore's): the same seed gives the same inputs on every machine, so a run can be
/// repeated with `--seed`.
typealias SeededGenerator = SplitMix64

/// Turns an input into a damaged one: a few stacked edits of the kinds that break parsers
/// (a changed byte, a format's own tokens in the wrong place, a very long run, deep nesting,
/// truncation, two inputs spliced, invalid UTF-8, other line ends).
struct Mutator {
    /// The format's own tokens and what nests in it (an opener and its closer).
    var tokens: [[UInt8]]
    var nesting: [(open: [UInt8], close: [UInt8])]
    /// Longer results are cut to this many bytes.
    var maxSize: Int

    /// Tokens that upset every text format.
    static let common: [String] = [
        "\0", "\r", "\n", "\r\n", "\t", " ", "\"", "'", "\\", "&", ";", "&#x110000;", "&#0;", "&#xD800;",
        "&#99999999999999999999;", "&amp;", "&nbsp;", "\u{FEFF}", "\u{202E}", "\u{0301}", "é", "😀", "-", "-0", "0",
        "1e308", "-1e400", "1e-400", "NaN", "inf", "9223372036854775808", "-9223372036854775809", "2147483648",
        "4294967296", "0x10", ".", "..", "%", ":", ",",
    ]

    /// Byte sequences that are not UTF-8: lone continuation and lead bytes, an overlong form,
    /// a surrogate, a code point past U+10FFFF, and bytes that never occur.
    static let invalidUTF8: [[UInt8]] = [
        [0x80], [0xBF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xE0, 0x80, 0xAF],
        [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFE], [0xFF], [0xFF, 0xFE], [0xFE, 0xFF],
    ]

    init(tokens: [String], nesting: [(String, String)], maxSize: Int) {
        self.tokens = (tokens + Self.common).map { Array($0.utf8) }
        self.nesting = nesting.map { (Array($0.0.utf8), Array($0.1.utf8)) }
        self.maxSize = maxSize
    }

    /// 1 to 8 edits of `input`; `other` is a second input to splice from.
    func mutate(_ input: [UInt8], other: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        let edits = Int.random(in: 1...8, using: &random)
        for _ in 0..<edits {
            edit(&bytes, other: other, using: &random)
        }
        if bytes.count > maxSize { bytes.removeSubrange(maxSize...) }
        return bytes
    }

    private func edit(_ bytes: inout [UInt8], other: [UInt8], using random: inout SeededGenerator) {
        let at = Int.random(in: 0...bytes.count, using: &random)
        func randomRange(upTo length: Int) -> Range<Int> {
            guard !bytes.isEmpty else { return 0..<0 }
            let start = Int.random(in: 0..<bytes.count, using: &random)
            return start..<min(bytes.count, start + Int.random(in: 1...length, using: &random))
        }
        switch Int.random(in: 0..<21, using: &random) {
        case 0 where !bytes.isEmpty:  // flip a bit
            bytes[at == bytes.count ? at - 1 : at] ^= 1 << UInt8.random(in: 0...7, using: &random)
        case 1 where !bytes.isEmpty:  // any byte
            bytes[at == bytes.count ? at - 1 : at] = UInt8.random(in: 0...255, using: &random)
        case 2, 3, 4:  // a token, where it does not belong
            bytes.insert(contentsOf: tokens.randomElement(using: &random)!, at: at)
        case 5 where !bytes.isEmpty:  // a token in place of some bytes
            let range = randomRange(upTo: 8)
            bytes.replaceSubrange(range, with: tokens.randomElement(using: &random)!)
        case 6:
            bytes.removeSubrange(randomRange(upTo: 32))
        case 7:  // a copy of a stretch elsewhere
            let copied = Array(bytes[randomRange(upTo: 256)])
            bytes.insert(contentsOf: copied, at: Int.random(in: 0...bytes.count, using: &random))
        case 8:  // a very long run of one token or byte
            let token = Bool.random(using: &random) ? tokens.randomElement(using: &random)! : [UInt8.random(in: 0...255, using: &random)]
            let count = [16, 1_000, 10_000, 100_000].randomElement(using: &random)! / max(1, token.count)
            bytes.insert(contentsOf: repeatElement(token, count: max(1, count)).joined(), at: at)
        case 9 where !nesting.isEmpty:  // deep nesting, closed or not
            let (open, close) = nesting.randomElement(using: &random)!
            let depth = [8, 100, 1_000, 20_000].randomElement(using: &random)!
            var run = Array(repeatElement(open, count: depth).joined())
            if Bool.random(using: &random) { run += repeatElement(close, count: depth).joined() }
            bytes.insert(contentsOf: run, at: at)
        case 10:  // truncation
            bytes.removeSubrange(at...)
        case 11:  // this input's head and the other's tail
            let cut = Int.random(in: 0...other.count, using: &random)
            bytes = Array(bytes[..<at]) + other[cut...]
        case 12:  // a piece of the other input
            guard !other.isEmpty else { return }
            let start = Int.random(in: 0..<other.count, using: &random)
            let end = min(other.count, start + Int.random(in: 1...512, using: &random))
            bytes.insert(contentsOf: other[start..<end], at: at)
        case 13:
            bytes.insert(contentsOf: Self.invalidUTF8.randomElement(using: &random)!, at: at)
        case 14:  // other line ends throughout
            bytes = Self.replacingLineEnds(bytes, with: [[0x0D], [0x0D, 0x0A], [0x0A, 0x0D]].randomElement(using: &random)!)
        case 15 where bytes.count > 1:  // two stretches swapped
            let first = randomRange(upTo: 64), second = randomRange(upTo: 64)
            guard first.upperBound <= second.lowerBound else { return }
            let a = Array(bytes[first]), b = Array(bytes[second])
            bytes.replaceSubrange(second, with: a)
            bytes.replaceSubrange(first, with: b)
        case 16 where !bytes.isEmpty:  // a stretch repeated in place
            let range = randomRange(upTo: 32)
            let copies = Int.random(in: 2...64, using: &random)
            bytes.replaceSubrange(range, with: repeatElement(bytes[range], count: copies).joined())
        case 17:  // ASCII digits or letters changed, which reach numbers, grades and letters
            for index in randomRange(upTo: 16) where bytes[index] < 0x80 {
                bytes[index] = Array("0123456789-.+eEaAbBzZ".utf8).randomElement(using: &random)!
            }
        case 18:  // a soup of the format's tokens, which reaches what no seed has
            let count = Int.random(in: 1...60, using: &random)
            let soup = (0..<count).flatMap { _ in tokens.randomElement(using: &random)! }
            bytes.insert(contentsOf: soup, at: at)
        default:  // a random short string
            let count = Int.random(in: 1...8, using: &random)
            bytes.insert(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }, at: at)
        }
    }

    static func replacingLineEnds(_ bytes: [UInt8], with end: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                output += end
                index += byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }
}

extension Array where Element == UInt8 {
    /// FNV-1a: a stable name for an input (the file a failing one is saved to), and a per-reader seed.
    var fingerprint: UInt64 {
        reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}
