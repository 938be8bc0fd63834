/// How much of a question's points an answer earns: from none (0) to all (1).
///
/// Kinds with parts (an ordering's items, a matching's pairs, a gap fill's gaps, an estimate's
/// closeness) and partial credit on choices and typed answers grade to a credit; points earned are
/// the question's points times it.
public struct Credit: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: Double

    public static let none = Credit(0)
    public static let full = Credit(1)

    /// Clamped to 0...1; NaN is none.
    public init(_ value: Double) {
        self.value = value.isNaN ? 0 : min(1, max(0, value))
    }

    /// `right` of `total` parts; none for no parts.
    public init(right: Int, of total: Int) {
        self.init(total > 0 ? Double(right) / Double(total) : 0)
    }

    /// Sums of fractions land a hair off (Moodle writes a third as 33.33333 %): within this they
    /// count as exact, as Moodle counts 0.999999 as right.
    static let slack = 1e-6

    public var isFull: Bool { value >= 1 - Credit.slack }
    public var isNone: Bool { value <= Credit.slack }
    public var isPartial: Bool { !isFull && !isNone }

    /// The credit in whole percent, as players read it ("67 %" for two of three).
    public var percent: Int { Int((value * 100).rounded()) }

    /// Whole points for a question worth `total`: the nearest to `total` × credit, and a partly
    /// right answer never the whole (nor less than nothing). Points stay whole numbers everywhere
    /// (totals, the leaderboard); the credit itself is kept with the answer.
    public func points(of total: Int) -> Int {
        if isFull { return total }
        if isNone || total <= 0 { return 0 }
        return min(total - 1, max(0, Int((Double(total) * value).rounded())))
    }

    /// `points` times the credit, exactly.
    public func of(_ points: Double) -> Double {
        isFull ? points : isNone ? 0 : points * value
    }

    public static func < (lhs: Credit, rhs: Credit) -> Bool { lhs.value < rhs.value }

    public var description: String { "\(percent)%" }
}

/// A fraction an author gives one choice or alternative, as Moodle and GIFT write it (`%50%`,
/// `fraction="-33.33333"`): from -1 to 1. Negative fractions take credit away in multiple choice.
public struct Fraction: Sendable, Hashable, Codable, Comparable {
    public let value: Double

    public static let range = -1.0...1.0

    /// Nil outside -1...1 or not finite.
    public init?(_ value: Double) {
        guard value.isFinite, Fraction.range.contains(value) else { return nil }
        self.value = value
    }

    /// From a percentage as the formats write it: 50, -33.33333, 100.
    public init?(percent: Double) {
        self.init(percent / 100)
    }

    public static let full = Fraction(1)!
    public static let zero = Fraction(0)!

    public var isFull: Bool { value >= 1 - Credit.slack }
    public var isPositive: Bool { value > Credit.slack }

    public var percent: Double { value * 100 }

    public static func < (lhs: Fraction, rhs: Fraction) -> Bool { lhs.value < rhs.value }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Double.self)
        guard let fraction = Fraction(value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "A fraction is between -1 and 1."))
        }
        self = fraction
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// Every rule a kind's part breaks, with fields relative to the question ("items[2]").
func problems(_ find: ((String, String) -> Void) -> Void) -> [Question.ValidationError] {
    var errors: [Question.ValidationError] = []
    find { errors.append(Question.ValidationError(field: $0, message: $1)) }
    return errors
}

extension Ordering {
    public func validationErrors() -> [Question.ValidationError] { problems(findProblems) }
}

extension Matching {
    public func validationErrors() -> [Question.ValidationError] { problems(findProblems) }
}

extension GapFill {
    public func validationErrors() -> [Question.ValidationError] { problems(findProblems) }
}

extension Estimate {
    public func validationErrors() -> [Question.ValidationError] { problems(findProblems) }
}

extension Poll {
    public func validationErrors() -> [Question.ValidationError] { problems(findProblems) }
}
