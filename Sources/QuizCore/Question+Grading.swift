/// Why an answer could not be graded: the caller sent the wrong shape, not a wrong answer.
public enum GradingError: Error, Equatable {
    /// The answer's case does not fit the question (a `.bool` for a numeric question, unparseable
    /// text for a numeric one, or anything for a name-them-all question, which is played item by item).
    case answerDoesNotFitKind(expected: QuestionKind)
    /// A choice id that the question does not have.
    case unknownChoice(Int)
    /// An ordering answer that does not list each of the question's items exactly once.
    case notAnOrder(itemCount: Int)
    /// A part the question does not have: a matching's prompt or answer, a gap.
    case unknownPart(Int)
    /// An estimate outside the question's range.
    case outOfRange(ClosedRange<Double>)
}

extension Question {
    /// Whether `answer` earns full credit. Polls and word clouds have no right answer: never.
    public func isCorrect(_ answer: Answer) throws(GradingError) -> Bool {
        let credit = try credit(for: answer)
        return kind.hasRightAnswer && credit.isFull
    }

    /// How the answer is judged: right, partly right, wrong, or only counted (no right answer).
    public func verdict(for answer: Answer) throws(GradingError) -> (verdict: Verdict, credit: Credit) {
        let credit = try credit(for: answer)
        guard kind.hasRightAnswer else { return (.counted, .none) }
        return (verdict(credit: credit), credit)
    }

    /// The verdict a credit earned (kept answers carry their credit, not their verdict).
    public func verdict(credit: Credit) -> Verdict {
        guard kind.hasRightAnswer else { return .counted }
        return credit.isFull ? .correct : credit.isNone ? .wrong : .partlyCorrect
    }

    /// Grades one answer to a credit. Typed text is compared after `AnswerNormalizer.normalize`;
    /// numeric answers within the tolerance (plus 1e-9 relative slack for floating-point noise)
    /// are right. Choices give their author's fractions when they have them; multiple choice
    /// without fractions is all-or-nothing. Orderings, matchings and gap fills give the share of
    /// their parts right, estimates their closeness. Polls and word clouds check the answer's
    /// shape and give none.
    public func credit(for answer: Answer) throws(GradingError) -> Credit {
        switch body {
        case .singleChoice(let choices):
            let id: Int
            switch answer {
            case .choice(let given): id = given
            case .choices(let given) where given.count == 1: id = given.first!
            default: throw .answerDoesNotFitKind(expected: .singleChoice)
            }
            guard let choice = choices.first(where: { $0.id == id }) else { throw .unknownChoice(id) }
            return Credit(choice.fraction?.value ?? (choice.isCorrect ? 1 : 0))

        case .multipleChoice(let choices):
            let given: Set<Int>
            switch answer {
            case .choices(let ids): given = ids
            case .choice(let id): given = [id]
            default: throw .answerDoesNotFitKind(expected: .multipleChoice)
            }
            let known = Set(choices.map(\.id))
            // The smallest unknown id, so the error does not depend on set iteration order.
            if let unknown = given.subtracting(known).min() { throw .unknownChoice(unknown) }
            guard choices.contains(where: { $0.fraction != nil }) else {
                return given == Set(choices.filter(\.isCorrect).map(\.id)) ? .full : .none
            }
            // Moodle's rule: the fractions of the picked choices add up, never below nothing.
            return Credit(choices.filter { given.contains($0.id) }.reduce(0) { $0 + ($1.fraction?.value ?? 0) })

        case .trueFalse(let value):
            guard case .bool(let given) = answer else { throw .answerDoesNotFitKind(expected: .trueFalse) }
            return given == value ? .full : .none

        case .typedAnswer(let accepted, let partial):
            guard case .text(let given) = answer else { throw .answerDoesNotFitKind(expected: .typedAnswer) }
            let key = AnswerNormalizer.normalize(given)
            guard !key.isEmpty else { return .none }
            if accepted.contains(where: { AnswerNormalizer.normalize($0) == key }) { return .full }
            return partial.isEmpty ? .none : Alternative.credit(for: given, among: partial)

        case .numeric(let value, let tolerance, let unit, let units):
            let given: Double
            switch answer {
            case .number(let number): given = number
            case .text(let text):
                guard let number = Question.readNumber(text, unit: unit, units: units) else {
                    throw .answerDoesNotFitKind(expected: .numeric)
                }
                given = number
            default: throw .answerDoesNotFitKind(expected: .numeric)
            }
            guard given.isFinite else { return .none }
            let slack = 1e-9 * max(abs(value), abs(given))
            return abs(given - value) <= tolerance + slack ? .full : .none

        case .nameAll:
            throw .answerDoesNotFitKind(expected: .nameAll)

        case .ordering(let ordering):
            guard case .order(let order) = answer else { throw .answerDoesNotFitKind(expected: .ordering) }
            return try ordering.credit(for: order)

        case .matching(let matching):
            guard case .matches(let matches) = answer else { throw .answerDoesNotFitKind(expected: .matching) }
            return try matching.credit(for: matches)

        case .gapFill(let gapFill):
            guard case .gaps(let gaps) = answer else { throw .answerDoesNotFitKind(expected: .gapFill) }
            return try gapFill.credit(for: gaps)

        case .poll(let poll):
            switch answer {
            case .choice(let id): try poll.check(id)
            case .choices(let ids) where ids.count == 1: try poll.check(ids.first!)
            default: throw .answerDoesNotFitKind(expected: .poll)
            }
            return .none

        case .wordCloud:
            guard case .text(let text) = answer, WordCloud.key(text) != nil else { throw .answerDoesNotFitKind(expected: .wordCloud) }
            return .none

        case .estimate(let estimate):
            switch answer {
            case .number(let number): return try estimate.credit(for: number)
            case .text(let text):
                guard let number = Question.parseNumber(text, unit: estimate.unit) else { throw .answerDoesNotFitKind(expected: .estimate) }
                return try estimate.credit(for: number)
            default: throw .answerDoesNotFitKind(expected: .estimate)
            }

        case .slide:
            guard case .read = answer else { throw .answerDoesNotFitKind(expected: .slide) }
            return .none
        }
    }

    /// `answer` as it is kept and graded: typed text for a numeric question is read as its number
    /// (so the page's "1,5 km" and the API's 1.5 are one answer). Text that is no number does not fit.
    public func normalized(_ answer: Answer) throws(GradingError) -> Answer {
        let unit: String?, units: [NumericUnit]
        switch body {
        case .numeric(_, _, let numericUnit, let others): (unit, units) = (numericUnit, others)
        case .estimate(let estimate): (unit, units) = (estimate.unit, [])
        default: return answer
        }
        guard case .text(let text) = answer else { return answer }
        guard let number = Question.readNumber(text, unit: unit, units: units) else { throw .answerDoesNotFitKind(expected: kind) }
        // Too many digits for a Double: graded wrong, as before, and kept as typed.
        return number.isFinite ? .number(number) : answer
    }

    /// The answer shown to a player once they have answered.
    public var correctAnswer: CorrectAnswer {
        switch body {
        case .singleChoice(let choices), .multipleChoice(let choices):
            .choices(choices.filter(\.isCorrect))
        case .trueFalse(let value):
            .bool(value)
        case .typedAnswer(let accepted, _):
            .text(accepted.first ?? "")
        case .numeric(let value, let tolerance, let unit, _):
            .number(value, tolerance: tolerance, unit: unit)
        case .nameAll(let items, _, _):
            .items(items.map(\.answer))
        case .ordering(let ordering):
            .order(ordering.items)
        case .matching(let matching):
            .pairs(matching.pairs)
        case .gapFill(let gapFill):
            .gaps(gapFill.gaps.map { weighted in
                switch weighted.gap {
                case .choice(let alternatives), .typed(let alternatives):
                    alternatives.first(where: \.fraction.isFull)?.text ?? ""
                case .number(let value, _, let units):
                    NumberFormatting.plain(value) + (units.first.map { " " + $0.name } ?? "")
                }
            })
        case .estimate(let estimate):
            .estimate(estimate.value, unit: estimate.unit)
        case .poll, .wordCloud, .slide:
            .none
        }
    }


    /// Reads a typed number: optional sign, digits with at most one "." or "," as the decimal
    /// separator (so "1,5" is 1.5 and "1,000" is 1.0), optionally followed by the question's unit
    /// ("42 km"). No exponents, hex or "inf": players type plain numbers.
    /// A typed number in the question's unit or, with `units`, in any of them, as the number in
    /// the question's own unit ("2500 kg/ha" is 2.5 when kg/ha is 1000 t/ha).
    static func readNumber(_ text: String, unit: String?, units: [NumericUnit]) -> Double? {
        guard !units.isEmpty else { return parseNumber(text, unit: unit) }
        return NumericUnit.read(text, units: [NumericUnit(name: unit ?? "")] + units)
    }

    static func parseNumber(_ text: String, unit: String?) -> Double? {
        var scalars = Substring(text).unicodeScalars.drop { $0.properties.isWhitespace }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        if let unit, !unit.isEmpty {
            let lowered = String(scalars).lowercased()
            if lowered.hasSuffix(unit.lowercased()) {
                scalars = scalars.dropLast(unit.lowercased().unicodeScalars.count)
                while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
            }
        }
        var literal = ""
        var digits = 0
        var separators = 0
        for (offset, scalar) in scalars.enumerated() {
            switch scalar {
            case "0"..."9":
                digits += 1
                literal.unicodeScalars.append(scalar)
            case ".", ",":
                separators += 1
                literal.append(".")
            case "+", "-", "\u{2212}":  // U+2212 is the typographic minus sign
                guard offset == 0 else { return nil }
                literal.append(scalar == "+" ? "+" : "-")
            default:
                return nil
            }
        }
        guard digits > 0, separators <= 1 else { return nil }
        return Double(literal)
    }
}
