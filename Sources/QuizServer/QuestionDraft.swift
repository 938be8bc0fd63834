import Foundation
import QuizCore

/// A question as an author sends it, from the API or the web form: every kind's fields side by
/// side, loosely typed, so a half-right input can be shown back with its problems.
struct QuestionDraft: Sendable, Hashable {
    struct ChoiceDraft: Sendable, Hashable {
        var text: String
        var correct: Bool
    }

    var kind: QuestionKind = .singleChoice
    var text = ""
    var explanation: String?
    var difficulty: Difficulty = .medium
    var points: Int = Question.defaultPoints
    var choices: [ChoiceDraft] = []
    var answer: Bool?
    var answers: [String] = []
    var value: Double?
    var tolerance: Double?
    var unit: String?
    var items: [NameAllItem] = []
    var timeLimitSeconds: Int?
    var typoTolerance = false

    init() {}

    init(_ question: Question) {
        kind = question.kind
        text = question.text
        explanation = question.explanation
        difficulty = question.difficulty
        points = question.points
        switch question.body {
        case .singleChoice(let list), .multipleChoice(let list):
            choices = list.map { ChoiceDraft(text: $0.text, correct: $0.isCorrect) }
        case .trueFalse(let value):
            answer = value
        case .typedAnswer(let list):
            answers = list
        case .numeric(let value, let tolerance, let unit):
            self.value = value
            self.tolerance = tolerance
            self.unit = unit
        case .nameAll(let items, let timeLimitSeconds, let typoTolerance):
            self.items = items
            self.timeLimitSeconds = timeLimitSeconds
            self.typoTolerance = typoTolerance
        }
    }

    /// The question, or every rule it breaks (QuizCore's rules plus what its kind needs).
    func question(id: Int64? = nil) -> Result<Question, QuestionProblems> {
        let body: QuestionBody
        switch kind {
        case .singleChoice, .multipleChoice:
            let list = choices.enumerated().map { Choice(id: $0.offset + 1, text: $0.element.text, isCorrect: $0.element.correct) }
            body = kind == .singleChoice ? .singleChoice(list) : .multipleChoice(list)
        case .trueFalse:
            guard let answer else { return .failure(.init([.init(field: "answer", message: "is required: true or false")])) }
            body = .trueFalse(answer)
        case .typedAnswer:
            body = .typedAnswer(answers)
        case .numeric:
            guard let value else { return .failure(.init([.init(field: "value", message: "is required: the correct number")])) }
            body = .numeric(value: value, tolerance: tolerance ?? 0, unit: unit.flatMap { $0.isEmpty ? nil : $0 })
        case .nameAll:
            body = .nameAll(items: items, timeLimitSeconds: timeLimitSeconds ?? 300, typoTolerance: typoTolerance)
        }
        let explanation = explanation.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let question = Question(id: id, text: text, explanation: explanation, difficulty: difficulty, points: points, body: body)
        var errors = question.validationErrors()
        if let unit, unit.count > 50 { errors.append(.init(field: "unit", message: "is longer than 50 characters")) }
        return errors.isEmpty ? .success(question) : .failure(QuestionProblems(errors))
    }
}

/// Every rule a question breaks, for a 422 or for the form to show next to each field.
struct QuestionProblems: Error, Sendable {
    var errors: [Question.ValidationError]
    init(_ errors: [Question.ValidationError]) { self.errors = errors }
}
