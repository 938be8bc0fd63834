import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Playing a quiz on the use case: grading, the first answer standing, time limits and finishing.
@Suite struct PlayQuizTests {
    @Test func answersAreGradedAndTheFirstOneStands() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let started = try await env.playQuiz.start(quizId: bank.quiz.id, userId: ada.id)
            #expect(started.firstQuestionId == bank.id(0))
            let attempt = started.attempt.id
            let right = try await env.playQuiz.answer(.choice(try await env.shown(2, ofQuestion: bank.id(0))), questionId: bank.id(0), attemptId: attempt, userId: ada.id)
            #expect(right.verdict == .correct)
            #expect(right.points == 2)
            let again = try await env.playQuiz.answer(.choice(try await env.shown(1, ofQuestion: bank.id(0))), questionId: bank.id(0), attemptId: attempt, userId: ada.id)
            #expect(again.verdict == .alreadyAnswered)
            #expect(again.points == 0)
            let wrong = try await env.playQuiz.answer(.choices([env.shown(1, of: bank.questions[1]), env.shown(2, of: bank.questions[1])]), questionId: bank.id(1), attemptId: attempt, userId: ada.id)
            #expect(wrong.verdict == .wrong)
            let view = try await env.playQuiz.question(attemptId: attempt, questionId: bank.id(0), userId: ada.id)
            #expect(view.given == GivenAnswer(.choice(env.shown(2, of: bank.questions[0]))), "the first answer is the one kept, shown in public ids")
            #expect(view.question.display(view.given!.answer) == "Paris")
            #expect(view.nextUnansweredId == bank.id(2))
            #expect(!view.allAnswered)
        }
    }

    /// The result says how many places the points moved the player, and lists every question
    /// with what was answered.
    @Test func aResultSaysHowFarThePlayerMovedAndWhatEachQuestionWas() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let bob = try await env.register("bob")
            // Bob leads with the true/false question's point; Ada then passes him with Paris's two.
            let bobs = try await env.playQuiz.start(quizId: bank.quiz.id, userId: bob.id).attempt.id
            _ = try await env.playQuiz.answer(.bool(true), questionId: bank.id(2), attemptId: bobs, userId: bob.id)
            _ = try await env.playQuiz.finish(attemptId: bobs, userId: bob.id)
            let adas = try await env.playQuiz.start(quizId: bank.quiz.id, userId: ada.id).attempt.id
            _ = try await env.playQuiz.answer(.choice(try await env.shown(2, ofQuestion: bank.id(0))), questionId: bank.id(0), attemptId: adas, userId: ada.id)
            _ = try await env.playQuiz.answer(.bool(false), questionId: bank.id(2), attemptId: adas, userId: ada.id)
            _ = try await env.playQuiz.finish(attemptId: adas, userId: ada.id)
            let result = try await env.playQuiz.result(attemptId: adas, userId: ada.id)
            #expect(result.score.rank == 1)
            #expect(result.placesMoved == 1, "from second to first")
            #expect(result.questions.map(\.question.text) == bank.questions.map(\.text))
            #expect(result.questions.map { $0.answer?.isCorrect } == [true, nil, false, nil, nil])
            // Bob's own result is where he was: no move.
            #expect(try await env.playQuiz.result(attemptId: bobs, userId: bob.id).placesMoved == 0)
        }
    }

    @Test func aNumberTypedOnAPageIsKeptAsTheNumber() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let attempt = try await env.playQuiz.start(quizId: bank.quiz.id, userId: ada.id).attempt.id
            let answered = try await env.playQuiz.answer(.text(" 1230,5 KM "), questionId: bank.id(4), attemptId: attempt, userId: ada.id)
            #expect(answered.verdict == .correct)
            let view = try await env.playQuiz.question(attemptId: attempt, questionId: bank.id(4), userId: ada.id)
            #expect(view.answered?.given == #"{"number":1230.5}"#)
            #expect(view.given == GivenAnswer(.number(1230.5)))
            #expect(view.question.display(.number(1230.5)) == "1230.5 km")
        }
    }

    @Test func answersThatDoNotFitTheirQuestionAreRefusedAndNothingIsKept() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let attempt = try await env.playQuiz.start(quizId: bank.quiz.id, userId: ada.id).attempt.id
            let cases: [(AnswerInput, Int, AnswerProblem)] = [
                (.text("Paris"), 0, .doesNotFit(expected: .singleChoice)),
                (.choice(9), 0, .unknownChoice(9)),
                (.choice(1), 0, .unknownChoice(1)),  // a stored id, which players are never shown
                (.text("about a thousand"), 4, .doesNotFit(expected: .numeric)),
                (.text(String(repeating: "x", count: 1_001)), 3, .tooLong),
                (.choices(Set(1...11)), 1, .tooManyChoices),
            ]
            for (answer, index, problem) in cases {
                await #expect(throws: PlayQuiz.Failure.badAnswer(problem)) {
                    try await env.playQuiz.answer(answer, questionId: bank.id(index), attemptId: attempt, userId: ada.id)
                }
            }
            #expect(try await env.playQuiz.attempt(id: attempt, userId: ada.id).attempt.answers.isEmpty)
        }
    }

    @Test func someoneElsesAttemptAndQuestionsOutsideTheQuizAreNotFound() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let bob = try await env.register("bob")
            let attempt = try await env.playQuiz.start(quizId: bank.quiz.id, userId: ada.id).attempt.id
            await #expect(throws: PlayQuiz.Failure.attemptNotFound) {
                try await env.playQuiz.answer(.choice(try await env.shown(2, ofQuestion: bank.id(0))), questionId: bank.id(0), attemptId: attempt, userId: bob.id)
            }
            await #expect(throws: PlayQuiz.Failure.attemptNotFound) { try await env.playQuiz.question(attemptId: attempt, questionId: bank.id(0), userId: bob.id) }
            await #expect(throws: PlayQuiz.Failure.questionNotInQuiz(questionId: bank.planetsId)) {
                try await env.playQuiz.answer(.text("Mars"), questionId: bank.planetsId, attemptId: attempt, userId: ada.id)
            }
            await #expect(throws: PlayQuiz.Failure.quizNotFound) { try await env.playQuiz.start(quizId: 999, userId: ada.id) }
        }
    }

    @Test func aFinishedAttemptTakesNoMoreAnswersAndStartsNoClock() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let attempt = try await env.playQuiz.start(quizId: bank.quiz.id, userId: ada.id).attempt.id
            _ = try await env.playQuiz.answer(.choice(try await env.shown(2, ofQuestion: bank.id(0))), questionId: bank.id(0), attemptId: attempt, userId: ada.id)
            await #expect(throws: PlayQuiz.Failure.notFinished) { try await env.playQuiz.result(attemptId: attempt, userId: ada.id) }
            let score = try await env.playQuiz.finish(attemptId: attempt, userId: ada.id)
            #expect(score.attempt.points == 2)
            #expect(score.userPoints == 2)
            await #expect(throws: PlayQuiz.Failure.attemptFinished) {
                try await env.playQuiz.answer(.bool(true), questionId: bank.id(2), attemptId: attempt, userId: ada.id)
            }
            await #expect(throws: PlayQuiz.Failure.attemptFinished) { try await env.playQuiz.progress(attemptId: attempt, userId: ada.id) }
            let result = try await env.playQuiz.result(attemptId: attempt, userId: ada.id)
            #expect(result.quizTitle == "Europe")
            #expect(result.score.attempt.correctCount == 1)
            let view = try await env.playQuiz.question(attemptId: attempt, questionId: bank.id(2), userId: ada.id)
            #expect(view.clock == nil && !view.allAnswered)
            await #expect(throws: PlayQuiz.Failure.attemptNotFound) { try await env.playQuiz.finish(attemptId: attempt + 1, userId: ada.id) }
        }
    }

    /// A timed round (practice with a limit of 10 s a question) on the manual clock.
    func timedRound(_ env: UseCaseEnvironment, kinds: Set<QuestionKind> = [.trueFalse, .singleChoice]) async throws -> (User, Attempt, [Int64]) {
        _ = try await env.loadPlayBank()
        let ada = try await env.register("ada")
        let settings = PracticeSettings(count: kinds.count, kinds: kinds, order: .bankOrder, timeLimitSeconds: 10)
        let start = try await env.practice.start(userId: ada.id, settings: settings, acceptFewer: false)
        return (ada, try #require(start.attempt), start.draw.questionIds)
    }

    @Test func aTimedQuestionMustBeShownBeforeItIsAnsweredAndItsTextWaitsForItsClock() async throws {
        try await withUseCases { env in
            let (ada, attempt, ids) = try await timedRound(env)
            let list = try await env.playQuiz.progress(attemptId: attempt.id, userId: ada.id)
            #expect(list.lines.map(\.hidden) == [true, true])
            await #expect(throws: PlayQuiz.Failure.notShown) {
                try await env.playQuiz.answer(.choice(try await env.shown(2, ofQuestion: ids[0])), questionId: ids[0], attemptId: attempt.id, userId: ada.id)
            }
            let view = try await env.playQuiz.question(attemptId: attempt.id, questionId: ids[0], userId: ada.id)
            #expect(view.clock?.secondsLeft == 10)
            #expect(view.clock?.deadline == env.time.now().addingTimeInterval(10))
            #expect(try await env.playQuiz.progress(attemptId: attempt.id, userId: ada.id).lines.map(\.hidden) == [false, true])
            // Opening it again later does not restart its clock.
            env.time.advance(by: 4)
            #expect(try await env.playQuiz.question(attemptId: attempt.id, questionId: ids[0], userId: ada.id).clock?.secondsLeft == 6)
        }
    }

    @Test func anAnswerWithinTheGraceCountsAndALateOneIsKeptMarkedLateForNothing() async throws {
        try await withUseCases { env in
            let (ada, attempt, ids) = try await timedRound(env)
            _ = try await env.playQuiz.question(attemptId: attempt.id, questionId: ids[0], userId: ada.id)
            env.time.advance(by: 10 + PlayQuiz.grace)
            let inTime = try await env.playQuiz.answer(.choice(try await env.shown(2, ofQuestion: ids[0])), questionId: ids[0], attemptId: attempt.id, userId: ada.id)
            #expect(inTime.verdict == .correct)
            _ = try await env.playQuiz.question(attemptId: attempt.id, questionId: ids[1], userId: ada.id)
            env.time.advance(by: 10 + PlayQuiz.grace + 0.5)
            let late = try await env.playQuiz.answer(.bool(true), questionId: ids[1], attemptId: attempt.id, userId: ada.id)
            #expect(late.verdict == .tooLate)
            #expect(late.points == 0)
            let view = try await env.playQuiz.question(attemptId: attempt.id, questionId: ids[1], userId: ada.id)
            #expect(view.given == GivenAnswer(.bool(true), late: true))
            #expect(view.answered?.isCorrect == false)
            #expect(view.allAnswered)
            #expect(view.clock?.secondsLeft == 0, "an answered question's clock is read, not started again")
        }
    }

    @Test func historyListsWhatWasAnsweredSinceThePlaySessionBegan() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let attempt = try await env.playQuiz.start(quizId: bank.quiz.id, userId: ada.id).attempt.id
            _ = try await env.playQuiz.answer(.choice(try await env.shown(2, ofQuestion: bank.id(0))), questionId: bank.id(0), attemptId: attempt, userId: ada.id)
            let session = env.time.now().addingTimeInterval(1)
            env.time.advance(by: 2)
            _ = try await env.playQuiz.answer(.bool(false), questionId: bank.id(2), attemptId: attempt, userId: ada.id)
            let items = try await env.playQuiz.history(userId: ada.id, since: session)
            #expect(items.map(\.questionId) == [bank.id(2)])
            #expect(items.first?.isCorrect == false)
        }
    }
}
