import Foundation
import QuizCore
import SQLKit

/// How a question's kind-specific part is stored: one JSON column, so every kind shares one table.
struct QuestionBodyRecord: Codable {
    struct ChoiceRecord: Codable {
        var text: String
        var correct: Bool
    }

    struct ItemRecord: Codable {
        var answer: String
        var alternates: [String]
    }

    var choices: [ChoiceRecord]?
    var answer: Bool?
    var answers: [String]?
    var value: Double?
    var tolerance: Double?
    var unit: String?
    var items: [ItemRecord]?
    var timeLimitSeconds: Int?
    var typoTolerance: Bool?

    init(_ body: QuestionBody) {
        switch body {
        case .singleChoice(let choices), .multipleChoice(let choices):
            self.choices = choices.map { ChoiceRecord(text: $0.text, correct: $0.isCorrect) }
        case .trueFalse(let answer):
            self.answer = answer
        case .typedAnswer(let answers):
            self.answers = answers
        case .numeric(let value, let tolerance, let unit):
            self.value = value
            self.tolerance = tolerance
            self.unit = unit
        case .nameAll(let items, let timeLimit, let typoTolerance):
            self.items = items.map { ItemRecord(answer: $0.answer, alternates: $0.alternates) }
            self.timeLimitSeconds = timeLimit
            self.typoTolerance = typoTolerance
        }
    }

    struct Corrupt: Error, CustomStringConvertible {
        var description: String
    }

    func body(kind: QuestionKind) throws -> QuestionBody {
        func choiceList() -> [Choice] {
            (choices ?? []).enumerated().map { Choice(id: $0.offset + 1, text: $0.element.text, isCorrect: $0.element.correct) }
        }
        switch kind {
        case .singleChoice: return .singleChoice(choiceList())
        case .multipleChoice: return .multipleChoice(choiceList())
        case .trueFalse:
            guard let answer else { throw Corrupt(description: "trueFalse question without answer") }
            return .trueFalse(answer)
        case .typedAnswer: return .typedAnswer(answers ?? [])
        case .numeric:
            guard let value else { throw Corrupt(description: "numeric question without value") }
            return .numeric(value: value, tolerance: tolerance ?? 0, unit: unit)
        case .nameAll:
            return .nameAll(
                items: (items ?? []).map { NameAllItem(answer: $0.answer, alternates: $0.alternates) },
                timeLimitSeconds: timeLimitSeconds ?? 300, typoTolerance: typoTolerance ?? false
            )
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func encode(_ body: QuestionBody) throws -> String {
        String(decoding: try encoder.encode(QuestionBodyRecord(body)), as: UTF8.self)
    }

    static func decodeQuestion(_ row: any SQLRow) throws -> Question {
        guard let kind = QuestionKind(rawValue: try row.string("kind")) else {
            throw Corrupt(description: "unknown question kind")
        }
        let record = try JSONDecoder().decode(QuestionBodyRecord.self, from: Data(try row.string("body").utf8))
        return Question(
            id: try row.int64("id"), text: try row.string("text"),
            explanation: try row.decode(column: "explanation", as: String?.self),
            difficulty: Difficulty(rawValue: try row.string("difficulty")) ?? .medium,
            points: try row.int("points"), body: try record.body(kind: kind), picture: try decodePicture(row)
        )
    }

    /// Nil unless every part of it is there: a half-written row shows no picture rather than a broken one.
    static func decodePicture(_ row: any SQLRow) throws -> QuestionPicture? {
        guard let hash = try row.decode(column: "picture_hash", as: String?.self),
              let type = try row.decode(column: "picture_type", as: String?.self).flatMap(PostImageType.init(rawValue:)),
              let width = try row.decode(column: "picture_width", as: Int?.self),
              let height = try row.decode(column: "picture_height", as: Int?.self) else { return nil }
        return QuestionPicture(hash: hash, type: type, alt: try row.decode(column: "picture_alt", as: String?.self) ?? "",
                               width: width, height: height)
    }
}
