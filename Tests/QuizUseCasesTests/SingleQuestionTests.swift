import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Questions answered on their own: counted once a day, and their clocks in timed rounds.
@Suite struct SingleQuestionTests {
    @Test func theFirstAnswerOfTheDayCounts() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let right = try await env.singleQuestion.answer(.text("amsterdam"), questionId: bank.id(3), userId: ada.id)
            #expect(right.stored.isCorrect && right.stored.counted)
            #expect(right.stored.pointsAwarded == 1)
            let again = try await env.singleQuestion.answer(.text("Amsterdam"), questionId: bank.id(3), userId: ada.id)
            #expect(again.stored.isCorrect && !again.stored.counted)
            #expect(again.stored.pointsAwarded == 0)
            let result = try await env.singleQuestion.result(questionId: bank.id(3), answerId: right.stored.id, userId: ada.id)
            #expect(result.given == GivenAnswer(.text("amsterdam")))
            env.time.advance(by: 24 * 3600)
            #expect(try await env.singleQuestion.answer(.text("Amsterdam"), questionId: bank.id(3), userId: ada.id).stored.counted)
        }
    }

    @Test func gamesAreNotSingleQuestionsAndOthersAnswersAreNotShown() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let bob = try await env.register("bob")
            await #expect(throws: SingleQuestion.Failure.notFound) { try await env.singleQuestion.question(id: bank.planetsId, userId: ada.id) }
            await #expect(throws: SingleQuestion.Failure.notFound) { try await env.singleQuestion.question(id: 999, userId: ada.id) }
            await #expect(throws: SingleQuestion.Failure.badAnswer(.doesNotFit(expected: .trueFalse))) {
                try await env.singleQuestion.answer(.choice(1), questionId: bank.id(2), userId: ada.id)
            }
            let answered = try await env.singleQuestion.answer(.bool(true), questionId: bank.id(2), userId: ada.id)
            await #expect(throws: SingleQuestion.Failure.notFound) {
                try await env.singleQuestion.result(questionId: bank.id(2), answerId: answered.stored.id, userId: bob.id)
            }
            await #expect(throws: SingleQuestion.Failure.noneMatches) { try await env.singleQuestion.random(subjectId: nil, topicId: 999, userId: ada.id) }
            let random = try await env.singleQuestion.random(subjectId: nil, topicId: nil, userId: ada.id)
            #expect(random.kind != .nameAll)
        }
    }

    @Test func readingAQuestionOnItsOwnStartsItsClockInATimedRound() async throws {
        try await withUseCases { env in
            _ = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let settings = PracticeSettings(count: 1, kinds: [.trueFalse], timeLimitSeconds: 10)
            let start = try await env.practice.start(userId: ada.id, settings: settings, acceptFewer: false)
            let attempt = try #require(start.attempt)
            let id = try #require(start.draw.questionIds.first)
            _ = try await env.singleQuestion.question(id: id, userId: ada.id)
            env.time.advance(by: 30)
            let late = try await env.playQuiz.answer(.bool(true), questionId: id, attemptId: attempt.id, userId: ada.id)
            #expect(late.verdict == .tooLate, "its text was read 30 s before, outside the round")
        }
    }
}
