import Foundation
import QuizCore

/// Builds the bundle's JSON from a `Bank`. Every field is written, defaults included, so a file
/// says what it means without the reader's defaults; only an absent explanation or unit is left out.
enum BundleEncoder {
    static func encode(_ bank: Bank) -> JSONValue {
        object([
            "format": .string(BundleCodec.format),
            "version": .number(Double(BundleCodec.version)),
            "subjects": .array(bank.subjects.map(subject)),
        ])
    }

    private static func subject(_ subject: BankSubject) -> JSONValue {
        object([
            "name": .string(subject.name),
            "description": .string(subject.description),
            "topics": .array(subject.topics.map(topic)),
        ])
    }

    private static func topic(_ topic: BankTopic) -> JSONValue {
        object([
            "name": .string(topic.name),
            "description": .string(topic.description),
            "quizzes": .array(topic.quizzes.map { quiz in
                object([
                    "title": .string(quiz.title),
                    "description": .string(quiz.description),
                    "questions": .array(quiz.questions.map(question)),
                ])
            }),
            "questions": .array(topic.questions.map(question)),
        ])
    }

    static func question(_ question: Question) -> JSONValue {
        var members: [String: JSONValue] = [
            "kind": .string(question.kind.rawValue),
            "text": .string(question.text),
            "difficulty": .string(question.difficulty.rawValue),
            "points": .number(Double(question.points)),
        ]
        if let explanation = question.explanation { members["explanation"] = .string(explanation) }
        if let seconds = question.ownSeconds { members["timeLimitSeconds"] = .number(Double(seconds)) }
        // Only a picture whose bytes came along: the bundle carries pictures, not addresses.
        if let picture = question.picture, let data = picture.data {
            members["picture"] = object(["alt": .string(picture.alt), "data": .string(data.base64EncodedString())])
        }
        if let audio = question.audio, let data = audio.data {
            members["audio"] = object(["description": .string(audio.description), "data": .string(data.base64EncodedString())])
        }
        switch question.body {
        case .singleChoice(let choices), .multipleChoice(let choices):
            members["choices"] = .array(choices.map { choice in
                var members: [String: JSONValue] = ["text": .string(choice.text), "correct": .bool(choice.isCorrect)]
                if let fraction = choice.fraction { members["fraction"] = .number(fraction.value) }
                return object(members)
            })
        case .trueFalse(let answer):
            members["answer"] = .bool(answer)
        case .typedAnswer(let answers, let partial):
            members["answers"] = .array(answers.map(JSONValue.string))
            if !partial.isEmpty { members["partial"] = alternatives(partial) }
        case .numeric(let value, let tolerance, let unit, let units):
            members["value"] = .number(value)
            members["tolerance"] = .number(tolerance)
            if let unit { members["unit"] = .string(unit) }
            if !units.isEmpty { members["units"] = Self.units(units) }
        case .nameAll(let items, _, let typoTolerance):
            members["items"] = .array(items.map { item in
                object(["answer": .string(item.answer), "alternates": .array(item.alternates.map(JSONValue.string))])
            })
            members["typoTolerance"] = .bool(typoTolerance)
        case .ordering(let ordering):
            members["order"] = .array(ordering.items.map(JSONValue.string))
        case .matching(let matching):
            members["pairs"] = .array(matching.pairs.map { object(["prompt": .string($0.prompt), "answer": .string($0.answer)]) })
            members["extras"] = .array(matching.extras.map(JSONValue.string))
        case .gapFill(let gapFill):
            members["passage"] = .string(gapFill.text)
            members["gaps"] = .array(gapFill.gaps.map(gap))
        case .poll(let poll):
            members["choices"] = .array(poll.choices.map { object(["text": .string($0)]) })
        case .estimate(let estimate):
            members["minimum"] = .number(estimate.minimum)
            members["maximum"] = .number(estimate.maximum)
            members["step"] = .number(estimate.step)
            members["value"] = .number(estimate.value)
            members["margin"] = .number(estimate.margin)
            if let unit = estimate.unit { members["unit"] = .string(unit) }
        case .wordCloud, .slide:
            break
        }
        return object(members)
    }

    static func alternatives(_ list: [Alternative]) -> JSONValue {
        .array(list.map { object(["text": .string($0.text), "fraction": .number($0.fraction.value)]) })
    }

    static func units(_ units: [NumericUnit]) -> JSONValue {
        .array(units.map { object(["name": .string($0.name), "multiplier": .number($0.multiplier)]) })
    }

    static func gap(_ weighted: GapFill.WeightedGap) -> JSONValue {
        var members: [String: JSONValue] = ["weight": .number(Double(weighted.weight))]
        switch weighted.gap {
        case .choice(let list):
            members["kind"] = .string("choice")
            members["answers"] = alternatives(list)
        case .typed(let list):
            members["kind"] = .string("typed")
            members["answers"] = alternatives(list)
        case .number(let value, let tolerance, let units):
            members["kind"] = .string("number")
            members["value"] = .number(value)
            members["tolerance"] = .number(tolerance)
            members["units"] = Self.units(units)
        }
        return object(members)
    }

    /// Member order does not matter: serialisation sorts keys.
    private static func object(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.map { JSONValue.Member(key: $0.key, value: $0.value) })
    }
}
