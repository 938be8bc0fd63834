import QuizCore
import Testing

@Suite struct StreakTests {
    @Test func aRightAnswerAddsOneAndAnythingElseEndsTheRun() {
        #expect(Streak.after(0, isCorrect: true) == 1)
        #expect(Streak.after(3, isCorrect: true) == 4)
        #expect(Streak.after(3, isCorrect: false) == 0)
    }

    @Test func theRunIsTheOneTheLastAnswerEnds() {
        #expect(Streak.ending([true, true, false, true, true, true]) == 3)
        #expect(Streak.ending([true, true, true, false]) == 0)
        #expect(Streak.ending([Bool]()) == 0)
    }

    @Test func theLiveBonusGrowsAHundredAStepUpToFiveHundred() {
        #expect((0...7).map { Streak.bonus(after: $0) } == [0, 100, 200, 300, 400, 500, 500, 500])
    }
}
