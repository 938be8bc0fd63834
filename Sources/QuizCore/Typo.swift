/// Typo checks for typed answers.
public enum Typo {
    /// Whether the optimal-string-alignment (restricted Damerau–Levenshtein) distance between `a`
    /// and `b` is at most 1: equal, or one substitution, insertion, deletion, or swap of two
    /// neighbours ("paris" ~ "pairs").
    ///
    /// This is the distance bounded at 1, so no matrix is needed: lengths differing by more than one
    /// exit at once, and otherwise one scan finds the first mismatch and one more compares the rest,
    /// stopping at the second mismatch. Linear time, no allocation.
    public static func withinOne<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Bool {
        let countA = a.count, countB = b.count
        if countA < countB { return withinOne(b, a) }  // from here on, a is the longer or equal
        guard countA - countB <= 1 else { return false }
        var i = 0
        while i < countB && a[i] == b[i] { i += 1 }
        if i == countB { return true }  // equal, or a has one extra trailing element
        if countA == countB {
            // Substitution at i: the rest must be equal.
            if suffixesEqual(a, i + 1, b, i + 1) { return true }
            // Transposition of i and i + 1.
            return i + 1 < countA && a[i] == b[i + 1] && a[i + 1] == b[i] && suffixesEqual(a, i + 2, b, i + 2)
        }
        // a has one extra element at i: deleting it must leave b.
        return suffixesEqual(a, i + 1, b, i)
    }

    private static func suffixesEqual<Element: Equatable>(_ a: [Element], _ fromA: Int, _ b: [Element], _ fromB: Int) -> Bool {
        guard a.count - fromA == b.count - fromB else { return false }
        var i = fromA, j = fromB
        while i < a.count {
            if a[i] != b[j] { return false }
            i += 1
            j += 1
        }
        return true
    }
}
