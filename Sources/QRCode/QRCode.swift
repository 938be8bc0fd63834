/// A QR code (ISO/IEC 18004 Model 2) holding a text in byte mode, as a square of dark and light
/// modules. Made for short addresses shown on a screen, such as a live game's join link.
///
/// The smallest version (1 to 40) that holds the text at the asked error correction is used, and
/// of the eight data masks the one with the lowest penalty score (ISO/IEC 18004:2015 7.8.3).
public struct QRCode: Sendable {
    /// How many codewords may be lost and still be recovered: about 7, 15, 25 and 30 %.
    public enum ErrorCorrection: Sendable, CaseIterable {
        case low, medium, quartile, high

        /// The two bits standing for the level in the format information (Table 12): they are
        /// not in the order of strength.
        var formatBits: Int {
            switch self {
            case .low: 1
            case .medium: 0
            case .quartile: 3
            case .high: 2
            }
        }
    }

    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// More bytes than a version 40 symbol holds at this error correction.
        case textTooLong(byteCount: Int, maximum: Int, correction: ErrorCorrection)

        public var description: String {
            switch self {
            case let .textTooLong(byteCount, maximum, correction):
                "The text is \(byteCount) bytes of UTF-8, but a QR code holds at most \(maximum) "
                    + "bytes at \(correction) error correction."
            }
        }
    }

    /// Modules on a side: 17 + 4 × version.
    public let size: Int
    /// 1 to 40: the smallest that holds the text.
    public let version: Int
    public let correction: ErrorCorrection
    /// The data mask pattern used, 0 to 7.
    public let mask: Int
    /// Row after row, `true` for dark.
    private let modules: [Bool]

    /// Encodes `text` as UTF-8 in byte mode. Throws `Error.textTooLong` when even version 40 is
    /// too small (2953 bytes at `.low`, 2331 at `.medium`, 1663 at `.quartile`, 1273 at `.high`).
    public init(text: String, correction: ErrorCorrection = .medium) throws(Error) {
        try self.init(bytes: Array(text.utf8), correction: correction, mask: nil)
    }

    /// `mask` forces a data mask (0 to 7) instead of picking the best: for tests.
    init(bytes: [UInt8], correction: ErrorCorrection, mask forcedMask: Int?) throws(Error) {
        guard let version = Self.smallestVersion(holding: bytes.count, correction: correction) else {
            throw .textTooLong(
                byteCount: bytes.count,
                maximum: Self.byteCapacity(version: 40, correction: correction),
                correction: correction
            )
        }
        let data = Self.dataCodewords(bytes, version: version, correction: correction)
        let codewords = Self.withErrorCorrection(data, version: version, correction: correction)
        var symbol = Symbol(version: version)
        symbol.place(codewords)
        let mask = forcedMask ?? symbol.bestMask(correction: correction)
        symbol.apply(mask: mask, correction: correction)

        self.size = symbol.size
        self.version = version
        self.correction = correction
        self.mask = mask
        self.modules = symbol.dark
    }

    /// Whether the module in column `x`, row `y` is dark; (0, 0) is the top left. Outside the
    /// symbol it is light, as the quiet zone around it is.
    public subscript(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// The most bytes `version` holds at `correction`: what is left of the data codewords after
    /// the byte mode indicator (4 bits) and the character count (8 bits below version 10, 16 from
    /// it).
    static func byteCapacity(version: Int, correction: ErrorCorrection) -> Int {
        let countBits = version < 10 ? 8 : 16
        return (Self.dataCodewordCount(version: version, correction: correction) * 8 - 4 - countBits) / 8
    }

    static func smallestVersion(holding byteCount: Int, correction: ErrorCorrection) -> Int? {
        (1...40).first { byteCapacity(version: $0, correction: correction) >= byteCount }
    }

    /// The data codewords: mode, count, the bytes, then a terminator and the pad codewords that
    /// fill the version's capacity (7.4.9–7.4.10).
    static func dataCodewords(_ bytes: [UInt8], version: Int, correction: ErrorCorrection) -> [UInt8] {
        let capacity = dataCodewordCount(version: version, correction: correction)
        var bits = BitWriter()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version < 10 ? 8 : 16)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        // 11101100 and 00010001 alternately, as the standard has it.
        var pads: [UInt8] = [0xEC, 0x11]
        while codewords.count < capacity {
            codewords.append(pads[0])
            pads.swapAt(0, 1)
        }
        return codewords
    }

    /// Splits the data into the version's blocks, gives each its Reed–Solomon codewords, and
    /// interleaves them: the data codewords column by column, then the error correction (7.6).
    static func withErrorCorrection(_ data: [UInt8], version: Int, correction: ErrorCorrection) -> [UInt8] {
        let blockCount = errorCorrectionBlocks(version: version, correction: correction)
        let ecLength = errorCorrectionCodewordsPerBlock(version: version, correction: correction)
        let total = totalCodewordCount(version: version)
        // Blocks differ by at most one data codeword; the shorter ones come first.
        let shortBlockCount = blockCount - total % blockCount
        let shortDataLength = total / blockCount - ecLength
        let encoder = ReedSolomon(degree: ecLength)

        var blocks: [ArraySlice<UInt8>] = []
        var errorCorrection: [[UInt8]] = []
        var start = data.startIndex
        for index in 0..<blockCount {
            let length = shortDataLength + (index < shortBlockCount ? 0 : 1)
            let block = data[start..<start + length]
            blocks.append(block)
            errorCorrection.append(encoder.remainder(of: block))
            start += length
        }

        var result: [UInt8] = []
        result.reserveCapacity(total)
        for column in 0...shortDataLength {
            for block in blocks where column < block.count {
                result.append(block[block.startIndex + column])
            }
        }
        for column in 0..<ecLength {
            for block in errorCorrection { result.append(block[column]) }
        }
        return result
    }
}

/// Bits appended most significant first, read back as bytes.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, count bitCount: Int) {
        for shift in stride(from: bitCount - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}
