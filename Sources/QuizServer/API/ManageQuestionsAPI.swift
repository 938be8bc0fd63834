import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

/// Authoring questions (`QuestionAuthoring`): a topic's bank, and each question with its picture.
/// Authors and admins only.
struct ManageQuestionsAPI: Sendable {
    let questions: QuestionAuthoring

    /// The use case's refusals as the API's errors.
    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        try await APIError.translating({ (failure: QuestionAuthoring.Failure) in APIError(failure) }, body)
    }

    func listTopicQuestions(_ input: Operations.ListTopicQuestions.Input, by caller: AuthorCaller) async throws -> Operations.ListTopicQuestions.Output {
        let topicId = input.path.topicId
        let bank = try await refusing { try await questions.bank(ofTopic: topicId, by: caller.user) }
        return .ok(.init(body: .json(.init(questions: bank.map { .init($0, topicId: topicId) }))))
    }

    func createQuestion(_ input: Operations.CreateQuestion.Input, by caller: AuthorCaller) async throws -> Operations.CreateQuestion.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let draft = try QuestionDraft(body)
        let stored = try await refusing { try await questions.create(draft, inTopic: input.path.topicId, by: caller.user) }
        return .created(.init(body: .json(.init(stored.question, topicId: stored.topicId))))
    }

    func getManagedQuestion(_ input: Operations.GetManagedQuestion.Input, by caller: AuthorCaller) async throws -> Operations.GetManagedQuestion.Output {
        let stored = try await refusing { try await questions.question(input.path.questionId, by: caller.user) }
        return .ok(.init(body: .json(.init(stored.question, topicId: stored.topicId))))
    }

    func updateQuestion(_ input: Operations.UpdateQuestion.Input, by caller: AuthorCaller) async throws -> Operations.UpdateQuestion.Output {
        guard case .json(let body) = input.body else { throw APIError.sendJSON }
        let draft = try QuestionDraft(body)
        let stored = try await refusing { try await questions.update(input.path.questionId, to: draft, by: caller.user) }
        return .ok(.init(body: .json(.init(stored.question, topicId: stored.topicId))))
    }

    func deleteQuestion(_ input: Operations.DeleteQuestion.Input, by caller: AuthorCaller) async throws -> Operations.DeleteQuestion.Output {
        _ = try await refusing { try await questions.delete(input.path.questionId, by: caller.user) }
        return .noContent(.init())
    }
}

extension APIError {
    init(_ failure: QuestionAuthoring.Failure) {
        switch failure {
        case .notAuthor:
            self = .needsAuthor
        case .topicNotFound:
            self = .notFound("topic")
        case .questionNotFound:
            self = .notFound("question")
        case .invalid(let errors):
            self.init(.unprocessableContent, "invalid_question", failure.message, field: errors.first?.field,
                      problems: errors.map { FormatProblem(path: $0.field, message: $0.message) })
        case .kindLocked:
            self.init(.conflict, "kind_locked", failure.message, field: "kind")
        case .nameAllInQuiz:
            self.init(.unprocessableContent, "name_all_in_quiz", failure.message, field: "kind")
        case .tooManyPictures:
            self.init(.tooManyRequests, "rate_limited", failure.message, field: "picture")
            retryAfter = 3600
        case .tooManySounds:
            self.init(.tooManyRequests, "rate_limited", failure.message, field: "audio")
            retryAfter = 3600
        }
    }
}

extension QuestionDraft {
    /// A file field's change: removed, new bytes from base64, or kept when neither is sent.
    private static func change(remove: Bool?, data encoded: String?, what: String, field: String) throws -> PictureChange {
        if remove == true { return .remove }
        guard let encoded else { return .keep }
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
            throw APIError(.unprocessableContent, "invalid_question", "\(what) is not valid base64.", field: field)
        }
        return .replace(data)
    }

    /// Throws only for a picture or clip that is not base64; everything else is the use case's to judge.
    init(_ wire: Components.Schemas.AuthoredQuestion) throws {
        self.init()
        picture = try Self.change(remove: wire.removePicture, data: wire.picture?.data, what: "The picture", field: "picture.data")
        pictureAlt = wire.picture?.alt
        sound = try Self.change(remove: wire.removeAudio, data: wire.audio?.data, what: "The sound clip", field: "audio.data")
        soundDescription = wire.audio?.description
        kind = QuestionKind(rawValue: wire.kind.rawValue) ?? .singleChoice
        text = wire.text
        explanation = wire.explanation
        difficulty = wire.difficulty.flatMap { Difficulty(rawValue: $0.rawValue) } ?? .medium
        points = wire.points ?? Question.defaultPoints
        choices = (wire.choices ?? []).map { ChoiceDraft(text: $0.text, correct: $0.correct, fraction: $0.fraction) }
        answer = wire.answer
        answers = wire.answers ?? []
        partial = try (wire.partial ?? []).enumerated().map { index, answer in
            guard let fraction = Fraction(answer.fraction ?? 1) else {
                throw APIError(.unprocessableContent, "invalid_question", "A fraction is between -1 and 1.", field: "partial[\(index)].fraction")
            }
            return Alternative(answer.text, fraction: fraction)
        }
        units = (wire.units ?? []).map { NumericUnit(name: $0.name, multiplier: $0.multiplier ?? 1) }
        value = wire.value
        tolerance = wire.tolerance
        unit = wire.unit
        items = (wire.items ?? []).map { NameAllItem(answer: $0.answer, alternates: $0.alternates ?? []) }
        timeLimitSeconds = wire.timeLimitSeconds
        typoTolerance = wire.typoTolerance ?? false
        order = wire.order ?? []
        pairs = (wire.pairs ?? []).map { Matching.Pair(prompt: $0.prompt, answer: $0.answer) }
        extras = wire.extras ?? []
        passage = wire.passage ?? ""
        gaps = try (wire.gaps ?? []).enumerated().map { index, gap in try Self.gap(gap, index: index) }
        minimum = wire.minimum
        maximum = wire.maximum
        step = wire.step
        margin = wire.margin
    }

    /// A fraction out of -1...1 is the one shape error the domain's types cannot hold.
    private static func gap(_ wire: Components.Schemas.AuthoredGap, index: Int) throws -> GapFill.WeightedGap {
        let alternatives = try (wire.answers ?? []).enumerated().map { position, answer in
            guard let fraction = Fraction(answer.fraction ?? 1) else {
                throw APIError(.unprocessableContent, "invalid_question", "A fraction is between -1 and 1.",
                               field: "gaps[\(index)].answers[\(position)].fraction")
            }
            return Alternative(answer.text, fraction: fraction)
        }
        let gap: GapFill.Gap = switch wire.kind {
        case .choice: .choice(alternatives)
        case .typed: .typed(alternatives)
        case .number:
            .number(value: wire.value ?? .nan, tolerance: wire.tolerance ?? 0,
                    units: (wire.units ?? []).map { NumericUnit(name: $0.name, multiplier: $0.multiplier ?? 1) })
        }
        return GapFill.WeightedGap(gap, weight: wire.weight ?? 1)
    }
}

extension Components.Schemas.AuthoredQuestion {
    init(_ question: Question, topicId: Int64) {
        let draft = QuestionDraft(question)
        let hasChoices = question.kind == .singleChoice || question.kind == .multipleChoice || question.kind == .poll
        let isEstimate = question.kind == .estimate
        self.init(
            id: question.id, topicId: topicId, kind: .init(rawValue: question.kind.rawValue) ?? .singleChoice,
            text: question.text, explanation: question.explanation, difficulty: .init(rawValue: question.difficulty.rawValue),
            points: question.points,
            choices: hasChoices ? draft.choices.map { .init(text: $0.text, correct: $0.correct, fraction: $0.fraction) } : nil,
            answer: draft.answer, answers: question.kind == .typedAnswer ? draft.answers : nil,
            partial: draft.partial.isEmpty ? nil : draft.partial.map { .init(text: $0.text, fraction: $0.fraction.value) },
            value: draft.value, tolerance: draft.tolerance, unit: draft.unit,
            units: draft.units.isEmpty ? nil : draft.units.map { .init(name: $0.name, multiplier: $0.multiplier) },
            items: question.kind == .nameAll ? draft.items.map { .init(answer: $0.answer, alternates: $0.alternates) } : nil,
            timeLimitSeconds: draft.timeLimitSeconds, typoTolerance: question.kind == .nameAll ? draft.typoTolerance : nil,
            order: question.kind == .ordering ? draft.order : nil,
            pairs: question.kind == .matching ? draft.pairs.map { .init(prompt: $0.prompt, answer: $0.answer) } : nil,
            extras: question.kind == .matching ? draft.extras : nil,
            passage: question.kind == .gapFill ? draft.passage : nil,
            gaps: question.kind == .gapFill ? draft.gaps.map(Self.gap) : nil,
            minimum: isEstimate ? draft.minimum : nil, maximum: isEstimate ? draft.maximum : nil,
            step: isEstimate ? draft.step : nil, margin: isEstimate ? draft.margin : nil,
            picture: question.picture.map(Components.Schemas.QuestionPicture.init),
            audio: question.audio.map(Components.Schemas.QuestionAudio.init)
        )
    }

    private static func gap(_ weighted: GapFill.WeightedGap) -> Components.Schemas.AuthoredGap {
        func answers(_ list: [Alternative]) -> [Components.Schemas.AuthoredAlternative] {
            list.map { .init(text: $0.text, fraction: $0.fraction.value) }
        }
        return switch weighted.gap {
        case .choice(let list): .init(kind: .choice, weight: weighted.weight, answers: answers(list))
        case .typed(let list): .init(kind: .typed, weight: weighted.weight, answers: answers(list))
        case .number(let value, let tolerance, let units):
            .init(kind: .number, weight: weighted.weight, value: value, tolerance: tolerance,
                  units: units.map { .init(name: $0.name, multiplier: $0.multiplier) })
        }
    }
}
