import Foundation
import QuizCore

/// One element of an Open Trivia DB `results` array, its strings still encoded: the encoding can
/// only be detected once every result has been seen.
struct OpenTriviaResult {
    var fields: BundleDecoder.Fields
    var category: String?
    var type: String
    var difficulty: String?
    var question: String
    var correct: String
    var incorrect: [String]

    var path: String { fields.path }

    /// Reads the fields' JSON types; nil (with the problems reported) when one is wrong or missing.
    init?(_ value: JSONValue, at path: String, decoder: inout BundleDecoder) {
        guard case .object(let members) = value else {
            decoder.report(path, "expected a question object, found \(value.typeDescription)")
            return nil
        }
        var fields = BundleDecoder.Fields(path: path, members: members)
        let question = decoder.string(fields, "question")
        fields.question = question
        let category = decoder.string(fields, "category", .optional)
        let type = decoder.string(fields, "type")
        let difficulty = decoder.string(fields, "difficulty", .optional)
        let correct = decoder.string(fields, "correct_answer")
        let incorrect = decoder.strings(fields, "incorrect_answers")
        guard let question, let type, let correct, let incorrect,
              incorrect.count == decoder.array(fields, "incorrect_answers")?.count else { return nil }
        self.fields = fields
        self.category = category
        self.type = type
        self.difficulty = difficulty
        self.question = question
        self.correct = correct
        self.incorrect = incorrect
    }

    /// Every string of the result, for detecting the encoding.
    var strings: [String] { [category, type, difficulty, question, correct].compactMap(\.self) + incorrect }

    /// The decoded question and category; nil (with the problems reported) when it has problems.
    func question(encoding: OpenTriviaReader.Encoding, decoder: inout BundleDecoder) -> (Question, String?)? {
        let before = decoder.problems.problems.count + decoder.problems.omittedCount
        var located = fields
        located.question = nil  // the decoded text once known: the encoded one may be unreadable
        func decoded(_ value: String, _ key: String) -> String? {
            switch OpenTriviaReader.decode(value, encoding) {
            case .success(let text): return text
            case .failure(let problem):
                decoder.report(located.path(key), problem.message, question: located.question)
                return nil
            }
        }
        let text = decoded(question, "question")
        located.question = text
        func report(_ key: String, _ message: String) {
            decoder.report(located.path(key), message, question: located.question)
        }
        let category = self.category.flatMap { decoded($0, "category") }
        let type = decoded(self.type, "type")
        let correct = decoded(self.correct, "correct_answer")
        let incorrect = self.incorrect.enumerated().map { decoded($0.element, "incorrect_answers[\($0.offset)]") }

        var difficulty = Difficulty.medium
        if let raw = self.difficulty, let name = decoded(raw, "difficulty") {
            if let known = Difficulty(rawValue: name) {
                difficulty = known
            } else {
                report("difficulty", "unknown difficulty \"\(name)\": expected easy, medium or hard")
            }
        }

        var body: QuestionBody?
        /// Where each choice came from, to report a validation error at the right path.
        var origins: [String] = []
        switch type {
        case "multiple":
            guard let correct else { break }
            var answers = [(text: correct, key: "correct_answer", isCorrect: true)]
            for (index, answer) in incorrect.enumerated() {
                if let answer { answers.append((answer, "incorrect_answers[\(index)]", false)) }
            }
            // Sorted by text so the correct answer's place says nothing and imports are reproducible.
            answers.sort { $0.text < $1.text || ($0.text == $1.text && $0.key < $1.key) }
            origins = answers.map(\.key)
            body = .singleChoice(answers.enumerated().map {
                Choice(id: $0.offset + 1, text: $0.element.text, isCorrect: $0.element.isCorrect)
            })
        case "boolean":
            guard let correct else { break }
            guard let value = Self.truth(correct) else {
                report("correct_answer", "expected \"True\" or \"False\" in a boolean question, found \"\(correct)\"")
                break
            }
            for (index, answer) in incorrect.enumerated() {
                guard let answer else { continue }
                if Self.truth(answer) != !value {
                    let wrong = value ? "False" : "True"
                    report("incorrect_answers[\(index)]", "expected \"\(wrong)\" as the wrong answer to a boolean question, found \"\(answer)\"")
                }
            }
            body = .trueFalse(value)
        case let other?:
            report("type", "unknown type \"\(other)\": expected \"multiple\" or \"boolean\"")
        case nil:
            break
        }

        guard let text, let body, decoder.problems.problems.count + decoder.problems.omittedCount == before else { return nil }
        let result = Question(text: text, difficulty: difficulty, body: body)
        let errors = result.validationErrors()
        for error in errors {
            report(Self.key(for: error.field, origins: origins), Self.inOpenTriviaTerms(error, origins))
        }
        return errors.isEmpty ? (result, category) : nil
    }

    private static func truth(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true": true
        case "false": false
        default: nil
        }
    }

    /// The JSON key a validation error's field came from: "choices[2].text" → "incorrect_answers[1]".
    private static func key(for field: String, origins: [String]) -> String {
        if field == "text" { return "question" }
        if field == "choices" { return "incorrect_answers" }
        if field.hasPrefix("choices["), field.hasSuffix("].text"),
           let index = Int(field.dropFirst("choices[".count).dropLast("].text".count)), origins.indices.contains(index) {
            return origins[index]
        }
        return field
    }

    /// "repeats choices[0] (\"x\")" → "repeats correct_answer (\"x\")"; "needs 2 to 10 choices" →
    /// "needs 2 to 10 answers". Only the validator's own words are changed, never quoted text.
    private static func inOpenTriviaTerms(_ error: Question.ValidationError, _ origins: [String]) -> String {
        if error.field == "choices" {
            return error.message.replacingOccurrences(of: "choice", with: "answer")
        }
        // Parsed rather than searched for: a hostile result may have thousands of answers.
        let prefix = "repeats choices["
        if error.message.hasPrefix(prefix), let close = error.message.firstIndex(of: "]"),
           let index = Int(error.message[error.message.index(error.message.startIndex, offsetBy: prefix.count)..<close]),
           origins.indices.contains(index) {
            return "repeats " + origins[index] + error.message[error.message.index(after: close)...]
        }
        return error.message
    }
}
