/// Text made safe to hand to Foundation's Unicode normalisation, which reorders each run of
/// combining marks with an insertion sort: a hostile run of 100,000 marks took over a minute
/// (found by fuzzing a bank import). Unicode's Stream-Safe Text Format (UAX #15) caps a run at 30
/// marks; more than that is no text anyone writes, so the excess is dropped. Linear, and free for
/// text with no long run (the common case returns the string itself).
public enum StreamSafe {
    public static let maxMarks = 30

    public static func limited(_ text: String) -> String {
        var run = 0
        var needed = false
        for scalar in text.unicodeScalars {
            if scalar.properties.canonicalCombiningClass != .notReordered {
                run += 1
                if run > maxMarks { needed = true; break }
            } else {
                run = 0
            }
        }
        guard needed else { return text }
        var kept = String.UnicodeScalarView()
        run = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.canonicalCombiningClass != .notReordered {
                run += 1
                if run > maxMarks { continue }
            } else {
                run = 0
            }
            kept.append(scalar)
        }
        return String(kept)
    }
}
