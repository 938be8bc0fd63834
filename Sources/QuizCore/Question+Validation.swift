import Foundation
extension Question {
    /// One broken rule. `field` is a path into the question: "text", "choices", "choices[2].text"
    /// (indices are 0-based, like JSON paths), "answers[1]", "items[3].alternates[0]", "points".
    public typealias ValidationError = FieldError

    public static let maxExplanationLength = 2_000
    public static let pointsRange = 0...100
    public static let choiceCountRange = 2...10
    public static let maxChoiceTextLength = 500
    public static let acceptedAnswerCountRange = 1...20
    public static let nameAllItemCountRange = 1...1_000
    public static let nameAllTimeLimitRange = 10...3_600
    /// Kahoot's longest is 240 s, as a live game's own setting.
    public static let timeLimitRange = 5...240

    /// Throws the first broken rule; use `validationErrors()` to get them all.
    public func validate() throws(ValidationError) {
        if let first = validationErrors().first { throw first }
    }

    /// Every rule the question breaks, common fields first. Importers report them all at once.
    public func validationErrors() -> [ValidationError] {
        var errors: [ValidationError] = []
        func fail(_ field: String, _ message: String) {
            errors.append(ValidationError(field: field, message: message))
        }

        if isBlank(text) {
            fail("text", "is empty")
        } else if exceeds(text, Question.maxTextLength) {
            fail("text", "is longer than \(Question.maxTextLength) characters")
        }
        if let explanation, exceeds(explanation, Question.maxExplanationLength) {
            fail("explanation", "is longer than \(Question.maxExplanationLength) characters")
        }
        if !Question.pointsRange.contains(points) {
            fail("points", "must be between 0 and 100, not \(points)")
        }
        if let seconds = timeLimitSeconds, kind != .nameAll, !Question.timeLimitRange.contains(seconds) {
            fail("timeLimitSeconds", "must be between 5 and 240 seconds, not \(seconds)")
        }
        if let audio {
            if isBlank(audio.description) {
                fail("audio.description", "is empty: describe the clip for people who cannot hear it")
            } else if exceeds(audio.description, QuestionAudio.maxDescriptionLength) {
                fail("audio.description", "is longer than \(QuestionAudio.maxDescriptionLength) characters")
            }
        }
        if let picture {
            if isBlank(picture.alt) {
                fail("picture.alt", "is empty: describe the picture for people who cannot see it")
            } else if exceeds(picture.alt, QuestionPicture.maxAltLength) {
                fail("picture.alt", "is longer than \(QuestionPicture.maxAltLength) characters")
            }
        }

        switch body {
        case .singleChoice(let choices):
            validateChoices(choices, fail)
            let correct = choices.count(where: \.isCorrect)
            if correct != 1 { fail("choices", "needs exactly one correct choice, has \(correct)") }
        case .multipleChoice(let choices):
            validateChoices(choices, fail)
            if !choices.contains(where: \.isCorrect) { fail("choices", "needs at least one correct choice") }
        case .trueFalse:
            break
        case .typedAnswer(let answers, let partial):
            if !Question.acceptedAnswerCountRange.contains(answers.count) {
                fail("answers", "needs 1 to 20 accepted answers, has \(answers.count)")
            }
            for (index, answer) in answers.enumerated() where AnswerNormalizer.normalize(answer).isEmpty {
                fail("answers[\(index)]", "is empty once punctuation and spaces are ignored")
            }
            validatePartial(partial, accepted: answers, fail)
        case .numeric(let value, let tolerance, let unit, let units):
            if !value.isFinite { fail("value", "must be a finite number") }
            if !tolerance.isFinite {
                fail("tolerance", "must be a finite number")
            } else if tolerance < 0 {
                fail("tolerance", "must not be negative")
            }
            if !units.isEmpty {
                if unit?.isEmpty ?? true { fail("unit", "is needed with other units: it is the one the value is in") }
                let base = unit.flatMap { $0.isEmpty ? nil : [NumericUnit(name: $0)] } ?? []
                NumericUnit.validationErrors(base + units) { field, message in
                    // Index 0 is the value's own unit; the others are "units[0]" on.
                    guard field.hasPrefix("units["), let close = field.firstIndex(of: "]"),
                          let index = Int(field.dropFirst("units[".count).prefix(upTo: close)) else { return fail(field, message) }
                    let offset = index - base.count
                    fail(offset < 0 ? "unit" : "units[\(offset)]" + field[field.index(after: close)...], message)
                }
            }
        case .nameAll(let items, let timeLimitSeconds, _):
            validateItems(items, fail)
            if !Question.nameAllTimeLimitRange.contains(timeLimitSeconds) {
                fail("timeLimitSeconds", "must be between 10 and 3600 seconds, not \(timeLimitSeconds)")
            }
        case .ordering(let ordering): ordering.findProblems(fail)
        case .matching(let matching): matching.findProblems(fail)
        case .gapFill(let gapFill): gapFill.findProblems(fail)
        case .poll(let poll): poll.findProblems(fail)
        case .estimate(let estimate): estimate.findProblems(fail)
        case .wordCloud, .slide: break
        }
        if case .singleChoice(let choices) = body { validateSingleFractions(choices, fail) }
        if case .multipleChoice(let choices) = body { validateMultipleFractions(choices, fail) }
        return errors
    }

    /// Answers worth part of the points: more than none, less than full (a full one is accepted).
    private func validatePartial(_ partial: [Alternative], accepted: [String], _ fail: (String, String) -> Void) {
        if partial.count > Question.acceptedAnswerCountRange.upperBound {
            fail("partial", "holds at most \(Question.acceptedAnswerCountRange.upperBound) answers, has \(partial.count)")
            return
        }
        let acceptedKeys = Set(accepted.map(AnswerNormalizer.normalize))
        var seen: Set<String> = []
        for (index, alternative) in partial.enumerated() {
            let key = AnswerNormalizer.normalize(alternative.text)
            if key.isEmpty {
                fail("partial[\(index)].text", "is empty once punctuation and spaces are ignored")
            } else if exceeds(alternative.text, Question.maxChoiceTextLength) {
                fail("partial[\(index)].text", "is longer than \(Question.maxChoiceTextLength) characters")
            } else if acceptedKeys.contains(key) || !seen.insert(key).inserted {
                fail("partial[\(index)].text", "repeats another answer")
            }
            if !(alternative.fraction.value > 0 && alternative.fraction.value < 1) {
                fail("partial[\(index)].fraction", "must be more than 0 % and less than 100 % (a full answer is an accepted one)")
            }
        }
    }

    private func validateChoices(_ choices: [Choice], _ fail: (String, String) -> Void) {
        if !Question.choiceCountRange.contains(choices.count) {
            fail("choices", "needs 2 to 10 choices, has \(choices.count)")
        }
        // A linear scan beats hashing for at most ten choices; past ten the count is already
        // an error, and skipping the scan keeps a hostile 100,000-choice payload cheap.
        let checksDuplicates = choices.count <= Question.choiceCountRange.upperBound
        var keys: [String] = []
        keys.reserveCapacity(checksDuplicates ? choices.count : 0)
        for (index, choice) in choices.enumerated() {
            if choice.id != index + 1 {
                fail("choices[\(index)].id", "must be \(index + 1) (ids number the choices from 1 in order), not \(choice.id)")
            }
            if isBlank(choice.text) {
                fail("choices[\(index)].text", "is empty")
                keys.append("")
                continue
            }
            if exceeds(choice.text, Question.maxChoiceTextLength) {
                fail("choices[\(index)].text", "is longer than \(Question.maxChoiceTextLength) characters")
            }
            guard checksDuplicates else { continue }
            let key = Question.choiceKey(choice.text)
            if let earlier = keys.firstIndex(of: key) {
                fail("choices[\(index)].text", "repeats choices[\(earlier)] (\"\(choices[earlier].text)\")")
            }
            keys.append(key)
        }
    }

    /// The right choice is full credit; others may give part of it.
    private func validateSingleFractions(_ choices: [Choice], _ fail: (String, String) -> Void) {
        for (index, choice) in choices.enumerated() {
            guard let fraction = choice.fraction else { continue }
            if choice.isCorrect && !fraction.isFull {
                fail("choices[\(index)].fraction", "must be 100 % for the correct choice")
            } else if !choice.isCorrect && fraction.isFull {
                fail("choices[\(index)].fraction", "gives full credit, so mark the choice correct")
            }
        }
    }

    /// With fractions, a choice is correct when it gives credit, and picking every such choice is
    /// the whole credit (Moodle's rule).
    private func validateMultipleFractions(_ choices: [Choice], _ fail: (String, String) -> Void) {
        guard choices.contains(where: { $0.fraction != nil }) else { return }
        for (index, choice) in choices.enumerated() where (choice.fraction?.isPositive ?? false) != choice.isCorrect {
            fail("choices[\(index)].fraction", choice.isCorrect ? "must be more than 0 for a correct choice" : "gives credit, so mark the choice correct")
        }
        let total = choices.compactMap(\.fraction).filter(\.isPositive).reduce(0) { $0 + $1.value }
        if abs(total - 1) > 1e-6 {
            fail("choices", "the correct choices' fractions add up to \(NumberFormatting.plain((total * 1000).rounded() / 10)) %, not 100 %")
        }
    }

    private func validateItems(_ items: [NameAllItem], _ fail: (String, String) -> Void) {
        if !Question.nameAllItemCountRange.contains(items.count) {
            fail("items", "needs 1 to 1000 items, has \(items.count)")
        }
        var owner: [String: Int] = [:]  // normalised spelling → index of the item that has it
        for (index, item) in items.enumerated() {
            let spellings = [("items[\(index)].answer", item.answer)]
                + item.alternates.enumerated().map { ("items[\(index)].alternates[\($0.offset)]", $0.element) }
            for (field, spelling) in spellings {
                let key = AnswerNormalizer.normalize(spelling)
                if key.isEmpty {
                    fail(field, "is empty once punctuation and spaces are ignored")
                } else if let other = owner[key], other != index {
                    // An item may repeat its own spelling; two items sharing one could never both be found.
                    fail(field, "matches items[\(other)] (\"\(items[other].answer)\") once normalised")
                } else {
                    owner[key] = index
                }
            }
        }
    }

    /// What makes two choices "the same": their normalised text, or for punctuation-only choices
    /// such as "?" and "!" (which normalise to ""), their text without whitespace.
    public static func choiceKey(_ text: String) -> String {
        // Choices are read, not typed: punctuation tells "C#" from "C++" and "3" from "-3",
        // so only case, compatibility forms and spacing are ignored.
        if let ascii = asciiChoiceKey(text) { return ascii }
        return StreamSafe.limited(text).precomposedStringWithCompatibilityMapping.lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The same key for all-ASCII text without Foundation's Unicode machinery, which dominated
    /// importing (every choice of every question is keyed).
    static func asciiChoiceKey(_ text: String) -> String? {
        var key = [UInt8]()
        key.reserveCapacity(text.utf8.count)
        var space = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                space = !key.isEmpty
                continue
            }
            if space {
                key.append(0x20)
                space = false
            }
            key.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        return String(decoding: key, as: UTF8.self)
    }
}

func isBlank(_ s: String) -> Bool {
    s.unicodeScalars.allSatisfy(\.properties.isWhitespace)
}

/// Counts characters only when the UTF-8 length could exceed the limit: UTF-8 bytes >= characters.
func exceeds(_ s: String, _ limit: Int) -> Bool {
    s.utf8.count > limit && s.count > limit
}
