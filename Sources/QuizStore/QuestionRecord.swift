import Foundation
import QuizCore
import SQLKit

/// How a question's kind-specific part is stored: one JSON column, so every kind shares one table.
struct QuestionBodyRecord: Codable {
    struct ChoiceRecord: Codable {
        var text: String
        var correct: Bool
        var fraction: Double?
    }

    struct PairRecord: Codable {
        var prompt: String
        var answer: String
    }

    struct AlternativeRecord: Codable {
        var text: String
        var fraction: Double
    }

    struct UnitRecord: Codable {
        var name: String
        var multiplier: Double
    }

    struct GapRecord: Codable {
        /// "choice", "typed" or "number".
        var kind: String
        var weight: Int
        var answers: [AlternativeRecord]?
        var value: Double?
        var tolerance: Double?
        var units: [UnitRecord]?
    }

    struct ItemRecord: Codable {
        var answer: String
        var alternates: [String]
    }

    var choices: [ChoiceRecord]?
    var answer: Bool?
    var answers: [String]?
    var partial: [AlternativeRecord]?
    var value: Double?
    var tolerance: Double?
    var unit: String?
    var units: [UnitRecord]?
    var items: [ItemRecord]?
    var timeLimitSeconds: Int?
    var typoTolerance: Bool?
    var order: [String]?
    var pairs: [PairRecord]?
    var extras: [String]?
    var passage: String?
    var gaps: [GapRecord]?
    var minimum: Double?
    var maximum: Double?
    var step: Double?
    var margin: Double?

    init(_ body: QuestionBody) {
        switch body {
        case .singleChoice(let choices), .multipleChoice(let choices):
            self.choices = choices.map { ChoiceRecord(text: $0.text, correct: $0.isCorrect, fraction: $0.fraction?.value) }
        case .trueFalse(let answer):
            self.answer = answer
        case .typedAnswer(let answers, let partial):
            self.answers = answers
            if !partial.isEmpty { self.partial = partial.map { AlternativeRecord(text: $0.text, fraction: $0.fraction.value) } }
        case .numeric(let value, let tolerance, let unit, let units):
            self.value = value
            self.tolerance = tolerance
            self.unit = unit
            if !units.isEmpty { self.units = units.map { UnitRecord(name: $0.name, multiplier: $0.multiplier) } }
        case .nameAll(let items, let timeLimit, let typoTolerance):
            self.items = items.map { ItemRecord(answer: $0.answer, alternates: $0.alternates) }
            self.timeLimitSeconds = timeLimit
            self.typoTolerance = typoTolerance
        case .ordering(let ordering):
            order = ordering.items
        case .matching(let matching):
            pairs = matching.pairs.map { PairRecord(prompt: $0.prompt, answer: $0.answer) }
            extras = matching.extras
        case .gapFill(let gapFill):
            passage = gapFill.text
            gaps = gapFill.gaps.map { weighted in
                func alternatives(_ list: [Alternative]) -> [AlternativeRecord] {
                    list.map { AlternativeRecord(text: $0.text, fraction: $0.fraction.value) }
                }
                switch weighted.gap {
                case .choice(let list): return GapRecord(kind: "choice", weight: weighted.weight, answers: alternatives(list))
                case .typed(let list): return GapRecord(kind: "typed", weight: weighted.weight, answers: alternatives(list))
                case .number(let value, let tolerance, let units):
                    return GapRecord(kind: "number", weight: weighted.weight, value: value, tolerance: tolerance,
                                     units: units.map { UnitRecord(name: $0.name, multiplier: $0.multiplier) })
                }
            }
        case .poll(let poll):
            choices = poll.choices.map { ChoiceRecord(text: $0, correct: false) }
        case .estimate(let estimate):
            minimum = estimate.minimum
            maximum = estimate.maximum
            step = estimate.step
            value = estimate.value
            margin = estimate.margin
            unit = estimate.unit
        case .wordCloud, .slide:
            break
        }
    }

    struct Corrupt: Error, CustomStringConvertible {
        var description: String
    }

    func body(kind: QuestionKind) throws -> QuestionBody {
        func choiceList() -> [Choice] {
            (choices ?? []).enumerated().map {
                Choice(id: $0.offset + 1, text: $0.element.text, isCorrect: $0.element.correct,
                       fraction: $0.element.fraction.flatMap { Fraction($0) })
            }
        }
        switch kind {
        case .singleChoice: return .singleChoice(choiceList())
        case .multipleChoice: return .multipleChoice(choiceList())
        case .trueFalse:
            guard let answer else { throw Corrupt(description: "trueFalse question without answer") }
            return .trueFalse(answer)
        case .typedAnswer:
            return .typedAnswer(answers ?? [], partial: (partial ?? []).map { Alternative($0.text, fraction: Fraction($0.fraction) ?? .zero) })
        case .numeric:
            guard let value else { throw Corrupt(description: "numeric question without value") }
            return .numeric(value: value, tolerance: tolerance ?? 0, unit: unit,
                            units: (units ?? []).map { NumericUnit(name: $0.name, multiplier: $0.multiplier) })
        case .nameAll:
            return .nameAll(
                items: (items ?? []).map { NameAllItem(answer: $0.answer, alternates: $0.alternates) },
                timeLimitSeconds: timeLimitSeconds ?? 300, typoTolerance: typoTolerance ?? false
            )
        case .ordering: return .ordering(Ordering(items: order ?? []))
        case .matching:
            return .matching(Matching(pairs: (pairs ?? []).map { .init(prompt: $0.prompt, answer: $0.answer) }, extras: extras ?? []))
        case .gapFill:
            return .gapFill(GapFill(text: passage ?? "", gaps: try (gaps ?? []).map { record in
                let alternatives = (record.answers ?? []).map { Alternative($0.text, fraction: Fraction($0.fraction) ?? .zero) }
                let gap: GapFill.Gap
                switch record.kind {
                case "choice": gap = .choice(alternatives)
                case "typed": gap = .typed(alternatives)
                case "number":
                    gap = .number(value: record.value ?? 0, tolerance: record.tolerance ?? 0,
                                  units: (record.units ?? []).map { NumericUnit(name: $0.name, multiplier: $0.multiplier) })
                default: throw Corrupt(description: "gap of unknown kind \(record.kind)")
                }
                return GapFill.WeightedGap(gap, weight: record.weight)
            }))
        case .poll: return .poll(Poll(choices: (choices ?? []).map(\.text)))
        case .wordCloud: return .wordCloud
        case .estimate:
            guard let minimum, let maximum, let step, let value else { throw Corrupt(description: "estimate question without its range") }
            return .estimate(Estimate(minimum: minimum, maximum: maximum, step: step, value: value, margin: margin ?? 0, unit: unit))
        case .slide: return .slide
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The body with the question's own time, kept under the key name-them-all already uses.
    static func encode(_ question: Question) throws -> String {
        var record = QuestionBodyRecord(question.body)
        if question.kind != .nameAll { record.timeLimitSeconds = question.timeLimitSeconds }
        return String(decoding: try encoder.encode(record), as: UTF8.self)
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
            points: try row.int("points"), body: try record.body(kind: kind), picture: try decodePicture(row),
            timeLimitSeconds: kind == .nameAll ? nil : record.timeLimitSeconds, audio: try decodeAudio(row)
        )
    }

    /// Nil unless every part of it is there, as for a picture.
    static func decodeAudio(_ row: any SQLRow) throws -> QuestionAudio? {
        guard let hash = try row.decode(column: "audio_hash", as: String?.self),
              let type = try row.decode(column: "audio_type", as: String?.self).flatMap(AudioType.init(rawValue:)),
              let milliseconds = try row.decode(column: "audio_milliseconds", as: Int?.self) else { return nil }
        return QuestionAudio(hash: hash, type: type, description: try row.decode(column: "audio_description", as: String?.self) ?? "",
                             seconds: Double(milliseconds) / 1000)
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
