// How many codewords each version holds and how they split into blocks (ISO/IEC 18004:2015
// Table 9), for versions 1 to 40; index 0 is unused so that a version is its own index.

extension QRCode {
    /// Every codeword of the symbol, data and error correction: the modules left once the
    /// function patterns, format and version information are drawn, over 8 (remainder bits
    /// dropped).
    static func totalCodewordCount(version: Int) -> Int {
        let size = 17 + 4 * version
        // Finders with their separators, and the format information with the dark module.
        var modules = size * size - 3 * 64 - 31
        // Timing patterns, less the modules they share with the finders' separators.
        modules -= 2 * (size - 16)
        if version >= 2 {
            let perSide = version / 7 + 2
            // 5 × 5 alignment patterns, but three corners hold finders instead, and those on
            // row and column 6 overlap the timing patterns by 5 modules each.
            modules -= 25 * (perSide * perSide - 3) - 10 * (perSide - 2)
        }
        if version >= 7 { modules -= 36 }
        return modules / 8
    }

    static func dataCodewordCount(version: Int, correction: ErrorCorrection) -> Int {
        totalCodewordCount(version: version)
            - errorCorrectionBlocks(version: version, correction: correction)
            * errorCorrectionCodewordsPerBlock(version: version, correction: correction)
    }

    static func errorCorrectionCodewordsPerBlock(version: Int, correction: ErrorCorrection) -> Int {
        let table: [Int] =
            switch correction {
            case .low: [
                0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
                28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            ]
            case .medium: [
                0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
                26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
            ]
            case .quartile: [
                0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
                28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            ]
            case .high: [
                0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
                30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            ]
            }
        return table[version]
    }

    static func errorCorrectionBlocks(version: Int, correction: ErrorCorrection) -> Int {
        let table: [Int] =
            switch correction {
            case .low: [
                0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
                8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25,
            ]
            case .medium: [
                0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
                17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
            ]
            case .quartile: [
                0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
                23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
            ]
            case .high: [
                0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
                25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
            ]
            }
        return table[version]
    }
}
