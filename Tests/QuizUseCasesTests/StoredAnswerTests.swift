import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Rows stored before answers were typed read back through the use cases, as the pages show them.
@Suite struct StoredAnswerTests {
    /// Each row as an earlier Quizbox wrote it (the API's shapes, the pages' text for a number, a
    /// late answer's spliced prefix), the question it answered, and what the page shows for it.
    static let oldRows: [(stored: String, question: Int, read: GivenAnswer, shown: String)] = [
        (#"{"choiceId":2}"#, 0, GivenAnswer(.choice(2)), "Paris"),
        (#"{"choiceIds":[1,3]}"#, 1, GivenAnswer(.choices([1, 3])), "France, Poland"),
        (#"{"value":true}"#, 2, GivenAnswer(.bool(true)), "True"),
        (#"{"text":"Amsterdam \"A'dam\""}"#, 3, GivenAnswer(.text("Amsterdam \"A'dam\"")), "Amsterdam \"A'dam\""),
        (#"{"number":1233.0}"#, 4, GivenAnswer(.number(1233)), "1233 km"),
        (#"{"text":"1 233,5 km"}"#, 4, GivenAnswer(.text("1 233,5 km")), "1 233,5 km"),
        (#"{"tooLate":true,"choiceIds":[2]}"#, 1, GivenAnswer(.choices([2]), late: true), "Spain"),
        (#"{"tooLate":true,"text":"42"}"#, 4, GivenAnswer(.text("42"), late: true), "42"),
    ]

    @Test func oldRowsOfAnAttemptReadBackAsTypedAnswers() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            for (stored, index, read, shown) in Self.oldRows {
                let user = try await env.register("p\(UUID().uuidString.prefix(8).lowercased())")
                let attempt = try await env.playQuiz.start(quizId: bank.quiz.id, userId: user.id).attempt.id
                _ = try await env.store.recordAnswer(attemptId: attempt, questionId: bank.id(index), answer: stored,
                                                     isCorrect: false, points: 0, at: env.time.now())
                let view = try await env.playQuiz.question(attemptId: attempt, questionId: bank.id(index), userId: user.id)
                // Shown in the ids the player sees, whatever ids the row holds.
                #expect(view.given == env.choiceKey.ids(for: bank.questions[index]).presenting(read), "\(stored)")
                #expect(view.given.flatMap { view.question.display($0.answer) } == shown, "\(stored)")
            }
        }
    }

    @Test func anOldRowOfASingleAnswerReadsBack() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let stored = try await env.store.recordSingleAnswer(userId: ada.id, questionId: bank.id(4), answer: #"{"text":"1233"}"#,
                                                                isCorrect: true, points: 1, at: env.time.now())
            let result = try await env.singleQuestion.result(questionId: bank.id(4), answerId: stored.id, userId: ada.id)
            #expect(result.given == GivenAnswer(.text("1233")))
        }
    }
}
