import Foundation
import QuizCore

extension BundleDecoder {
    static let commonQuestionKeys: Set<String> = ["kind", "text", "difficulty", "explanation", "points", "picture", "audio", "timeLimitSeconds"]
    static let questionKeys: [QuestionKind: Set<String>] = [
        .singleChoice: ["choices"], .multipleChoice: ["choices"], .trueFalse: ["answer"],
        .typedAnswer: ["answers", "partial"], .numeric: ["value", "tolerance", "unit", "units"],
        .nameAll: ["items", "timeLimitSeconds", "typoTolerance"],
        .ordering: ["order"], .matching: ["pairs", "extras"], .gapFill: ["passage", "gaps"], .poll: ["choices"],
        .wordCloud: [], .estimate: ["minimum", "maximum", "step", "value", "margin", "unit"], .slide: [],
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
        let audio = fields["audio"].flatMap { $0 == .null ? nil : self.audio($0, fields) }
        // Name-them-all reads the same key as its own limit, in its body.
        let seconds = kind == .nameAll ? nil : integer(fields, "timeLimitSeconds", .optional)

        guard let text, let points, let body, problems.problems.count + problems.omittedCount == before else { return nil }
        let question = Question(text: text, explanation: explanation, difficulty: difficulty, points: points, body: body,
                                picture: picture, timeLimitSeconds: seconds, audio: audio)
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
            let answers = strings(fields, "answers")
            let partial = fields["partial"] == nil ? [] : alternatives(fields, key: "partial")
            guard let answers, let partial else { return nil }
            return .typedAnswer(answers, partial: partial)
        case .numeric:
            let value = number(fields, "value")
            let tolerance = number(fields, "tolerance", .defaulted(0))
            let unit = string(fields, "unit", .optional)
            let units = self.units(fields)
            guard let value, let tolerance, let units else { return nil }
            return .numeric(value: value, tolerance: tolerance, unit: unit, units: units)
        case .nameAll:
            let items = nameAllItems(fields)
            let seconds = integer(fields, "timeLimitSeconds", .defaulted(Self.defaultTimeLimitSeconds))
            let typoTolerance = bool(fields, "typoTolerance", .defaulted(false))
            guard let items, let seconds, let typoTolerance else { return nil }
            return .nameAll(items: items, timeLimitSeconds: seconds, typoTolerance: typoTolerance)
        case .ordering:
            return strings(fields, "order").map { .ordering(Ordering(items: $0)) }
        case .matching:
            let pairs = self.pairs(fields)
            let extras = strings(fields, "extras", .defaulted([]))
            guard let pairs, let extras else { return nil }
            return .matching(Matching(pairs: pairs, extras: extras))
        case .gapFill:
            let passage = string(fields, "passage")
            let gaps = self.gaps(fields)
            guard let passage, let gaps else { return nil }
            return .gapFill(GapFill(text: passage, gaps: gaps))
        case .poll:
            return choices(fields, allowed: ["text"]).map { .poll(Poll(choices: $0.map(\.text))) }
        case .wordCloud:
            return .wordCloud
        case .estimate:
            let minimum = number(fields, "minimum")
            let maximum = number(fields, "maximum")
            let step = number(fields, "step", .defaulted(1))
            let value = number(fields, "value")
            let margin = number(fields, "margin", .defaulted(0))
            let unit = string(fields, "unit", .optional)
            guard let minimum, let maximum, let step, let value, let margin else { return nil }
            return .estimate(Estimate(minimum: minimum, maximum: maximum, step: step, value: value, margin: margin, unit: unit))
        case .slide:
            return .slide
        }
    }

    /// `[{"prompt", "answer"}]`.
    private mutating func pairs(_ fields: Fields) -> [Matching.Pair]? {
        guard let values = array(fields, "pairs") else { return nil }
        var pairs: [Matching.Pair] = []
        for (index, value) in values.enumerated() {
            guard let pair = object(value, at: fields.path("pairs[\(index)]"), allowed: ["prompt", "answer"], question: fields.question)
            else { continue }
            let prompt = string(pair, "prompt")
            let answer = string(pair, "answer")
            if let prompt, let answer { pairs.append(Matching.Pair(prompt: prompt, answer: answer)) }
        }
        return pairs
    }

    /// `[{"kind": "choice"|"typed", "answers": [{"text", "fraction"}], "weight"}]` or
    /// `{"kind": "number", "value", "tolerance", "units": [{"name", "multiplier"}], "weight"}`.
    private mutating func gaps(_ fields: Fields) -> [GapFill.WeightedGap]? {
        guard let values = array(fields, "gaps") else { return nil }
        var gaps: [GapFill.WeightedGap] = []
        for (index, value) in values.enumerated() {
            let path = fields.path("gaps[\(index)]")
            guard let gap = object(value, at: path, allowed: ["kind", "answers", "value", "tolerance", "units", "weight"],
                                   question: fields.question) else { continue }
            let weight = integer(gap, "weight", .defaulted(1))
            guard let kind = string(gap, "kind"), let weight else { continue }
            switch kind {
            case "choice", "typed":
                guard let list = alternatives(gap) else { continue }
                gaps.append(GapFill.WeightedGap(kind == "choice" ? .choice(list) : .typed(list), weight: weight))
            case "number":
                let value = number(gap, "value")
                let tolerance = number(gap, "tolerance", .defaulted(0))
                let units = self.units(gap)
                guard let value, let tolerance, let units else { continue }
                gaps.append(GapFill.WeightedGap(.number(value: value, tolerance: tolerance, units: units), weight: weight))
            default:
                report(gap.path("kind"), "unknown gap kind \"\(kind)\": use choice, typed or number", question: fields.question)
            }
        }
        return gaps
    }

    /// `[{"text", "fraction"}]`; "fraction" (-1 to 1) defaults to 1.
    private mutating func alternatives(_ fields: Fields, key: String = "answers") -> [Alternative]? {
        guard let values = array(fields, key) else { return nil }
        var list: [Alternative] = []
        for (index, value) in values.enumerated() {
            guard let item = object(value, at: fields.path("\(key)[\(index)]"), allowed: ["text", "fraction"], question: fields.question)
            else { continue }
            let text = string(item, "text")
            let fraction = self.fraction(item, default: 1)
            if let text, let fraction { list.append(Alternative(text, fraction: fraction)) }
        }
        return list
    }

    /// `[{"name", "multiplier"}]`; "multiplier" defaults to 1; no "units" is none.
    private mutating func units(_ fields: Fields) -> [NumericUnit]? {
        guard fields["units"] != nil else { return [] }
        guard let values = array(fields, "units") else { return nil }
        var units: [NumericUnit] = []
        for (index, value) in values.enumerated() {
            guard let item = object(value, at: fields.path("units[\(index)]"), allowed: ["name", "multiplier"], question: fields.question)
            else { continue }
            let name = string(item, "name")
            let multiplier = number(item, "multiplier", .defaulted(1))
            if let name, let multiplier { units.append(NumericUnit(name: name, multiplier: multiplier)) }
        }
        return units
    }

    /// A fraction from -1 to 1.
    private mutating func fraction(_ fields: Fields, default defaultValue: Double?) -> Fraction? {
        let value = defaultValue.map { number(fields, "fraction", .defaulted($0)) } ?? number(fields, "fraction", .optional)
        guard let value else { return nil }
        guard let fraction = Fraction(value) else {
            report(fields.path("fraction"), "must be between -1 and 1 (a share of the points), not \(value)", question: fields.question)
            return nil
        }
        return fraction
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

    /// `{"description", "data"}`: what the clip holds and its bytes in base64, checked as an upload is.
    private mutating func audio(_ value: JSONValue, _ fields: Fields) -> QuestionAudio? {
        guard let audio = object(value, at: fields.path("audio"), allowed: ["description", "data"], question: fields.question) else { return nil }
        let description = string(audio, "description")
        guard let encoded = string(audio, "data"), let description else { return nil }
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
            report(audio.path("data"), "is not base64", question: fields.question)
            return nil
        }
        switch QuestionAudio.carried(data, description: description) {
        case .success(let carried): return carried
        case .failure(let refusal):
            report(audio.path("data"), refusal.message, question: fields.question)
            return nil
        }
    }

    /// `[{"text", "correct", "fraction"}]`, ids numbered 1...n in order; "correct" defaults to
    /// false, "fraction" (-1 to 1) to none. A poll's choices have only a text.
    private mutating func choices(_ fields: Fields, allowed: Set<String> = ["text", "correct", "fraction"]) -> [Choice]? {
        guard let values = array(fields, "choices") else { return nil }
        var choices: [Choice] = []
        for (index, value) in values.enumerated() {
            guard let choice = object(value, at: fields.path("choices[\(index)]"), allowed: allowed, question: fields.question)
            else { continue }
            let text = string(choice, "text")
            let correct = bool(choice, "correct", .defaulted(false))
            let before = problems.problems.count
            let fraction = allowed.contains("fraction") ? self.fraction(choice, default: nil) : nil
            guard problems.problems.count == before else { continue }
            if let text, let correct { choices.append(Choice(id: index + 1, text: text, isCorrect: correct, fraction: fraction)) }
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
