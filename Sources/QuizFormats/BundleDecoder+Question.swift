import Foundation
import QuizCore

extension BundleDecoder {
    static let commonQuestionKeys: Set<String> = ["kind", "text", "difficulty", "explanation", "points", "picture"]
    static let questionKeys: [QuestionKind: Set<String>] = [
        .singleChoice: ["choices"], .multipleChoice: ["choices"], .trueFalse: ["answer"],
        .typedAnswer: ["answers"], .numeric: ["value", "tolerance", "unit"],
        .nameAll: ["items", "timeLimitSeconds", "typoTolerance"],
    ]
    static let defaultTimeLimitSeconds = 300

    /// A question, or nil when it has problems. Questions that decode cleanly are then checked
    /// with `Question.validationErrors()`, whose fields extend the question's path.
    mutating func question(_ value: JSONValue, at path: String) -> Question? {
        guard case .object(let members) = value else {
            report(path, "expected a question object, found \(value.typeDescription)")
            return nil
        }
        let before = problems.problems.count + problems.omittedCount
        var fields = Fields(path: path, members: members)
        // The text first, so that every later problem can name its question.
        let text = string(fields, "text")
        fields.question = text
        guard let kindName = string(fields, "kind") else { return nil }
        guard let kind = QuestionKind(rawValue: kindName) else {
            let kinds = QuestionKind.allCases.map(\.rawValue).joined(separator: ", ")
            report(fields.path("kind"), "unknown kind \"\(kindName)\": use one of \(kinds)", question: text)
            return nil
        }
        let allowed = Self.commonQuestionKeys.union(Self.questionKeys[kind] ?? [])
        for member in members where !allowed.contains(member.key) {
            let belongsElsewhere = Self.questionKeys.values.contains { $0.contains(member.key) }
            report(
                fields.path(member.key),
                belongsElsewhere ? "does not apply to a \(kind.rawValue) question" : "unknown key", question: text)
        }

        var difficulty = Difficulty.medium
        if let name = string(fields, "difficulty", .optional) {
            if let known = Difficulty(rawValue: name) {
                difficulty = known
            } else {
                report(fields.path("difficulty"), "unknown difficulty \"\(name)\": use easy, medium or hard", question: text)
            }
        }
        let explanation = string(fields, "explanation", .optional)
        let points = integer(fields, "points", .defaulted(Question.defaultPoints))
        let body = self.body(of: kind, fields)
        let picture = fields["picture"].flatMap { $0 == .null ? nil : self.picture($0, fields) }

        guard let text, let points, let body, problems.problems.count + problems.omittedCount == before else { return nil }
        let question = Question(text: text, explanation: explanation, difficulty: difficulty, points: points, body: body,
                                picture: picture)
        for error in question.validationErrors() {
            report(fields.path(error.field), error.message, question: text)
        }
        return question
    }

    private mutating func body(of kind: QuestionKind, _ fields: Fields) -> QuestionBody? {
        switch kind {
        case .singleChoice, .multipleChoice:
            guard let choices = choices(fields) else { return nil }
            return kind == .singleChoice ? .singleChoice(choices) : .multipleChoice(choices)
        case .trueFalse:
            return bool(fields, "answer").map(QuestionBody.trueFalse)
        case .typedAnswer:
            return strings(fields, "answers").map(QuestionBody.typedAnswer)
        case .numeric:
            let value = number(fields, "value")
            let tolerance = number(fields, "tolerance", .defaulted(0))
            let unit = string(fields, "unit", .optional)
            guard let value, let tolerance else { return nil }
            return .numeric(value: value, tolerance: tolerance, unit: unit)
        case .nameAll:
            let items = nameAllItems(fields)
            let seconds = integer(fields, "timeLimitSeconds", .defaulted(Self.defaultTimeLimitSeconds))
            let typoTolerance = bool(fields, "typoTolerance", .defaulted(false))
            guard let items, let seconds, let typoTolerance else { return nil }
            return .nameAll(items: items, timeLimitSeconds: seconds, typoTolerance: typoTolerance)
        }
    }

    /// `{"alt", "data"}`: the alt text and the bytes in base64, checked as an upload is.
    private mutating func picture(_ value: JSONValue, _ fields: Fields) -> QuestionPicture? {
        guard let picture = object(value, at: fields.path("picture"), allowed: ["alt", "data"], question: fields.question) else { return nil }
        let alt = string(picture, "alt")
        guard let encoded = string(picture, "data"), let alt else { return nil }
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
            report(picture.path("data"), "is not base64", question: fields.question)
            return nil
        }
        switch QuestionPicture.carried(data, alt: alt) {
        case .success(let carried): return carried
        case .failure(let refusal):
            report(picture.path("data"), refusal.message, question: fields.question)
            return nil
        }
    }

    /// `[{"text", "correct"}]`, ids numbered 1...n in order; "correct" defaults to false.
    private mutating func choices(_ fields: Fields) -> [Choice]? {
        guard let values = array(fields, "choices") else { return nil }
        var choices: [Choice] = []
        for (index, value) in values.enumerated() {
            guard let choice = object(
                value, at: fields.path("choices[\(index)]"), allowed: ["text", "correct"], question: fields.question)
            else { continue }
            let text = string(choice, "text")
            let correct = bool(choice, "correct", .defaulted(false))
            if let text, let correct { choices.append(Choice(id: index + 1, text: text, isCorrect: correct)) }
        }
        return choices
    }

    /// `[{"answer", "alternates"}]`; "alternates" defaults to none.
    private mutating func nameAllItems(_ fields: Fields) -> [NameAllItem]? {
        guard let values = array(fields, "items") else { return nil }
        var items: [NameAllItem] = []
        for (index, value) in values.enumerated() {
            guard let item = object(
                value, at: fields.path("items[\(index)]"), allowed: ["answer", "alternates"], question: fields.question)
            else { continue }
            let answer = string(item, "answer")
            let alternates = strings(item, "alternates", .defaulted([]))
            if let answer, let alternates { items.append(NameAllItem(answer: answer, alternates: alternates)) }
        }
        return items
    }
}
