import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

extension UseCaseEnvironment {
    func classes(joinsPerMinute: Int = 1_000) -> Classes {
        Classes(store: store, time: time, joins: RateLimiter(limit: joinsPerMinute, window: 60, time: time))
    }
}

/// A teacher's class "7B" with the students Ann and Bob, and the play bank to assign.
struct ClassFixture {
    let env: UseCaseEnvironment
    let sut: Classes
    let assignments: Assignments
    let bank: PlayFixture
    let teacher: User
    let ann: User
    let bob: User
    let schoolClass: SchoolClass

    init(_ env: UseCaseEnvironment, joinsPerMinute: Int = 1_000) async throws {
        self.env = env
        sut = env.classes(joinsPerMinute: joinsPerMinute)
        assignments = env.assignments()
        bank = try await env.loadPlayBank()
        teacher = try await env.register("teacher")
        ann = try await env.register("ann")
        bob = try await env.register("bob")
        schoolClass = try await sut.create(name: " 7B ", user: teacher)
        for student in [ann, bob] { _ = try await sut.join(code: schoolClass.code, user: student, address: "192.0.2.9") }
    }

    /// The play bank's quiz set to the class, open from now for `closesIn` seconds.
    func assign(_ title: String, closesIn: TimeInterval = 86_400, settings: AssignmentSettings = AssignmentSettings()) async throws -> Assignment {
        try await assignments.create(Assignments.Draft(quizId: bank.quiz.id, title: title, closesAt: env.time.now() + closesIn, settings: settings,
                                                       classId: schoolClass.id), user: teacher)
    }

    /// `student` does the assignment once, right on the questions at `right` (indexes into the bank's quiz), and finishes.
    func play(_ assignment: Assignment, as student: User, right: Set<Int>, finish: Bool = true) async throws {
        let joined = try await assignments.join(code: assignment.code, nickname: "", user: student, address: "192.0.2.9")
        _ = try await assignments.start(joined.pass)
        while case .question(let view) = try await assignments.next(joined.pass) {
            let index = try #require(bank.questions.firstIndex { $0.id == view.question.id })
            let input = right.contains(index) ? env.rightAnswer(to: bank.questions[index]) : env.wrongAnswer(to: bank.questions[index])
            _ = try await assignments.answer(input, position: view.position, joined.pass)
        }
        if finish { _ = try await assignments.finish(joined.pass) }
    }
}
