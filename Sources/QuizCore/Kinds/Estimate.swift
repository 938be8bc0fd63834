/// An estimate question (closest wins, a slider on phones): a number between `minimum` and
/// `maximum` in steps of `step`, with a right `value`.
///
/// Credit falls linearly from full at the value to none at `margin` away from it; a margin of 0
/// gives credit only for the value itself. Live games give points by the same closeness.
public struct Estimate: Sendable, Hashable {
    public static let maxSteps = 100_000

    public var minimum: Double
    public var maximum: Double
    public var step: Double
    public var value: Double
    public var margin: Double
    /// Shown after the numbers ("km", "°C"); not typed by players.
    public var unit: String?

    public init(minimum: Double, maximum: Double, step: Double, value: Double, margin: Double, unit: String? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.value = value
        self.margin = margin
        self.unit = unit
    }

    public var range: ClosedRange<Double> { minimum...max(minimum, maximum) }

    /// An answer within the range; a slider sends its steps, the API any number in the range.
    public func check(_ given: Double) throws(GradingError) {
        guard given.isFinite, range.contains(given) else { throw .outOfRange(range) }
    }

    public func distance(_ given: Double) -> Double { abs(given - value) }

    public func credit(for given: Double) throws(GradingError) -> Credit {
        try check(given)
        let distance = distance(given)
        // Within floating-point noise of the value (0.1 + 0.2 for 0.3) is the value.
        if distance <= 1e-9 * max(1, abs(value)) { return .full }
        guard margin > 0 else { return .none }
        return Credit(1 - distance / margin)
    }

    func findProblems(_ fail: (String, String) -> Void) {
        let numbers = [("minimum", minimum), ("maximum", maximum), ("step", step), ("value", value), ("margin", margin)]
        let broken = numbers.filter { !$0.1.isFinite }
        for (field, _) in broken { fail(field, "must be a finite number") }
        guard broken.isEmpty else { return }
        if minimum >= maximum {
            fail("maximum", "must be more than the minimum (\(minimum))")
        } else if !range.contains(value) {
            fail("value", "must be between the minimum and the maximum")
        }
        if step <= 0 {
            fail("step", "must be more than 0")
        } else if minimum < maximum, (maximum - minimum) / step > Double(Estimate.maxSteps) {
            fail("step", "makes more than \(Estimate.maxSteps) steps between the minimum and the maximum")
        }
        if margin < 0 { fail("margin", "must not be negative") }
        if let unit, exceeds(unit, NumericUnit.maxNameLength) {
            fail("unit", "is longer than \(NumericUnit.maxNameLength) characters")
        }
    }
}

/// A unit a numeric answer may be given in, with its multiplier (Moodle's units): for a value of
/// 2.5 in "t/ha", the unit "kg/ha" with multiplier 1000 accepts 2500 kg/ha.
public struct NumericUnit: Sendable, Hashable {
    public static let maxNameLength = 30
    public static let maxUnits = 10

    public var name: String
    /// The answer's value times this is the value in this unit; the first unit's is 1.
    public var multiplier: Double

    public init(name: String, multiplier: Double = 1) {
        self.name = name
        self.multiplier = multiplier
    }

    /// Reads "2500 kg/ha" against `units`: the number in the first unit's terms (2.5), or nil
    /// when the text is no number or names a unit not in the list. A bare number is taken in the
    /// first unit, as Moodle does when units are optional.
    public static func read(_ text: String, units: [NumericUnit]) -> Double? {
        // The longest name first, so "km/h" is not read as "h" after "km/".
        for unit in units.sorted(by: { $0.name.count > $1.name.count }) where !unit.name.isEmpty {
            if let number = Question.parseNumber(text, unit: unit.name), unitNamed(unit.name, in: text) {
                return unit.multiplier == 0 ? nil : number / unit.multiplier
            }
        }
        return Question.parseNumber(text, unit: nil)
    }

    /// Whether `text` ends with the unit's name (parseNumber also takes a bare number).
    private static func unitNamed(_ name: String, in text: String) -> Bool {
        var trimmed = Substring(text)
        while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
        return trimmed.lowercased().hasSuffix(name.lowercased())
    }

    static func validationErrors(_ units: [NumericUnit], _ fail: (String, String) -> Void) {
        if units.count > maxUnits { fail("units", "holds at most \(maxUnits) units, has \(units.count)") }
        validateDistinctTexts(units.map(\.name), field: { "units[\($0)].name" }, maxLength: maxNameLength, fail)
        for (index, unit) in units.enumerated() where !(unit.multiplier.isFinite && unit.multiplier > 0) {
            fail("units[\(index)].multiplier", "must be a number more than 0")
        }
        for (index, unit) in units.enumerated() where unit.name.unicodeScalars.contains(where: { ("0"..."9").contains($0) }) {
            fail("units[\(index)].name", "must not hold digits (they would be read as part of the number)")
        }
    }
}
