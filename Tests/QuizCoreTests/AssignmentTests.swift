import Foundation
import QuizCore
import Testing

@Suite struct AssignmentTests {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    private func assignment(_ settings: AssignmentSettings = AssignmentSettings(), opens: TimeInterval = 0, closes: TimeInterval = 3600,
                            title: String = "Homework") -> Assignment {
        Assignment(code: "123456", quizId: 1, ownerUserId: 1, title: title, questionIds: [1, 2], opensAt: t0 + opens, closesAt: t0 + closes,
                   settings: settings, createdAt: t0)
    }

    @Test func theWindowOpensAtItsOpeningAndIsClosedFromItsCloseOn() {
        let homework = assignment(opens: 60, closes: 120)
        #expect(homework.window(at: t0 + 59.999) == .notOpen)
        #expect(homework.window(at: t0 + 60) == .open)
        #expect(homework.window(at: t0 + 119.999) == .open)
        #expect(homework.window(at: t0 + 120) == .closed)
    }

    @Test func anAttemptInProgressIsOverAtTheCloseAndCarriesOnWhenReopened() {
        var homework = assignment(closes: 100)
        #expect(!homework.isOver(finishedAt: nil, at: t0 + 99))
        #expect(homework.isOver(finishedAt: nil, at: t0 + 100))
        #expect(homework.isOver(finishedAt: t0 + 50, at: t0 + 60))
        homework.closesAt = t0 + 500
        #expect(!homework.isOver(finishedAt: nil, at: t0 + 200))
    }

    @Test func theDefaultsAreOneAttemptAccuracyOnlyNoClockAnswersAfterFinishingAndNoLeaderboardPoints() {
        let settings = AssignmentSettings()
        #expect(settings.attemptsAllowed == 1)
        #expect(!settings.speedPoints)
        #expect(settings.timing == .none)
        #expect(settings.answersShown == .afterFinishing)
        #expect(!settings.leaderboardPoints)
        #expect(!settings.shuffleQuestions && !settings.shuffleAnswers)
    }

    @Test func settingsReadFromJSONKeepTheDefaultsOfWhatIsLeftOut() throws {
        let settings = try JSONDecoder().decode(AssignmentSettings.self, from: Data(#"{"attemptsAllowed":3,"grading":"average"}"#.utf8))
        #expect(settings == AssignmentSettings(attemptsAllowed: 3, grading: .average))
    }

    @Test func validationNamesEveryBrokenFieldAtOnce() {
        let broken = assignment(AssignmentSettings(attemptsAllowed: 11, speedPoints: true), opens: 100, closes: 100, title: "  ")
        #expect(broken.validationErrors(now: t0).map(\.field) == ["title", "closesAt", "attemptsAllowed", "speedPoints"])
        #expect(assignment(closes: 10).validationErrors(now: t0 + 10).map(\.field) == ["closesAt"], "closed as it is set")
        #expect(assignment(AssignmentSettings(attemptsAllowed: 10, timing: .questionsOwn, speedPoints: true)).validationErrors(now: t0).isEmpty)
        #expect(assignment(title: String(repeating: "a", count: 201)).validationErrors(now: t0).map(\.field) == ["title"])
    }

    @Test func aQuestionIsTimedByItsOwnLimitElseThirtySecondsAndASlideNever() {
        let timed = AssignmentSettings(timing: .questionsOwn)
        #expect(timed.seconds(for: Question(text: "?", body: .trueFalse(true), timeLimitSeconds: 45)) == 45)
        #expect(timed.seconds(for: Question(text: "?", body: .trueFalse(true))) == AssignmentSettings.defaultSeconds)
        #expect(timed.seconds(for: Question(text: "Read", body: .slide)) == nil)
        #expect(AssignmentSettings().seconds(for: Question(text: "?", body: .trueFalse(true), timeLimitSeconds: 45)) == nil)
    }

    @Test func answersAreShownAsTheSettingSays() {
        let each = assignment(AssignmentSettings(answersShown: .afterEachQuestion), closes: 100)
        let finishing = assignment(AssignmentSettings(answersShown: .afterFinishing), closes: 100)
        let close = assignment(AssignmentSettings(answersShown: .afterClose), closes: 100)
        #expect(each.showsAnswers(attemptOver: false, at: t0 + 10))
        #expect(!finishing.showsAnswers(attemptOver: false, at: t0 + 10))
        #expect(finishing.showsAnswers(attemptOver: true, at: t0 + 10))
        #expect(!close.showsAnswers(attemptOver: true, at: t0 + 99))
        #expect(close.showsAnswers(attemptOver: true, at: t0 + 100))
    }

    @Test func marksAreThePointsTimesTheCreditAndWithSpeedPointsHalfAtTheLimit() {
        let question = Question(text: "?", points: 2, body: .trueFalse(true), timeLimitSeconds: 20)
        #expect(assignment().marks(for: question, credit: .full, elapsed: 19) == 2_000)
        #expect(assignment().marks(for: question, credit: Credit(0.5), elapsed: 19) == 1_000)
        let speed = assignment(AssignmentSettings(timing: .questionsOwn, speedPoints: true))
        #expect(speed.marks(for: question, credit: .full, elapsed: 0) == 2_000)
        #expect(speed.marks(for: question, credit: .full, elapsed: 10) == 1_500)
        #expect(speed.marks(for: question, credit: .full, elapsed: 30) == 1_000)
        #expect(Assignment.maxMarks(of: [question, Question(text: "Vote", points: 5, body: .poll(Poll(choices: ["a", "b"])))]) == 2_000)
    }

    @Test func eachGradingRuleChoosesAsMoodleDoes() {
        let attempts = [GradedAttempt(number: 1, marks: 500, maxMarks: 1000), GradedAttempt(number: 2, marks: 900, maxMarks: 1000),
                        GradedAttempt(number: 3, marks: 700, maxMarks: 1000)]
        #expect(AssignmentSettings.Grading.highest.grade(attempts) == 0.9)
        #expect(AssignmentSettings.Grading.first.grade(attempts) == 0.5)
        #expect(AssignmentSettings.Grading.last.grade(attempts) == 0.7)
        #expect(abs((AssignmentSettings.Grading.average.grade(attempts) ?? 0) - 0.7) < 1e-9)
        #expect(AssignmentSettings.Grading.highest.grade([]) == nil)
        let tied = [GradedAttempt(number: 1, marks: 5, maxMarks: 10), GradedAttempt(number: 2, marks: 5, maxMarks: 10)]
        #expect(AssignmentSettings.Grading.highest.chosen(tied) == 0, "the first among equals")
    }

    @Test func theAverageRuleAveragesEachQuestionsCreditAndTime() {
        let attempts = [GradedAttempt(number: 1, marks: 0, maxMarks: 1000, credits: [7: .none], timeTaken: 10),
                        GradedAttempt(number: 2, marks: 1000, maxMarks: 1000, credits: [7: .full], timeTaken: 30)]
        #expect(AssignmentSettings.Grading.average.credits(attempts, questionIds: [7, 8]) == [7: Credit(0.5), 8: .none])
        #expect(AssignmentSettings.Grading.average.timeTaken(attempts) == 20)
        #expect(AssignmentSettings.Grading.last.credits(attempts, questionIds: [7]) == [7: .full])
    }
}
