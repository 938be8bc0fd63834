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
    /// Grades one answer. Typed text is compared after `AnswerNormalizer.normalize`; multiple choice
    /// is all-or-nothing; numeric answers within the tolerance (plus 1e-9 relative slack for
    /// floating-point noise) are correct.
    public func isCorrect(_ answer: Answer) throws(GradingError) -> Bool {
        switch body {
        case .singleChoice(let choices):
            let id: Int
            switch answer {
            case .choice(let given): id = given
            case .choices(let given) where given.count == 1: id = given.first!
            default: throw .answerDoesNotFitKind(expected: .singleChoice)
            }
            guard let choice = choices.first(where: { $0.id == id }) else { throw .unknownChoice(id) }
            return choice.isCorrect

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
            return given == Set(choices.filter(\.isCorrect).map(\.id))

        case .trueFalse(let value):
            guard case .bool(let given) = answer else { throw .answerDoesNotFitKind(expected: .trueFalse) }
            return given == value

        case .typedAnswer(let accepted):
            guard case .text(let given) = answer else { throw .answerDoesNotFitKind(expected: .typedAnswer) }
            let key = AnswerNormalizer.normalize(given)
            return !key.isEmpty && accepted.contains { AnswerNormalizer.normalize($0) == key }

        case .numeric(let value, let tolerance, let unit):
            let given: Double
            switch answer {
            case .number(let number): given = number
            case .text(let text):
                guard let number = Question.parseNumber(text, unit: unit) else {
                    throw .answerDoesNotFitKind(expected: .numeric)
                }
                given = number
            default: throw .answerDoesNotFitKind(expected: .numeric)
            }
            guard given.isFinite else { return false }
            let slack = 1e-9 * max(abs(value), abs(given))
            return abs(given - value) <= tolerance + slack

        case .nameAll:
            throw .answerDoesNotFitKind(expected: .nameAll)
        }
    }

    /// `answer` as it is kept and graded: typed text for a numeric question is read as its number
    /// (so the page's "1,5 km" and the API's 1.5 are one answer). Text that is no number does not fit.
    public func normalized(_ answer: Answer) throws(GradingError) -> Answer {
        guard case .numeric(_, _, let unit) = body, case .text(let text) = answer else { return answer }
        guard let number = Question.parseNumber(text, unit: unit) else { throw .answerDoesNotFitKind(expected: .numeric) }
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
        case .typedAnswer(let accepted):
            .text(accepted.first ?? "")
        case .numeric(let value, let tolerance, let unit):
            .number(value, tolerance: tolerance, unit: unit)
        case .nameAll(let items, _, _):
            .items(items.map(\.answer))
        }
    }

    /// Reads a typed number: optional sign, digits with at most one "." or "," as the decimal
    /// separator (so "1,5" is 1.5 and "1,000" is 1.0), optionally followed by the question's unit
    /// ("42 km"). No exponents, hex or "inf": players type plain numbers.
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
