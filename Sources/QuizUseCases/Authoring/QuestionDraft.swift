import Foundation
import QuizCore

/// A question as an author sends it, from the API or the web form: every kind's fields side by
/// side, loosely typed, so a half-right input can be shown back with its problems.
package struct QuestionDraft: Sendable, Hashable {
    package struct ChoiceDraft: Sendable, Hashable {
        package var text: String
        package var correct: Bool

        package init(text: String, correct: Bool) {
            self.text = text
            self.correct = correct
        }
    }

    package var kind: QuestionKind = .singleChoice
    package var text = ""
    package var explanation: String?
    package var difficulty: Difficulty = .medium
    package var points: Int = Question.defaultPoints
    package var choices: [ChoiceDraft] = []
    package var answer: Bool?
    package var answers: [String] = []
    package var value: Double?
    package var tolerance: Double?
    package var unit: String?
    package var items: [NameAllItem] = []
    package var timeLimitSeconds: Int?
    package var typoTolerance = false
    /// What to do with the question's picture: keep it, remove it, or replace it with new bytes.
    package var picture: PictureChange = .keep
    /// The picture's alt text; nil keeps the current one.
    package var pictureAlt: String?
    /// The picture the stored question has (set by `QuestionAuthoring` on update): what `.keep` keeps.
    package var currentPicture: QuestionPicture?

    package enum PictureChange: Sendable, Hashable {
        case keep, remove
        /// Bytes as uploaded; their size and type are checked from the bytes themselves.
        case replace(Data)
    }

    package init() {}

    package init(_ question: Question) {
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
        currentPicture = question.picture
        pictureAlt = question.picture?.alt
    }

    /// The question, or every rule it breaks (QuizCore's rules plus what its kind needs).
    package func question(id: Int64? = nil) -> Result<Question, QuestionProblems> {
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
        let (picture, pictureErrors) = resolvedPicture()
        let question = Question(id: id, text: text, explanation: explanation, difficulty: difficulty, points: points, body: body,
                                picture: picture)
        var errors = pictureErrors + question.validationErrors()
        if let unit, unit.count > 50 { errors.append(.init(field: "unit", message: "is longer than 50 characters")) }
        return errors.isEmpty ? .success(question) : .failure(QuestionProblems(errors))
    }
}

extension QuestionDraft {
    /// The picture the question will have, or why the uploaded bytes cannot be one. SVG is refused:
    /// it is a document that can carry script and remote references, and Quizbox has no sanitiser.
    func resolvedPicture() -> (QuestionPicture?, [Question.ValidationError]) {
        var picture: QuestionPicture?
        switch self.picture {
        case .keep: picture = currentPicture
        case .remove: picture = nil
        case .replace(let data):
            switch QuestionPicture.carried(data, alt: "") {
            case .success(var carried):
                carried.hash = (try? ImageFiles.check(data))?.hash ?? ""
                carried.data = nil
                picture = carried
            case .failure(let refusal):
                return (nil, [.init(field: "picture", message: refusal.message)])
            }
        }
        if var kept = picture, let alt = pictureAlt {
            kept.alt = alt.trimmingCharacters(in: .whitespacesAndNewlines)
            picture = kept
        }
        return (picture, [])
    }
}

/// Every rule a question breaks, for a 422 or for the form to show next to each field.
package struct QuestionProblems: Error, Sendable {
    package var errors: [Question.ValidationError]
    package init(_ errors: [Question.ValidationError]) { self.errors = errors }
}
