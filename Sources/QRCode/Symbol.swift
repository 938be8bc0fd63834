/// The module grid while a QR code is drawn: the function patterns first, then the codewords in
/// the zigzag, then a data mask and the format information that names it (ISO/IEC 18004:2015 6.3,
/// 7.7–7.9). Coordinates are (x, y) = (column, row), (0, 0) at the top left.
struct Symbol {
    let version: Int
    let size: Int
    /// Row after row, `true` for dark.
    private(set) var dark: [Bool]
    /// Modules of the function patterns and format/version information: no data, no mask.
    private var isFunction: [Bool]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
        drawFunctionPatterns()
    }

    subscript(x: Int, y: Int) -> Bool {
        get { dark[y * size + x] }
        set { dark[y * size + x] = newValue }
    }

    private mutating func setFunction(_ x: Int, _ y: Int, _ isDark: Bool) {
        self[x, y] = isDark
        isFunction[y * size + x] = true
    }

    private mutating func drawFunctionPatterns() {
        // Timing patterns first: the finders and alignments drawn after overwrite their ends.
        for index in 0..<size {
            setFunction(6, index, index % 2 == 0)
            setFunction(index, 6, index % 2 == 0)
        }
        drawFinder(centerX: 3, centerY: 3)
        drawFinder(centerX: size - 4, centerY: 3)
        drawFinder(centerX: 3, centerY: size - 4)

        let centers = Self.alignmentCenters(version: version)
        for cx in centers {
            for cy in centers {
                // The three corners taken by finders.
                let first = centers.first, last = centers.last
                if (cx == first && cy == first) || (cx == first && cy == last) || (cx == last && cy == first) {
                    continue
                }
                drawAlignment(centerX: cx, centerY: cy)
            }
        }

        // Reserve the format areas now (any value: drawn for real with the mask), and write the
        // version information, which depends on nothing else.
        drawFormat(bits: 0)
        drawVersion()
    }

    /// A 7 × 7 finder with its light separator, clipped at the symbol's edges.
    private mutating func drawFinder(centerX: Int, centerY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centerX + dx, y = centerY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let ring = max(abs(dx), abs(dy))
                setFunction(x, y, ring != 2 && ring != 4)
            }
        }
    }

    private mutating func drawAlignment(centerX: Int, centerY: Int) {
        for dy in -2...2 {
            for dx in -2...2 {
                setFunction(centerX + dx, centerY + dy, max(abs(dx), abs(dy)) != 1)
            }
        }
    }

    /// Rows and columns of the alignment patterns' centres (Annex E): 6, then evenly spaced
    /// (an even step) back from size − 7, the first gap taking what is left over.
    static func alignmentCenters(version: Int) -> [Int] {
        guard version >= 2 else { return [] }
        let count = version / 7 + 2
        let size = 17 + 4 * version
        // Version 32 is the one exception to the rounding below in the standard's table.
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var centers = [6]
        for index in stride(from: count - 2, through: 0, by: -1) {
            centers.append(size - 7 - index * step)
        }
        return centers
    }

    /// 15 bits: the level and the mask, a BCH(15, 5) code over them, XOR 101010000010010 so that
    /// they are never all light (7.9.1).
    static func formatBits(correction: QRCode.ErrorCorrection, mask: Int) -> Int {
        let data = correction.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        return (data << 10 | remainder) ^ 0x5412
    }

    /// 18 bits from version 7 on: the version and a BCH(18, 6) code over it (7.10).
    static func versionBits(version: Int) -> Int {
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        return version << 12 | remainder
    }

    /// Both copies of the format information, bit 0 the least significant, and the dark module
    /// beside the bottom left finder.
    private mutating func drawFormat(bits: Int) {
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        // Around the top left finder, skipping the timing patterns on row and column 6.
        for index in 0...5 { setFunction(8, index, bit(index)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for index in 9..<15 { setFunction(14 - index, 8, bit(index)) }
        // Split between the other two finders.
        for index in 0..<8 { setFunction(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { setFunction(8, size - 15 + index, bit(index)) }
        setFunction(8, size - 8, true)
    }

    private mutating func drawVersion() {
        guard version >= 7 else { return }
        let bits = Self.versionBits(version: version)
        // A 6 × 3 block above the bottom left finder and its mirror left of the top right one.
        for index in 0..<18 {
            let isDark = (bits >> index) & 1 == 1
            let near = index / 3, far = size - 11 + index % 3
            setFunction(far, near, isDark)
            setFunction(near, far, isDark)
        }
    }

    /// Fills the data modules with the codewords, most significant bit first, in two-module
    /// columns from the right, up and down in turn, stepping over the vertical timing pattern
    /// (7.7.3). Modules left over (the remainder bits) stay light.
    mutating func place(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !isFunction[y * size + x] && bitIndex < bitCount {
                    self[x, y] = (codewords[bitIndex >> 3] >> (7 - UInt8(bitIndex & 7))) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
        precondition(bitIndex == bitCount, "codewords do not fill version \(version)")
    }

    /// The mask with the lowest penalty, each tried on the whole symbol as a reader would see it,
    /// format information included; the lowest number wins a tie.
    func bestMask(correction: QRCode.ErrorCorrection) -> Int {
        var best = (mask: 0, penalty: Int.max)
        for mask in 0..<8 {
            var trial = self
            trial.apply(mask: mask, correction: correction)
            let penalty = trial.penalty()
            if penalty < best.penalty { best = (mask, penalty) }
        }
        return best.mask
    }

    /// Inverts the data modules where the mask's condition holds (Table 10), and writes the
    /// format information for it.
    mutating func apply(mask: Int, correction: QRCode.ErrorCorrection) {
        precondition((0..<8).contains(mask), "QR data masks are 0 to 7, not \(mask)")
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && Self.maskCondition(mask, x: x, y: y) {
                self[x, y].toggle()
            }
        }
        drawFormat(bits: Self.formatBits(correction: correction, mask: mask))
    }

    /// Table 10 with i the row (y) and j the column (x).
    private static func maskCondition(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (x / 3 + y / 2) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }
}
