import Foundation
import QuizCore
import Testing

/// A question with its own time (Kahoot's time limit, the question form's seconds) keeps it in a
/// live game; the others take the game's setting.
@Suite struct LiveQuestionTimeTests {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aQuestionsOwnTimeSetsItsDeadlineAndItsSpeedPoints() throws {
        let quick = Question(id: 1, text: "Quick?", body: .trueFalse(true), timeLimitSeconds: 5)
        let plain = Question(id: 2, text: "Plain?", body: .trueFalse(false))
        var settings = LiveSettings()
        settings.secondsPerQuestion = 30
        settings.leaderboardAfterEach = false
        var game = LiveGame(id: 1, pin: "123456", quizId: 7, hostUserId: 3, title: "Timed", questions: [quick, plain], settings: settings)
        _ = try game.join(nickname: "Ann", userId: nil)
        try game.start(now: t0)
        #expect(game.seconds == 5)
        #expect(game.deadline == t0 + 5)
        // Half the question's own 5 s gone is three quarters of the points, as half of any time is.
        #expect(try game.answer(.bool(true), player: 1, question: 0, now: t0 + 2.5).points == 750)
        try game.close(now: t0 + 5)
        try game.next(now: t0 + 6)
        #expect(game.seconds == 30)
        #expect(game.deadline == t0 + 36)
    }
}
