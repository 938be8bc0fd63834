/// Choices in an order of their own, so "always pick the first" scores no better than chance:
/// GIFT and Aiken files usually list the right answer first.
extension Question {
    /// The same question with its choices reordered by `seed`: the same seed gives the same order,
    /// so a reload shows what it showed before. The seed must come from a server secret (the
    /// algorithm is public, so a seed made of public numbers lets anyone invert the order).
    public func shufflingChoices(seed: UInt64) -> Question {
        var copy = self
        switch body {
        case .singleChoice(let choices): copy.body = .singleChoice(Self.shuffled(choices, seed: seed))
        case .multipleChoice(let choices): copy.body = .multipleChoice(Self.shuffled(choices, seed: seed))
        default: break
        }
        return copy
    }

    static func shuffled(_ choices: [Choice], seed: UInt64) -> [Choice] {
        guard choices.count > 1 else { return choices }
        var random = SplitMix64(seed: seed)
        var result = choices
        for i in stride(from: result.count - 1, to: 0, by: -1) {
            result.swapAt(i, Int(random.next() % UInt64(i + 1)))
        }
        return result
    }
}

/// SplitMix64: a small, fast generator whose sequence depends only on its seed (the standard
/// library's does not promise that across versions), for shuffles, benchmarks and fuzzing that
/// must replay exactly.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }
    public init(seed: UInt64) { self.state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
