import Foundation
import QuizCore

/// A question as an author sends it, from the API or the web form: every kind's fields side by
/// side, loosely typed, so a half-right input can be shown back with its problems.
package struct QuestionDraft: Sendable, Hashable {
    package struct ChoiceDraft: Sendable, Hashable {
        package var text: String
        package var correct: Bool
        /// Partial credit, -1 to 1; nil for the plain rule.
        package var fraction: Double?

        package init(text: String, correct: Bool, fraction: Double? = nil) {
            self.text = text
            self.correct = correct
            self.fraction = fraction
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
    /// Typed answers worth part of the points.
    package var partial: [Alternative] = []
    package var value: Double?
    package var tolerance: Double?
    package var unit: String?
    /// A number's other units, with their multipliers from `unit`.
    package var units: [NumericUnit] = []
    package var items: [NameAllItem] = []
    /// Name-them-all's time limit, or any other kind's own seconds to answer (nil: the game's).
    package var timeLimitSeconds: Int?
    package var typoTolerance = false
    /// An ordering's items, in the right order.
    package var order: [String] = []
    package var pairs: [Matching.Pair] = []
    package var extras: [String] = []
    /// A gap fill's text with its `[[n]]` markers, and its gaps.
    package var passage = ""
    package var gaps: [GapFill.WeightedGap] = []
    package var minimum: Double?
    package var maximum: Double?
    package var step: Double?
    package var margin: Double?
    /// What to do with the question's picture: keep it, remove it, or replace it with new bytes.
    package var picture: PictureChange = .keep
    /// The picture's alt text; nil keeps the current one.
    package var pictureAlt: String?
    /// The picture the stored question has (set by `QuestionAuthoring` on update): what `.keep` keeps.
    package var currentPicture: QuestionPicture?

    /// What to do with the question's sound clip, as with its picture.
    package var sound: PictureChange = .keep
    /// The clip's description for people who cannot hear it; nil keeps the current one.
    package var soundDescription: String?
    /// The clip the stored question has (set by `QuestionAuthoring` on update).
    package var currentSound: QuestionAudio?

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
        timeLimitSeconds = question.ownSeconds
        switch question.body {
        case .singleChoice(let list), .multipleChoice(let list):
            choices = list.map { ChoiceDraft(text: $0.text, correct: $0.isCorrect, fraction: $0.fraction?.value) }
        case .trueFalse(let value):
            answer = value
        case .typedAnswer(let list, let partial):
            answers = list
            self.partial = partial
        case .numeric(let value, let tolerance, let unit, let units):
            self.value = value
            self.tolerance = tolerance
            self.unit = unit
            self.units = units
        case .nameAll(let items, let timeLimitSeconds, let typoTolerance):
            self.items = items
            self.timeLimitSeconds = timeLimitSeconds
            self.typoTolerance = typoTolerance
        case .ordering(let ordering):
            order = ordering.items
        case .matching(let matching):
            pairs = matching.pairs
            extras = matching.extras
        case .gapFill(let gapFill):
            passage = gapFill.text
            gaps = gapFill.gaps
        case .poll(let poll):
            choices = poll.choices.map { ChoiceDraft(text: $0, correct: false) }
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
        currentPicture = question.picture
        pictureAlt = question.picture?.alt
        currentSound = question.audio
        soundDescription = question.audio?.description
    }

    /// The question, or every rule it breaks (QuizCore's rules plus what its kind needs).
    package func question(id: Int64? = nil) -> Result<Question, QuestionProblems> {
        let body: QuestionBody
        switch kind {
        case .singleChoice, .multipleChoice:
            var errors: [Question.ValidationError] = []
            let list = choices.enumerated().map { index, draft in
                let fraction = draft.fraction.flatMap { value in
                    let fraction = Fraction(value)
                    if fraction == nil { errors.append(.init(field: "choices[\(index)].fraction", message: "must be between -1 and 1")) }
                    return fraction
                }
                return Choice(id: index + 1, text: draft.text, isCorrect: draft.correct, fraction: fraction)
            }
            guard errors.isEmpty else { return .failure(.init(errors)) }
            body = kind == .singleChoice ? .singleChoice(list) : .multipleChoice(list)
        case .trueFalse:
            guard let answer else { return .failure(.init([.init(field: "answer", message: "is required: true or false")])) }
            body = .trueFalse(answer)
        case .typedAnswer:
            body = .typedAnswer(answers, partial: partial)
        case .numeric:
            guard let value else { return .failure(.init([.init(field: "value", message: "is required: the correct number")])) }
            body = .numeric(value: value, tolerance: tolerance ?? 0, unit: unit.flatMap { $0.isEmpty ? nil : $0 }, units: units)
        case .nameAll:
            body = .nameAll(items: items, timeLimitSeconds: timeLimitSeconds ?? 300, typoTolerance: typoTolerance)
        case .ordering:
            body = .ordering(Ordering(items: order))
        case .matching:
            body = .matching(Matching(pairs: pairs, extras: extras))
        case .gapFill:
            body = .gapFill(GapFill(text: passage, gaps: gaps))
        case .poll:
            body = .poll(Poll(choices: choices.map(\.text)))
        case .wordCloud:
            body = .wordCloud
        case .estimate:
            let missing = [("minimum", minimum), ("maximum", maximum), ("value", value)].filter { $0.1 == nil }
            guard missing.isEmpty, let minimum, let maximum, let value else {
                return .failure(.init(missing.map { .init(field: $0.0, message: "is required") }))
            }
            body = .estimate(Estimate(minimum: minimum, maximum: maximum, step: step ?? 1, value: value, margin: margin ?? 0,
                                      unit: unit.flatMap { $0.isEmpty ? nil : $0 }))
        case .slide:
            body = .slide
        }
        let explanation = explanation.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let (picture, pictureErrors) = resolvedPicture()
        let (sound, soundErrors) = resolvedSound()
        let question = Question(id: id, text: text, explanation: explanation, difficulty: difficulty, points: points, body: body,
                                picture: picture, timeLimitSeconds: kind == .nameAll ? nil : timeLimitSeconds, audio: sound)
        var errors = pictureErrors + soundErrors + question.validationErrors()
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

extension QuestionDraft {
    /// The clip the question will have, or why the uploaded bytes cannot be one.
    func resolvedSound() -> (QuestionAudio?, [Question.ValidationError]) {
        var sound: QuestionAudio?
        switch self.sound {
        case .keep: sound = currentSound
        case .remove: sound = nil
        case .replace(let data):
            switch Result(catching: { () throws(AudioClip.Refusal) in try ImageFiles.checkSound(data) }) {
            case .success(let checked):
                sound = QuestionAudio(hash: checked.hash, type: checked.clip.type, description: "", seconds: checked.clip.seconds)
            case .failure(let refusal):
                return (nil, [.init(field: "audio", message: refusal.message)])
            }
        }
        if var kept = sound, let description = soundDescription {
            kept.description = description.trimmingCharacters(in: .whitespacesAndNewlines)
            sound = kept
        }
        return (sound, [])
    }
}

/// Every rule a question breaks, for a 422 or for the form to show next to each field.
package struct QuestionProblems: Error, Sendable {
    package var errors: [Question.ValidationError]
    package init(_ errors: [Question.ValidationError]) { self.errors = errors }
}
