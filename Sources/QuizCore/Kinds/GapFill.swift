import Foundation

/// A typed answer accepted for part of the credit (GIFT's `%50%`, Moodle's `fraction="50"`).
public struct Alternative: Sendable, Hashable {
    public var text: String
    public var fraction: Fraction

    public init(_ text: String, fraction: Fraction = .full) {
        self.text = text
        self.fraction = fraction
    }

    /// The best credit any alternative gives `typed`, compared as typed answers are.
    public static func credit(for typed: String, among alternatives: [Alternative]) -> Credit {
        let key = AnswerNormalizer.normalize(typed)
        guard !key.isEmpty else { return .none }
        let matching = alternatives.filter { AnswerNormalizer.normalize($0.text) == key }
        return Credit(matching.map(\.fraction.value).max() ?? 0)
    }

    /// A typed answer's partly right alternatives as files list them: one written twice (or as an
    /// accepted answer too) counts once, at its best; the best come first.
    public static func distinctPartial(_ partial: [Alternative], besides accepted: [String]) -> [Alternative] {
        var seen = Set(accepted.map(AnswerNormalizer.normalize))
        return partial.sorted { $0.fraction.value > $1.fraction.value }.filter { seen.insert(AnswerNormalizer.normalize($0.text)).inserted }
    }
}

/// A gap fill (Moodle's cloze): a text with numbered gaps written `[[1]]`, `[[2]]` …, each a
/// choice, a typed answer or a number, each weighted (Moodle's `{2:SHORTANSWER:…}` weighs 2).
/// The credit is the weighted share of the gaps' credits.
public struct GapFill: Sendable, Hashable {
    public enum Gap: Sendable, Hashable {
        /// Choices with their fractions; the best one is the right answer.
        case choice([Alternative])
        case typed([Alternative])
        case number(value: Double, tolerance: Double, units: [NumericUnit])
    }

    public struct WeightedGap: Sendable, Hashable {
        public var gap: Gap
        public var weight: Int
        /// A choice gap's choice ids, parallel to its choices: nil for 1...n as stored (the
        /// author's order, often the right one first), public ids once presented.
        public var choiceIds: [Int]?

        public init(_ gap: Gap, weight: Int = 1, choiceIds: [Int]? = nil) {
            self.gap = gap
            self.weight = weight
            self.choiceIds = choiceIds
        }

        /// The choices with their ids, ordered by id: as a player sees them.
        public var shownChoices: [(id: Int, text: String)] {
            guard case .choice(let choices) = gap else { return [] }
            return zip(ids(count: choices.count), choices).map { (id: $0, text: $1.text) }.sorted { $0.id < $1.id }
        }

        func ids(count: Int) -> [Int] {
            choiceIds.flatMap { $0.count == count ? $0 : nil } ?? (0..<count).map { $0 + 1 }
        }

        /// The choice a player's id names.
        func choice(_ id: Int) -> Alternative? {
            guard case .choice(let choices) = gap, let index = ids(count: choices.count).firstIndex(of: id) else { return nil }
            return choices[index]
        }
    }

    public static let gapCountRange = 1...20
    public static let weightRange = 1...10
    public static let maxTextLength = 5_000
    public static let maxAlternatives = 20

    /// The text with its gaps' markers, `[[1]]` for the first gap.
    public var text: String
    public var gaps: [WeightedGap]

    public init(text: String, gaps: [WeightedGap]) {
        self.text = text
        self.gaps = gaps
    }

    /// One piece of the text: words to show, or the gap to put there (0-based).
    public enum Segment: Sendable, Hashable {
        case text(String)
        case gap(Int)
    }

    /// The text cut at its markers. A marker for a gap that does not exist stays text (validation
    /// reports it). One pass: a marker is `[[`, one or two digits and `]]`, so each `[` needs only
    /// a look at the few characters after it (an odd run of brackets, "[[[1]]", keeps its first
    /// as text and finds the marker after it).
    public var segments: [Segment] {
        var segments: [Segment] = []
        var pending = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func marker(at start: Int) -> (gap: Int, end: Int)? {
            guard start + 1 < scalars.count, scalars[start] == "[", scalars[start + 1] == "[" else { return nil }
            var cursor = start + 2
            var number = 0
            while cursor < scalars.count, cursor < start + 4, ("0"..."9").contains(scalars[cursor]) {
                number = number * 10 + Int(scalars[cursor].value - 48)
                cursor += 1
            }
            guard cursor > start + 2, cursor + 1 < scalars.count, scalars[cursor] == "]", scalars[cursor + 1] == "]",
                  (1...max(1, gaps.count)).contains(number), !gaps.isEmpty else { return nil }
            return (number - 1, cursor + 2)
        }
        while index < scalars.count {
            if scalars[index] == "[", let found = marker(at: index) {
                if !pending.isEmpty { segments.append(.text(String(pending))) }
                pending = String.UnicodeScalarView()
                segments.append(.gap(found.gap))
                index = found.end
            } else {
                pending.append(scalars[index])
                index += 1
            }
        }
        if !pending.isEmpty { segments.append(.text(String(pending))) }
        return segments
    }

    /// A gap's answer: the choice's id (1-based) for a choice gap, typed text otherwise.
    public enum GapAnswer: Sendable, Hashable {
        case choice(Int)
        case text(String)
    }

    public func check(_ answers: [Int: GapAnswer]) throws(GradingError) {
        for (gapId, answer) in answers.sorted(by: { $0.key < $1.key }) {
            guard (1...gaps.count).contains(gapId) else { throw .unknownPart(gapId) }
            switch (gaps[gapId - 1].gap, answer) {
            case (.choice, .choice(let id)):
                guard gaps[gapId - 1].choice(id) != nil else { throw .unknownChoice(id) }
            case (.typed, .text), (.number, .text):
                break
            default:
                throw .unknownPart(gapId)
            }
        }
    }

    /// Each gap's credit, in gap order; an unanswered gap has none.
    public func gapCredits(_ answers: [Int: GapAnswer]) throws(GradingError) -> [Credit] {
        try check(answers)
        return gaps.enumerated().map { index, weighted in
            switch (weighted.gap, answers[index + 1]) {
            case (.choice, .choice(let id)?):
                Credit(weighted.choice(id)?.fraction.value ?? 0)
            case (.typed(let alternatives), .text(let typed)?):
                Alternative.credit(for: typed, among: alternatives)
            case (.number(let value, let tolerance, let units), .text(let typed)?):
                NumericUnit.read(typed, units: units).map { given in
                    given.isFinite && abs(given - value) <= tolerance + 1e-9 * max(abs(value), abs(given)) ? .full : .none
                } ?? .none
            default:
                .none
            }
        }
    }

    /// The weighted share of the gaps' credits.
    public func credit(for answers: [Int: GapAnswer]) throws(GradingError) -> Credit {
        let credits = try gapCredits(answers)
        let total = gaps.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return .none }
        let earned = zip(credits, gaps).reduce(0.0) { $0 + $1.0.value * Double($1.1.weight) }
        return Credit(earned / Double(total))
    }

    func findProblems(_ fail: (String, String) -> Void) {
        if isBlank(text) {
            fail("passage", "is empty")
        } else if exceeds(text, GapFill.maxTextLength) {
            fail("passage", "is longer than \(GapFill.maxTextLength) characters")
            return  // not cut into segments: a hostile text is refused before any more work
        }
        if !GapFill.gapCountRange.contains(gaps.count) {
            fail("gaps", "needs 1 to 20 gaps, has \(gaps.count)")
            return
        }
        let markers = segments.compactMap { if case .gap(let index) = $0 { index } else { nil } }
        for index in gaps.indices {
            switch markers.count(where: { $0 == index }) {
            case 0: fail("gaps[\(index)]", "has no [[\(index + 1)]] in the text")
            case 1: break
            default: fail("gaps[\(index)]", "appears more than once in the text as [[\(index + 1)]]")
            }
        }
        for (index, weighted) in gaps.enumerated() {
            let field = "gaps[\(index)]"
            if !GapFill.weightRange.contains(weighted.weight) {
                fail("\(field).weight", "must be between 1 and 10, not \(weighted.weight)")
            }
            switch weighted.gap {
            case .choice(let choices):
                if !Question.choiceCountRange.contains(choices.count) {
                    fail("\(field).choices", "needs 2 to 10 choices, has \(choices.count)")
                }
                validateDistinctTexts(choices.map(\.text), field: { "\(field).choices[\($0)]" },
                                      maxLength: Question.maxChoiceTextLength, fail)
                if !choices.contains(where: \.fraction.isFull) {
                    fail("\(field).choices", "needs a choice that gives full credit")
                }
            case .typed(let alternatives):
                if !(1...GapFill.maxAlternatives).contains(alternatives.count) {
                    fail("\(field).answers", "needs 1 to \(GapFill.maxAlternatives) accepted answers, has \(alternatives.count)")
                }
                for (position, alternative) in alternatives.enumerated() {
                    if AnswerNormalizer.normalize(alternative.text).isEmpty {
                        fail("\(field).answers[\(position)]", "is empty once punctuation and spaces are ignored")
                    } else if exceeds(alternative.text, Question.maxChoiceTextLength) {
                        fail("\(field).answers[\(position)]", "is longer than \(Question.maxChoiceTextLength) characters")
                    }
                }
                if !alternatives.contains(where: \.fraction.isFull) {
                    fail("\(field).answers", "needs an answer that gives full credit")
                }
            case .number(let value, let tolerance, let units):
                if !value.isFinite { fail("\(field).value", "must be a finite number") }
                if !tolerance.isFinite || tolerance < 0 { fail("\(field).tolerance", "must be a finite number, not negative") }
                NumericUnit.validationErrors(units) { fail("\(field).\($0)", $1) }
            }
        }
    }
}
