extension NameAllGame {
    /// Every accepted spelling of every item, built once per game and shared by its copies
    /// (immutable, so a class is safe and keeps copying a game cheap).
    final class Lookup: Sendable {
        /// Items whose normalised spelling is shorter than this never match by typo: a one-letter
        /// slip turns "cat" into "bat" or "car", another plausible answer.
        static let minTypoLength = 5

        /// Normalised spelling → item index. A guess costs one normalisation and one lookup here.
        let exact: [String: Int]
        /// Typo-matchable spellings (5+ scalars) and their items. Empty when typo tolerance is off.
        let spellings: [[Unicode.Scalar]]
        let spellingItems: [Int]
        /// Deletion neighbourhood (as in SymSpell): the hash of every typo-matchable spelling and of
        /// each way to delete one scalar from it → indices into `spellings`. Two strings within one
        /// edit or swap share such a hash (a substitution or swap at i: both minus position i or
        /// i + 1; an insertion: one equals the other minus one), so a guess of n scalars costs n + 1
        /// integer lookups, not a scan of every item; candidates are then checked with `Typo`.
        let neighbourhood: [UInt64: [Int32]]

        init(items: [NameAllItem], typoTolerance: Bool) {
            var exact: [String: Int] = [:]
            var spellings: [[Unicode.Scalar]] = []
            var spellingItems: [Int] = []
            var neighbourhood: [UInt64: [Int32]] = [:]
            for (index, item) in items.enumerated() {
                for spelling in [item.answer] + item.alternates {
                    let key = AnswerNormalizer.normalize(spelling)
                    // Validation forbids empty keys and keys shared by two items; if an unvalidated
                    // question has them anyway, the first item keeps the key.
                    guard !key.isEmpty, exact[key] == nil else { continue }
                    exact[key] = index
                    guard typoTolerance else { continue }
                    let scalars = Array(key.unicodeScalars)
                    guard scalars.count >= Lookup.minTypoLength else { continue }
                    let position = Int32(spellings.count)
                    spellings.append(scalars)
                    spellingItems.append(index)
                    Lookup.forEachHash(of: scalars) { hash in
                        if neighbourhood[hash]?.last != position { neighbourhood[hash, default: []].append(position) }
                    }
                }
            }
            self.exact = exact
            self.spellings = spellings
            self.spellingItems = spellingItems
            self.neighbourhood = neighbourhood
        }

        /// The item a normalised, non-empty guess names, exactly or (when enabled) within one typo
        /// of exactly one item. Nil when none or more than one item is that close.
        func item(forKey key: String) -> Int? {
            if let index = exact[key] { return index }
            guard !neighbourhood.isEmpty else { return nil }
            let guess = Array(key.unicodeScalars)
            guard guess.count >= Lookup.minTypoLength - 1 else { return nil }
            var match: Int? = nil
            var ambiguous = false
            Lookup.forEachHash(of: guess) { hash in
                guard !ambiguous, let candidates = neighbourhood[hash] else { return }
                for candidate in candidates {
                    let item = spellingItems[Int(candidate)]
                    guard item != match, Typo.withinOne(guess, spellings[Int(candidate)]) else { continue }
                    if match != nil {
                        ambiguous = true  // two items within one typo
                        return
                    }
                    match = item
                }
            }
            return ambiguous ? nil : match
        }

        /// Calls `body` with the polynomial hash of `s` and of each `s` with one scalar deleted
        /// (the same hash the shorter string itself would get), in O(n) overall.
        private static func forEachHash(of s: [Unicode.Scalar], _ body: (UInt64) -> Void) {
            let base: UInt64 = 0x100000001B3
            let n = s.count
            // suffix[i] = hash of s[i...]; power[k] = base^k. On the stack: this runs per guess.
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * (n + 1)) { buffer in
                let suffix = UnsafeMutableBufferPointer(rebasing: buffer[0...n])
                let power = UnsafeMutableBufferPointer(rebasing: buffer[(n + 1)...])
                suffix[n] = 0
                power[0] = 1
                for i in stride(from: n - 1, through: 0, by: -1) {
                    power[n - i] = power[n - i - 1] &* base
                    suffix[i] = UInt64(s[i].value) &* power[n - 1 - i] &+ suffix[i + 1]
                }
                body(suffix[0])
                var prefix: UInt64 = 0  // hash of s[..<i]
                for i in 0..<n {
                    // s without s[i]: the prefix shifted left past the n - 1 - i scalars that follow.
                    body(prefix &* power[n - 1 - i] &+ suffix[i + 1])
                    prefix = prefix &* base &+ UInt64(s[i].value)
                }
            }
        }
    }
}
