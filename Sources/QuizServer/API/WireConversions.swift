import Foundation
import QuizAPI
import QuizCore

// Domain → wire, explicitly at the edge. Nothing here carries a correct answer except CorrectAnswer.

extension Components.Schemas.Role {
    init(_ role: Role) {
        switch role {
        case .player: self = .player
        case .author: self = .author
        case .admin: self = .admin
        }
    }
}

extension Components.Schemas.User {
    init(_ user: User) {
        self.init(id: user.id, username: user.username, firstName: user.firstName, lastName: user.lastName,
                  role: .init(user.role), createdAt: user.createdAt)
    }
}

extension Components.Schemas.Subject {
    init(_ s: SubjectSummary) {
        self.init(id: s.id, name: s.name, description: s.description, topicCount: s.topicCount, cover: s.cover.map(Components.Schemas.Cover.init))
    }
}

extension Components.Schemas.Cover {
    init(_ c: CoverPicture) {
        self.init(url: c.url, width: c.width, height: c.height)
    }
}

extension Components.Schemas.Topic {
    init(_ t: TopicSummary) {
        self.init(id: t.id, subjectId: t.subjectId, name: t.name, description: t.description, quizCount: t.quizCount)
    }
}

extension Components.Schemas.Quiz {
    init(_ q: QuizSummary) {
        self.init(id: q.id, topicId: q.topicId, title: q.title, description: q.description,
                  questionCount: q.questionCount, totalPoints: q.totalPoints, cover: q.cover.map(Components.Schemas.Cover.init))
    }
}

extension Components.Schemas.Question {
    /// The question as a player sees it before answering: choices without their correctness, as
    /// a use case presented them (public ids, in the order to show).
    init(presented question: Question, position: Int) {
        typealias Option = Components.Schemas.ChoiceOption
        var choices = question.body.choices.map { Option(id: $0.id, text: $0.text) }
        var unit: String?
        var items: [Option]?
        var prompts: [Option]?
        var options: [Option]?
        var passage: [Components.Schemas.PassagePart]?
        var range: (minimum: Double, maximum: Double, step: Double)?
        switch question.body {
        case .numeric(_, _, let u, _): unit = u
        case .poll(let poll): choices = poll.shown.map { Option(id: $0.id, text: $0.text) }
        // Items in the order of their public ids, never their stored (right) order.
        case .ordering(let ordering): items = ordering.shown.map { Option(id: $0.id, text: $0.text) }
        case .matching(let matching):
            prompts = matching.pairs.enumerated().map { Option(id: $0.offset + 1, text: $0.element.prompt) }
            options = matching.shownAnswers.map { Option(id: $0.id, text: $0.text) }
        case .gapFill(let gapFill):
            passage = gapFill.segments.map { segment in
                switch segment {
                case .text(let text): return .init(text: text)
                case .gap(let index):
                    let weighted = gapFill.gaps[index]
                    return switch weighted.gap {
                    case .choice: .init(gap: index + 1, gapKind: .choice, choices: weighted.shownChoices.map { Option(id: $0.id, text: $0.text) })
                    case .typed: .init(gap: index + 1, gapKind: .typed)
                    case .number: .init(gap: index + 1, gapKind: .number)
                    }
                }
            }
        case .estimate(let estimate):
            unit = estimate.unit
            range = (estimate.minimum, estimate.maximum, estimate.step)
        default: break
        }
        self.init(
            id: question.id ?? 0, kind: .init(rawValue: question.kind.rawValue) ?? .singleChoice, text: question.text,
            difficulty: .init(rawValue: question.difficulty.rawValue) ?? .medium, points: question.points,
            position: position, choices: choices.isEmpty ? nil : choices, unit: unit, items: items, prompts: prompts,
            options: options, passage: passage, minimum: range?.minimum, maximum: range?.maximum, step: range?.step,
            picture: question.picture.map(Components.Schemas.QuestionPicture.init),
            audio: question.audio.map(Components.Schemas.QuestionAudio.init)
        )
    }
}

extension Components.Schemas.QuestionAudio {
    /// Where it is served, what it holds and how long, never its bytes.
    init(_ audio: QuestionAudio) {
        self.init(description: audio.description, url: audio.url, _type: .init(rawValue: audio.type.rawValue), seconds: audio.seconds)
    }
}

extension Components.Schemas.QuestionPicture {
    /// Where it is served and how large, never its bytes.
    init(_ picture: QuestionPicture) {
        self.init(alt: picture.alt, url: picture.url, width: picture.width, height: picture.height)
    }
}

extension Components.Schemas.CorrectAnswer {
    init(_ answer: CorrectAnswer) {
        switch answer {
        case .choices(let choices): self.init(display: answer.display, choiceIds: choices.map(\.id))
        case .bool(let value): self.init(display: answer.display, value: value)
        case .text(let text): self.init(display: answer.display, text: text)
        case .number(let value, let tolerance, let unit): self.init(display: answer.display, number: value, tolerance: tolerance, unit: unit)
        case .items, .none: self.init(display: answer.display)
        case .order(let items): self.init(display: answer.display, order: items)
        case .pairs(let pairs): self.init(display: answer.display, pairs: pairs.map { .init(prompt: $0.prompt, answer: $0.answer) })
        case .gaps(let gaps): self.init(display: answer.display, gaps: gaps)
        case .estimate(let value, let unit): self.init(display: answer.display, number: value, unit: unit)
        }
    }
}

extension Components.Schemas.Verdict {
    init(_ verdict: Verdict) {
        self = switch verdict {
        case .correct: .correct
        case .wrong: .wrong
        case .alreadyAnswered: .alreadyAnswered
        case .tooLate: .tooLate
        case .partlyCorrect: .partlyCorrect
        case .counted: .counted
        }
    }
}

extension Components.Schemas.Attempt {
    init(_ attempt: Attempt, questionCount: Int) {
        self.init(
            id: attempt.id, quizId: attempt.quizId, startedAt: attempt.startedAt, finishedAt: attempt.finishedAt,
            questionCount: questionCount, correctCount: attempt.correctCount, points: attempt.points,
            timeTakenSeconds: attempt.timeTaken,
            answers: attempt.answers.map {
                .init(questionId: $0.questionId, correct: $0.isCorrect, pointsAwarded: $0.pointsAwarded, answeredAt: $0.answeredAt)
            }
        )
    }
}

extension Components.Schemas.Ranking {
    init(_ r: Ranking) {
        self.init(rank: r.rank, username: r.username, points: r.points)
    }
}
