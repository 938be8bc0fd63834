// The penalty score of a masked symbol (ISO/IEC 18004:2015 7.8.3, Table 11): the lower, the
// fewer features a reader could mistake for a finder or lose count in.

extension Symbol {
    func penalty() -> Int {
        var score = 0
        var line = [Bool](repeating: false, count: size)
        for index in 0..<size {
            for position in 0..<size { line[position] = self[position, index] }
            score += Self.linePenalty(line)
            for position in 0..<size { line[position] = self[index, position] }
            score += Self.linePenalty(line)
        }
        return score + blockPenalty() + Self.balancePenalty(darkCount: dark.lazy.filter { $0 }.count, total: dark.count)
    }

    /// In one row or column: N1 = 3 for five modules of one colour in a row, plus one for each
    /// module beyond five; N3 = 40 for each dark-light-dark-dark-dark-light-dark run with four
    /// light modules before or after it, the quiet zone counting as light.
    static func linePenalty(_ line: [Bool]) -> Int {
        var score = 0
        var runStart = 0
        for position in 1...line.count where position == line.count || line[position] != line[runStart] {
            let length = position - runStart
            if length >= 5 { score += 3 + length - 5 }
            runStart = position
        }

        let finderLike: [Bool] = [true, false, true, true, true, false, true]
        func isLight(_ range: Range<Int>) -> Bool {
            range.allSatisfy { !line.indices.contains($0) || !line[$0] }
        }
        for start in 0...(line.count - finderLike.count) where line[start] {
            guard line[start..<start + finderLike.count].elementsEqual(finderLike) else { continue }
            if isLight(start - 4..<start) || isLight(start + 7..<start + 11) { score += 40 }
        }
        return score
    }

    /// N2 = 3 for each 2 × 2 block of one colour, overlapping blocks counted each: the standard's
    /// m × n block scored 3 × (m − 1) × (n − 1) comes to the same.
    func blockPenalty() -> Int {
        var score = 0
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = self[x, y]
                if self[x + 1, y] == colour && self[x, y + 1] == colour && self[x + 1, y + 1] == colour {
                    score += 3
                }
            }
        }
        return score
    }

    /// N4 = 10 for each full 5 % step the share of dark modules is away from half.
    static func balancePenalty(darkCount: Int, total: Int) -> Int {
        // |100 · dark / total − 50| / 5, in integers.
        10 * (abs(20 * darkCount - 10 * total) / total)
    }
}
