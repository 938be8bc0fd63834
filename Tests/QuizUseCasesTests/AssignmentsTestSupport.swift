import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

extension UseCaseEnvironment {
    func assignments(joinsPerMinute: Int = 1_000) -> Assignments {
        Assignments(store: store, time: time, key: choiceKey, joins: RateLimiter(limit: joinsPerMinute, window: 60, time: time))
    }

    /// The right answer to a question of the play bank, as a player sends it (in public ids).
    func rightAnswer(to question: Question) -> AnswerInput {
        switch question.body {
        case .singleChoice(let choices): .choice(shown(choices.first(where: \.isCorrect)!.id, of: question))
        case .multipleChoice(let choices): .choices(choices.filter(\.isCorrect).map { shown($0.id, of: question) })
        case .trueFalse(let value): .bool(value)
        case .typedAnswer(let accepted, _): .text(accepted[0])
        case .numeric(let value, _, _, _): .number(value)
        default: AnswerInput(read: true)
        }
    }

    /// A wrong answer to a question of the play bank.
    func wrongAnswer(to question: Question) -> AnswerInput {
        switch question.body {
        case .singleChoice(let choices): .choice(shown(choices.first { !$0.isCorrect }!.id, of: question))
        case .multipleChoice(let choices): .choices([shown(choices.first { !$0.isCorrect }!.id, of: question)])
        case .trueFalse(let value): .bool(!value)
        case .typedAnswer: .text("Rotterdam")
        case .numeric(let value, _, _, _): .number(value * 2)
        default: AnswerInput(read: true)
        }
    }
}

/// The play bank's quiz assigned by a teacher, open from now for a day unless told otherwise.
struct AssignmentFixture {
    let env: UseCaseEnvironment
    let sut: Assignments
    let bank: PlayFixture
    let teacher: User
    let assignment: Assignment

    init(_ env: UseCaseEnvironment, settings: AssignmentSettings = AssignmentSettings(), opensIn: TimeInterval = 0,
         closesIn: TimeInterval = 86_400, joinsPerMinute: Int = 1_000) async throws {
        self.env = env
        sut = env.assignments(joinsPerMinute: joinsPerMinute)
        bank = try await env.loadPlayBank()
        teacher = try await env.register("teacher")
        let now = env.time.now()
        assignment = try await sut.create(Assignments.Draft(quizId: bank.quiz.id, opensAt: now + opensIn, closesAt: now + closesIn,
                                                            settings: settings), user: teacher)
    }

    func join(_ nickname: String, address: String = "192.0.2.1") async throws -> Assignments.Joined {
        try await sut.join(code: assignment.code, nickname: nickname, user: nil, address: address)
    }

    /// Plays the next questions: right for the question ids in `right`, wrong otherwise, up to
    /// `limit` answers; returns what answering gave back.
    @discardableResult
    func play(_ pass: Assignments.Pass, right: Set<Int64>, limit: Int = .max) async throws -> [Assignments.Answered] {
        var answered: [Assignments.Answered] = []
        while answered.count < limit, case .question(let view) = try await sut.next(pass) {
            let question = try #require(bank.questions.first { $0.id == view.question.id })
            let input = right.contains(question.id ?? 0) ? env.rightAnswer(to: question) : env.wrongAnswer(to: question)
            answered.append(try await sut.answer(input, position: view.position, pass))
        }
        return answered
    }

    var allIds: Set<Int64> { Set(bank.questions.compactMap(\.id)) }
}
