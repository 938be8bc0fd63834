import Foundation
@testable import QuizCore
import Testing

/// Issue 31's kinds in a live game: ordering, matching, estimate, word cloud, slide, and partial
/// credit on the old kinds.
@Suite struct LiveGameKindsTests {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    private func at(_ seconds: TimeInterval) -> Date { t0 + seconds }

    private let oldest = Question(id: 21, text: "Oldest first", body: .ordering(Ordering(items: ["Rome", "Paris", "Helsinki"])))
    private let capitals = Question(id: 22, text: "Capitals", body: .matching(Matching(
        pairs: [.init(prompt: "France", answer: "Paris"), .init(prompt: "Italy", answer: "Rome"), .init(prompt: "Spain", answer: "Madrid")],
        extras: ["Lyon"])))
    private let height = Question(id: 23, text: "Eiffel tower, in metres", body: .estimate(Estimate(minimum: 0, maximum: 1000, step: 1,
                                                                                                    value: 330, margin: 100, unit: "m")))
    private let words = Question(id: 24, text: "One word for Monday", body: .wordCloud)
    private let slide = Question(id: 25, text: "Now for geography", body: .slide)
    private let sky = Question(id: 26, text: "The sky is blue", body: .trueFalse(true))

    private func makeSUT(_ questions: [Question], settings: LiveSettings = LiveSettings(), players: Int = 2) throws -> LiveGame {
        var game = LiveGame(id: 1, pin: "123456", quizId: 7, hostUserId: 3, title: "Kinds", questions: questions, settings: settings)
        for name in ["Ann", "Bob", "Cy", "Di"].prefix(players) { _ = try game.join(nickname: name, userId: nil) }
        return game
    }

    @Test func everyKindButGapFillAndNameThemAllIsPlayedLive() {
        #expect(QuestionKind.allCases.filter { !$0.playsLive } == [.nameAll, .gapFill])
    }

    @Test func anOrderingScoresOnlyTheWholeOrderAndRefusesWhatIsNoOrder() throws {
        var game = try makeSUT([oldest, sky])
        try game.start(now: t0)
        let right = try game.answer(.order([1, 2, 3]), player: 1, question: 0, now: at(0))
        // Two of three in place is half the credit in a quiz, nothing live (Kahoot's rule).
        let almost = try game.answer(.order([1, 3, 2]), player: 2, question: 0, now: at(0))
        #expect(right.isCorrect && right.points == 1_000 && right.credit == .full)
        #expect(!almost.isCorrect && almost.points == 0 && almost.credit == .none)
        var other = try makeSUT([oldest])
        try other.start(now: t0)
        for bad: [Int] in [[1, 2], [1, 1, 2], [1, 2, 3, 4], [1, 2, 9]] {
            #expect(throws: LiveGameError.badAnswer) { try other.answer(.order(bad), player: 1, question: 0, now: at(1)) }
        }
        #expect(throws: LiveGameError.badAnswer) { try other.answer(.choice(1), player: 1, question: 0, now: at(1)) }
        #expect(other.answers.isEmpty, "nothing taken from a refused answer")
        try game.close(now: at(2))
        #expect(game.players.map(\.score) == [1_000, 0])
        #expect(game.players.map(\.streak) == [1, 0])
        #expect(game.distribution().map(\.count) == [1, 1])
    }

    @Test func aMatchingEarnsTheSpeedPointsTimesTheShareOfPairsRight() throws {
        var game = try makeSUT([capitals])
        try game.start(now: t0)
        // Stored answer ids: Paris 1, Rome 2, Madrid 3, Lyon 4.
        let all = try game.answer(.matches([1: 1, 2: 2, 3: 3]), player: 1, question: 0, now: at(0))
        let two = try game.answer(.matches([1: 1, 2: 2, 3: 4]), player: 2, question: 0, now: at(0))
        #expect(all.isCorrect && all.points == 1_000)
        #expect(!two.isCorrect && two.credit.percent == 67 && two.points == 667 && two.bonus == 0)
        var other = try makeSUT([capitals])
        try other.start(now: t0)
        #expect(throws: LiveGameError.badAnswer) { try other.answer(.matches([9: 1]), player: 1, question: 0, now: at(1)) }
        #expect(throws: LiveGameError.badAnswer) { try other.answer(.matches([1: 99]), player: 1, question: 0, now: at(1)) }
        try game.close(now: at(1))
        #expect(game.players.map(\.score) == [1_000, 667])
        #expect(game.players.map(\.correct) == [1, 0], "partly right is not right")
        #expect(game.distribution().map(\.count) == [1, 1, 0])
    }

    @Test func anEstimateScoresByClosenessNotSpeedAndTheRevealNamesTheClosest() throws {
        var game = try makeSUT([height], players: 4)
        try game.start(now: t0)
        // Full points at the value even at the last second; half at half the margin; none past it.
        let exact = try game.answer(.number(330), player: 1, question: 0, now: at(19))
        let half = try game.answer(.text("380 m"), player: 2, question: 0, now: at(1))
        let far = try game.answer(.number(500), player: 3, question: 0, now: at(1))
        let tie = try game.answer(.number(280), player: 4, question: 0, now: at(2))
        #expect(exact.points == 1_000 && exact.isCorrect)
        #expect(half.points == 500 && half.credit.percent == 50 && half.answer == .number(380))
        #expect(far.points == 0 && far.credit == .none)
        #expect(tie.points == 500)
        #expect(game.closest().map(\.nickname) == ["Ann", "Bob", "Di"], "the earlier of two as close")
        #expect(game.closest().map(\.value) == [330, 380, 280])
        var other = try makeSUT([height])
        try other.start(now: t0)
        for bad: Answer in [.number(1_001), .number(-1), .number(.nan), .text("lots")] {
            #expect(throws: LiveGameError.badAnswer) { try other.answer(bad, player: 1, question: 0, now: at(1)) }
        }
    }

    @Test func aWordCloudCountsEntriesAsTheyComeScoresNothingAndTheHostHidesOne() throws {
        var game = try makeSUT([sky, words, sky], players: 4)
        try game.start(now: t0)
        for id in 1...4 { _ = try game.answer(.bool(true), player: id, question: 0, now: at(1)) }
        try game.close(now: at(2))
        try game.next(now: at(3))
        try game.next(now: at(3))
        _ = try game.answer(.text("Coffee!"), player: 1, question: 1, now: at(4))
        _ = try game.answer(.text(" coffee"), player: 2, question: 1, now: at(4))
        let rude = try game.answer(.text("Rude"), player: 3, question: 1, now: at(4))
        #expect(rude.points == 0 && !rude.isCorrect)
        #expect(game.cloud.top(10).map(\.text) == ["Coffee", "Rude"])
        #expect(game.cloud.top(10).map(\.count) == [2, 1])
        #expect(throws: LiveGameError.badAnswer) {
            try game.answer(.text(String(repeating: "x", count: WordCloud.maxEntryLength + 1)), player: 4, question: 1, now: at(4))
        }
        #expect(throws: LiveGameError.badAnswer) { try game.answer(.text("?!"), player: 4, question: 1, now: at(4)) }
        try game.hide("rude", question: 1)
        #expect(game.cloud.top(10).map(\.key) == ["coffee"])
        #expect(throws: LiveGameError.badHide) { try game.hide("rude", question: 1) }
        #expect(throws: LiveGameError.badHide) { try game.hide("tea", question: 1) }
        #expect(throws: LiveGameError.notOpen) { try game.hide("coffee", question: 0) }
        try game.close(now: at(5))
        #expect(game.players.map(\.streak) == [1, 1, 1, 1], "a word cloud breaks no streak")
        try game.hide("coffee", question: 1)  // still shown on the reveal
        #expect(game.cloud.top(10).isEmpty)
    }

    @Test func aHostHidesAtMostFiftyWordsOfACloud() throws {
        var game = try makeSUT([words], players: 0)
        for id in 1...(LiveGame.maxHidden + 1) { _ = try game.join(nickname: "P\(id)", userId: nil) }
        try game.start(now: t0)
        for id in 1...(LiveGame.maxHidden + 1) { _ = try game.answer(.text("word\(id)"), player: id, question: 0, now: at(1)) }
        for id in 1...LiveGame.maxHidden { try game.hide("word\(id)", question: 0) }
        #expect(throws: LiveGameError.badHide) { try game.hide("word\(LiveGame.maxHidden + 1)", question: 0) }
    }

    @Test func aSlideTakesNoAnswerHasNoClockAndTheHostMovesOn() throws {
        var game = try makeSUT([slide, sky])
        try game.start(now: t0)
        #expect(game.phase == .question && game.deadline == nil && game.nextTick == nil)
        #expect(throws: LiveGameError.badAnswer) { try game.answer(.read, player: 1, question: 0, now: at(1)) }
        #expect(throws: LiveGameError.notNow) { try game.close(now: at(1)) }
        let moved = game.tick(now: at(3_600))
        #expect(!moved, "it waits for the host")
        try game.next(now: at(3_600))
        #expect(game.phase == .question && game.index == 1 && game.deadline == at(3_620))
        #expect(game.players.map(\.streak) == [0, 0])

        var auto = LiveSettings()
        auto.autoAdvance = true
        var paced = try makeSUT([slide, sky], settings: auto)
        try paced.start(now: t0)
        #expect(paced.nextTick == at(20))
        let paced20 = paced.tick(now: at(20))
        #expect(paced20 && paced.index == 1)
    }

    @Test func aChoiceWithAnAuthorsFractionEarnsThatShareOfTheSpeedPoints() throws {
        let partly = Question(id: 27, text: "Largest?", body: .singleChoice([
            Choice(id: 1, text: "Jupiter", isCorrect: true), Choice(id: 2, text: "Saturn", isCorrect: false, fraction: Fraction(0.5)),
            Choice(id: 3, text: "Mars", isCorrect: false),
        ]))
        var game = try makeSUT([partly])
        try game.start(now: t0)
        let half = try game.answer(.choice(2), player: 1, question: 0, now: at(10))  // 750 speed points
        #expect(!half.isCorrect && half.credit.percent == 50 && half.points == 375 && half.bonus == 0)
        let late = try game.answer(.choice(1), player: 2, question: 0, now: at(21))
        #expect(late.late && late.points == 0 && late.credit == .none)
    }

    @Test func aRestoredGameKeepsItsCreditsAndItsWordCloud() throws {
        var game = try makeSUT([capitals, words])
        try game.start(now: t0)
        let given = [try game.answer(.matches([1: 1, 2: 2, 3: 4]), player: 1, question: 0, now: at(0))]
        try game.close(now: at(1))
        try game.next(now: at(2))
        try game.next(now: at(2))
        let word = try game.answer(.text("tea"), player: 2, question: 1, now: at(3))
        var restored = try makeSUT([capitals, words])
        restored.restore(phase: .question, index: 1, openedAt: at(2), deadline: at(22), advanceAt: nil, locked: false,
                         players: game.players, answers: given + [word])
        #expect(restored.players.map(\.score) == [667, 0])
        #expect(restored.cloud.top(5).map(\.key) == ["tea"])
    }
}
