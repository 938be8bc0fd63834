import QuizCore

/// An answer as a client sends it: one field per kind of answer, exactly one of them set. The
/// pages' form, the API's JSON and a live game's message are each read into this, so the rule of
/// one field and every size limit live here once.
package struct AnswerInput: Sendable, Equatable {
    /// A number comes typed (JSON) or as the characters a field held ("1,5 km"), which the
    /// question reads with its unit.
    package enum Number: Sendable, Equatable {
        case value(Double)
        case typed(String)
    }

    package var choice: Int?
    package var choices: [Int]?
    package var value: Bool?
    package var text: String?
    package var number: Number?
    package var order: [Int]?
    package var matches: [Int: Int]?
    package var gaps: [Int: GapFill.GapAnswer]?
    /// A slide, read.
    package var read: Bool?

    /// The most characters a typed number may have (the number field's `maxlength`).
    package static let maxNumberCharacters = 40

    package init(
        choice: Int? = nil, choices: [Int]? = nil, value: Bool? = nil, text: String? = nil, number: Number? = nil,
        order: [Int]? = nil, matches: [Int: Int]? = nil, gaps: [Int: GapFill.GapAnswer]? = nil, read: Bool? = nil
    ) {
        (self.choice, self.choices, self.value, self.text, self.number) = (choice, choices, value, text, number)
        (self.order, self.matches, self.gaps, self.read) = (order, matches, gaps, read)
    }

    package static func choice(_ id: Int) -> AnswerInput { AnswerInput(choice: id) }
    package static func choices(_ ids: some Sequence<Int>) -> AnswerInput { AnswerInput(choices: Array(ids)) }
    package static func bool(_ value: Bool) -> AnswerInput { AnswerInput(value: value) }
    package static func text(_ text: String) -> AnswerInput { AnswerInput(text: text) }
    package static func number(_ value: Double) -> AnswerInput { AnswerInput(number: .value(value)) }

    /// The answer, when exactly one field is set and within its limits. A list of choices is
    /// counted as sent, repeats too: a longer list is no answer to any question.
    package func answer() throws(AnswerProblem) -> Answer {
        var given = 0  // counted without an array: live games read thousands of answers a second
        if choice != nil { given += 1 }
        if choices != nil { given += 1 }
        if value != nil { given += 1 }
        if text != nil { given += 1 }
        if order != nil { given += 1 }
        if matches != nil { given += 1 }
        if gaps != nil { given += 1 }
        if read == true { given += 1 }
        switch number {
        case .value(let value) where !value.isFinite: break
        case nil: break
        default: given += 1
        }
        guard given == 1 else { throw .notOneField }
        if let choice { return .choice(choice) }
        if let choices {
            guard !choices.isEmpty else { throw .empty }
            guard choices.count <= Answer.maxChoices else { throw .tooManyChoices }
            return .choices(Set(choices))
        }
        if let value { return .bool(value) }
        if read == true { return .read }
        if let order {
            guard !order.isEmpty else { throw .empty }
            guard order.count <= Ordering.itemCountRange.upperBound else { throw .tooManyParts }
            return .order(order)
        }
        if let matches {
            guard !matches.isEmpty else { throw .empty }
            guard matches.count <= Matching.pairCountRange.upperBound else { throw .tooManyParts }
            return .matches(matches)
        }
        if let gaps {
            guard gaps.count <= GapFill.gapCountRange.upperBound else { throw .tooManyParts }
            var filled: [Int: GapFill.GapAnswer] = [:]
            for (gap, answer) in gaps {
                if case .text(let text) = answer {
                    guard text.utf8.count <= Answer.maxTextBytes else { throw .tooLong }
                    // A gap left empty is a gap not filled.
                    if text.allSatisfy(\.isWhitespace) { continue }
                }
                filled[gap] = answer
            }
            guard !filled.isEmpty else { throw .empty }
            return .gaps(filled)
        }
        if let text {
            guard !text.isEmpty else { throw .empty }
            guard text.utf8.count <= Answer.maxTextBytes else { throw .tooLong }
            return .text(text)
        }
        switch number {
        case .value(let value): return .number(value)
        case .typed(let typed):
            guard !typed.isEmpty else { throw .empty }
            guard typed.count <= Self.maxNumberCharacters else { throw .tooLong }
            return .text(typed)
        case nil: throw .notOneField
        }
    }
}
