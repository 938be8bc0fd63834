import Foundation
import Testing

@testable import QRCode

/// Codes read back by a real decoder (zbarimg, from zbar-tools), and the parts of the standard a
/// decoder forgives checked against its tables.
@Suite struct QRCodeTests {
    static let joinURL = "http://localhost:8080/join/123456"
    static let texts = [
        joinURL,
        "https://quizbox.example.org/join/987654?name=Player%20One&team=blue&lang=fi&utm_source=projector",
        String(repeating: "Quizbox live game, round one: who painted the Mona Lisa? ", count: 6).prefix(300).description,
        "Hyvää päivää – ÄÖ",
    ]

    // MARK: - Read back by zbarimg

    @Test(arguments: texts, QRCode.ErrorCorrection.allCases)
    func zbarReadsTheTextBack(text: String, correction: QRCode.ErrorCorrection) throws {
        let code = try QRCode(text: text, correction: correction)
        let folder = try TemporaryFolder()
        let image = try folder.write(code.pbm(moduleSize: 3), named: "code.pbm")
        #expect(try Tools.decode(image) == Array(text.utf8), "version \(code.version), mask \(code.mask)")
    }

    @Test(arguments: [joinURL, texts[2]])
    func zbarReadsTheSVGBackOnceRasterised(text: String) throws {
        let code = try QRCode(text: text)
        let folder = try TemporaryFolder()
        let svg = try folder.write(code.svg(moduleSize: 4, title: "Join the game"), named: "code.svg")
        let png = folder.url.appendingPathComponent("code.png")
        try Tools.rasterise(svg, to: png)
        #expect(try Tools.decode(png) == Array(text.utf8))
    }

    // MARK: - Known answers

    @Test func theSmallestVersionThatHoldsTheTextIsChosen() throws {
        func version(_ byteCount: Int, _ correction: QRCode.ErrorCorrection) throws -> Int {
            try QRCode(text: String(repeating: "a", count: byteCount), correction: correction).version
        }
        // Byte capacities of ISO/IEC 18004 Table 7: each last fit, then one byte more.
        #expect(try version(17, .low) == 1)
        #expect(try version(18, .low) == 2)
        #expect(try version(14, .medium) == 1)
        #expect(try version(15, .medium) == 2)
        #expect(try version(11, .quartile) == 1)
        #expect(try version(7, .high) == 1)
        #expect(try version(8, .high) == 2)
        #expect(try version(42, .medium) == 3)
        // Version 10 spends 8 more bits on the character count.
        #expect(try version(230, .low) == 9)
        #expect(try version(231, .low) == 10)
        #expect(try version(2953, .low) == 40)
        #expect(try version(2331, .medium) == 40)
        #expect(try version(1663, .quartile) == 40)
        #expect(try version(1273, .high) == 40)
        // Counted in UTF-8 bytes: 7 characters are 14 bytes, 8 are 15.
        #expect(try QRCode(text: "äääääää", correction: .medium).version == 1)
        #expect(try QRCode(text: "äääääääa", correction: .medium).version == 2)
        #expect(try QRCode(text: Self.joinURL).size == 29)
    }

    @Test func textBeyondVersion40IsRefusedWithItsSizeAndTheLimit() {
        #expect(throws: QRCode.Error.textTooLong(byteCount: 2954, maximum: 2953, correction: .low)) {
            try QRCode(text: String(repeating: "a", count: 2954), correction: .low)
        }
        #expect(throws: QRCode.Error.textTooLong(byteCount: 1274, maximum: 1273, correction: .high)) {
            try QRCode(text: String(repeating: "a", count: 1274), correction: .high)
        }
        let message = QRCode.Error.textTooLong(byteCount: 2954, maximum: 2953, correction: .low).description
        #expect(message.contains("2954") && message.contains("2953"))
    }

    /// ISO/IEC 18004:2015 Table C.1, masks 0 to 7 for each level.
    static let formatInformation: [QRCode.ErrorCorrection: [Int]] = [
        .low: [0x77C4, 0x72F3, 0x7DAA, 0x789D, 0x662F, 0x6318, 0x6C41, 0x6976],
        .medium: [0x5412, 0x5125, 0x5E7C, 0x5B4B, 0x45F9, 0x40CE, 0x4F97, 0x4AA0],
        .quartile: [0x355F, 0x3068, 0x3F31, 0x3A06, 0x24B4, 0x2183, 0x2EDA, 0x2BED],
        .high: [0x1689, 0x13BE, 0x1CE7, 0x19D0, 0x0762, 0x0255, 0x0D0C, 0x083B],
    ]

    @Test(arguments: QRCode.ErrorCorrection.allCases)
    func bothCopiesOfTheFormatInformationMatchTheStandard(correction: QRCode.ErrorCorrection) throws {
        for mask in 0..<8 {
            let code = try QRCode(bytes: Array(Self.joinURL.utf8), correction: correction, mask: mask)
            let n = code.size
            // Bit 14 first: down column 8 beside the top left finder, skipping the timing row…
            let aroundTopLeft = [(0, 8), (1, 8), (2, 8), (3, 8), (4, 8), (5, 8), (7, 8), (8, 8), (8, 7)]
                + [(8, 5), (8, 4), (8, 3), (8, 2), (8, 1), (8, 0)]
            // …and split between the bottom left and top right finders.
            let split = (0..<7).map { (8, n - 1 - $0) } + (0..<8).map { (n - 8 + $0, 8) }
            let expected = try #require(Self.formatInformation[correction]?[mask])
            #expect(Self.bits(of: code, at: aroundTopLeft) == expected, "\(correction) mask \(mask)")
            #expect(Self.bits(of: code, at: split) == expected, "\(correction) mask \(mask)")
            #expect(code[8, n - 8], "the dark module")
        }
    }

    @Test(arguments: [(7, 0x07C94, 150), (21, 0x15683, 900), (40, 0x28C69, 2953)])
    func bothCopiesOfTheVersionInformationMatchTheStandard(version: Int, bits: Int, byteCount: Int) throws {
        let code = try QRCode(text: String(repeating: "7", count: byteCount), correction: .low)
        try #require(code.version == version)
        let n = code.size
        // Bit 17 first; 6 × 3 above the bottom left finder, then its transpose.
        let bottomLeft = (0..<18).reversed().map { ($0 / 3, n - 11 + $0 % 3) }
        let topRight = bottomLeft.map { ($0.1, $0.0) }
        #expect(Self.bits(of: code, at: bottomLeft) == bits)
        #expect(Self.bits(of: code, at: topRight) == bits)
    }

    @Test func belowVersion7TheVersionAreaHoldsData() throws {
        // Where version 7 puts its information, left of the top right finder, version 6 has data
        // modules: two masks of the same data set some of them differently.
        let data = [UInt8](repeating: 0x36, count: 134)
        let a = try QRCode(bytes: data, correction: .low, mask: 0)
        let b = try QRCode(bytes: data, correction: .low, mask: 1)
        try #require(a.version == 6)
        let area = (0..<6).flatMap { y in (a.size - 11..<a.size - 8).map { x in (x, y) } }
        #expect(area.contains { a[$0.0, $0.1] != b[$0.0, $0.1] })
    }

    @Test func reedSolomonMatchesTheStandardsWorkedExample() {
        // ISO/IEC 18004:2015 Annex I: "01234567" as version 1-M.
        let data: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        #expect(ReedSolomon(degree: 10).remainder(of: data) == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    @Test func alignmentPatternsSitWhereAnnexEPutsThem() {
        #expect(Symbol.alignmentCenters(version: 1) == [])
        #expect(Symbol.alignmentCenters(version: 2) == [6, 18])
        #expect(Symbol.alignmentCenters(version: 7) == [6, 22, 38])
        #expect(Symbol.alignmentCenters(version: 32) == [6, 34, 60, 86, 112, 138])
        #expect(Symbol.alignmentCenters(version: 36) == [6, 24, 50, 76, 102, 128, 154])
        #expect(Symbol.alignmentCenters(version: 40) == [6, 30, 58, 86, 114, 142, 170])
    }

    @Test func penaltyRulesScoreRunsAndFinderLikePatterns() {
        let light = [Bool](repeating: false, count: 21)
        // One run of 21: 3 for the first five, one more for each beyond.
        #expect(Symbol.linePenalty(light) == 19)
        // 1:1:3:1:1 at the edge, light beyond it (the quiet zone) and after it: 40, plus 12 for
        // the run of 14.
        let finderLike = [true, false, true, true, true, false, true] + [Bool](repeating: false, count: 14)
        #expect(Symbol.linePenalty(finderLike) == 52)
        // With dark on both sides the pattern alone costs nothing.
        let enclosed = [true, true, false, true, false, true, true, true, false, true, false, true, true]
        #expect(Symbol.linePenalty(enclosed) == 0)
    }

    @Test func penaltyForBalanceCountsWhole5PercentStepsAwayFromHalf() {
        #expect(Symbol.balancePenalty(darkCount: 50, total: 100) == 0)
        #expect(Symbol.balancePenalty(darkCount: 54, total: 100) == 0)
        #expect(Symbol.balancePenalty(darkCount: 55, total: 100) == 10)
        #expect(Symbol.balancePenalty(darkCount: 44, total: 100) == 10)
        #expect(Symbol.balancePenalty(darkCount: 39, total: 100) == 20)
        #expect(Symbol.balancePenalty(darkCount: 441, total: 441) == 100)
    }

    @Test func eachMaskOfTheJoinAddressScoresAsASecondImplementationDoes() throws {
        // Scored by an independent implementation of Table 11 (N1 to N4 over rows and columns,
        // format information in place); the lowest, mask 7, is the one drawn.
        let bytes = Array(Self.joinURL.utf8)
        let data = QRCode.dataCodewords(bytes, version: 3, correction: .medium)
        let codewords = QRCode.withErrorCorrection(data, version: 3, correction: .medium)
        var placed = Symbol(version: 3)
        placed.place(codewords)
        let penalties = (0..<8).map { mask in
            var symbol = placed
            symbol.apply(mask: mask, correction: .medium)
            return symbol.penalty()
        }
        #expect(penalties == [1359, 1303, 1348, 1306, 1397, 1397, 1285, 1277])
        #expect(try QRCode(text: Self.joinURL, correction: .medium).mask == 7)
    }

    /// The join address as version 3-M, checked against an independent encoder with the same
    /// mask and read by zbarimg: any change to the drawing, the codewords or the mask choice shows.
    @Test func theJoinAddressDrawsTheKnownSymbol() throws {
        let code = try QRCode(text: Self.joinURL, correction: .medium)
        let rows = (0..<code.size).map { y in String((0..<code.size).map { code[$0, y] ? "#" : "." }) }
        #expect(rows == Self.joinURLSymbol)
    }

    static let joinURLSymbol = [
        "#######..##...#..###..#######",
        "#.....#...#.....#...#.#.....#",
        "#.###.#..#.##.##.####.#.###.#",
        "#.###.#...##.#..#.#...#.###.#",
        "#.###.#..####....##.#.#.###.#",
        "#.....#.##.#...######.#.....#",
        "#######.#.#.#.#.#.#.#.#######",
        ".........##.##.####..........",
        "#..#.##.#.....#.#...##.#.....",
        "#...##.#....##.##....##..#..#",
        "....#.#.##..####..###.#.####.",
        "#.#.#...##.#.#..#.####.#####.",
        ".#..#.#.....#.####.#.##..#.##",
        "#...#..#..#######..#.#....#..",
        "##.#..##..#..##.#....#..#.###",
        "#...##..#..##...##.#..##.#.#.",
        ".###..#.##.###..####.#...#.#.",
        "...###..##.####..#..#.##....#",
        "#..##.#.#...#.#..#..#.##.#.##",
        "...#.....####.##.##....#...##",
        "#..#.##..#.##.....#######.#..",
        "........##....#..##.#...#.###",
        "#######..#.##.....#.#.#.#..#.",
        "#.....#.#.#...###.###...#.#..",
        "#.###.#..##.#....##.#####...#",
        "#.###.#.#.......###.#.######.",
        "#.###.#....##.....#.##..#...#",
        "#.....#..#..#.#..#..#...#..#.",
        "#######.#.......#####..#.#.#.",
    ]

    static func bits(of code: QRCode, at positions: [(Int, Int)]) -> Int {
        positions.reduce(0) { $0 << 1 | (code[$1.0, $1.1] ? 1 : 0) }
    }
}
