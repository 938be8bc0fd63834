/// The answer fractions Moodle allows: percentages of a question's grade, each exact (100, 50) or
/// the 7-decimal rounding Moodle writes for thirds, sixths, sevenths and ninths.
enum MoodleXMLGrade {
    /// Moodle's grade options as it writes them; their negatives are allowed too.
    static let allowed: [Double] = [
        100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571,
        12.5, 11.11111, 10, 5, 0,
    ]

    /// How far a written fraction may be from an allowed one: rounding, as in "33.333" or "33.3333333".
    static let slack = 0.001

    /// The allowed grade `value` stands for (keeping its sign), or nil when it is none.
    static func snapped(_ value: Double) -> Double? {
        guard value.isFinite else { return nil }
        guard let grade = allowed.first(where: { abs(abs(value) - $0) <= slack }) else { return nil }
        return value < 0 ? -grade : grade
    }

    /// "100, 90, …, 5, 0", for messages.
    static var list: String {
        allowed.map(format).joined(separator: ", ")
    }

    /// Positive fractions giving `count` correct answers equal shares of 100, as Moodle writes them
    /// (3 → 33.33333); nil above ten, where Moodle has no equal share.
    static func equalShare(of count: Int) -> String? {
        let shares = ["100", "50", "33.33333", "25", "20", "16.66667", "14.28571", "12.5", "11.11111", "10"]
        return shares.indices.contains(count - 1) ? shares[count - 1] : nil
    }

    /// A grade without a trailing ".0": "100", "33.33333".
    static func format(_ grade: Double) -> String {
        grade == grade.rounded() && abs(grade) < 1e15 ? String(Int(grade)) : String(grade)
    }
}
