import Foundation
@testable import QuizCore
import Testing

@Suite struct LiveGameTests {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    private func at(_ seconds: TimeInterval) -> Date { t0 + seconds }

    private let capital = Question(id: 11, text: "Capital of France?", body: .singleChoice([
        Choice(id: 1, text: "Lyon", isCorrect: false), Choice(id: 2, text: "Paris", isCorrect: true),
        Choice(id: 3, text: "Nice", isCorrect: false),
    ]))
    private let primes = Question(id: 12, text: "Which are prime?", body: .multipleChoice([
        Choice(id: 1, text: "2", isCorrect: true), Choice(id: 2, text: "4", isCorrect: false), Choice(id: 3, text: "7", isCorrect: true),
    ]))
    private let sky = Question(id: 13, text: "The sky is blue", body: .trueFalse(true))
    private let pi = Question(id: 14, text: "Pi to two places", body: .numeric(value: 3.14, tolerance: 0.005, unit: nil))

    private func makeSUT(_ questions: [Question]? = nil, settings: LiveSettings = LiveSettings()) -> LiveGame {
        LiveGame(id: 1, pin: "123456", quizId: 7, hostUserId: 3, title: "Mixed", questions: questions ?? [capital, primes, sky, pi],
                 settings: settings)
    }

    // MARK: Joining

    @Test func nicknamesAreTrimmedUniqueIgnoringCaseAndOneToTwentyCharacters() throws {
        var game = makeSUT()
        let ann = try game.join(nickname: "  Ann ", userId: nil)
        #expect(ann.nickname == "Ann")
        #expect(ann.id == 1)
        #expect(throws: LiveGameError.nicknameTaken) { try game.join(nickname: "aNN", userId: nil) }
        #expect(throws: LiveGameError.nicknameInvalid) { try game.join(nickname: "   ", userId: nil) }
        #expect(throws: LiveGameError.nicknameInvalid) { try game.join(nickname: String(repeating: "x", count: 21), userId: nil) }
        #expect(throws: LiveGameError.nicknameInvalid) { try game.join(nickname: "a\u{0007}b", userId: nil) }
        let r1 = try game.join(nickname: String(repeating: "é", count: 20), userId: nil)
        #expect(r1.id == 2)
    }

    @Test func aLockedGameRefusesJoinsUntilUnlockedAndLateJoinsAreAllowed() throws {
        var game = makeSUT()
        _ = try game.join(nickname: "Ann", userId: nil)
        try game.start(now: t0)
        let late = try game.join(nickname: "Bob", userId: nil)
        #expect(late.id == 2)
        game.lock(true)
        #expect(throws: LiveGameError.locked) { try game.join(nickname: "Cy", userId: nil) }
        game.lock(false)
        let r2 = try game.join(nickname: "Cy", userId: nil)
        #expect(r2.id == 3)
    }

    @Test func aKickedPlayerKeepsTheirNicknameAndCannotAnswer() throws {
        var game = makeSUT()
        _ = try game.join(nickname: "Ann", userId: nil)
        try game.kick(1)
        #expect(throws: LiveGameError.nicknameTaken) { try game.join(nickname: "ann", userId: nil) }
        try game.start(now: t0)
        #expect(throws: LiveGameError.kicked) { try game.answer(.choice(2), player: 1, question: 0, now: at(1)) }
        #expect(game.standings().isEmpty)
    }

    @Test func teamsAreFilledSmallestFirst() throws {
        var settings = LiveSettings()
        settings.teams = 2
        var game = makeSUT(settings: settings)
        let teams = try (1...5).map { try game.join(nickname: "P\($0)", userId: nil).team }
        #expect(teams == [1, 2, 1, 2, 1])
        let r3 = try game.join(nickname: "Chooser", userId: nil, team: 2)
        #expect(r3.team == 2)
    }

    // MARK: Scoring

    @Test func aCorrectAnswerScoresByItsSpeedFromFullToHalf() throws {
        var game = makeSUT()
        for name in ["Ann", "Bob", "Cy", "Dee"] { _ = try game.join(nickname: name, userId: nil) }
        try game.start(now: t0)
        #expect(game.deadline == at(20))
        let r4 = try game.answer(.choice(2), player: 1, question: 0, now: at(0))
        #expect(r4.points == 1_000)
        let r5 = try game.answer(.choice(2), player: 2, question: 0, now: at(5))
        #expect(r5.points == 875)  // 1000 × (1 − 0.25/2)
        let r6 = try game.answer(.choice(2), player: 3, question: 0, now: at(20))
        #expect(r6.points == 500)
        let wrong = try game.answer(.choice(1), player: 4, question: 0, now: at(1))
        #expect(wrong.points == 0 && !wrong.isCorrect)
    }

    @Test func aTypedNumberIsKeptAsTheNumberAQuizWouldKeep() throws {
        let rhine = Question(id: 15, text: "How long is the Rhine?", body: .numeric(value: 1.5, tolerance: 0, unit: "km"))
        var game = makeSUT([rhine])
        _ = try game.join(nickname: "Ann", userId: nil)
        _ = try game.join(nickname: "Bob", userId: nil)
        try game.start(now: t0)
        let typed = try game.answer(.text(" 1,5 km "), player: 1, question: 0, now: at(1))
        #expect(typed.answer == .number(1.5) && typed.isCorrect)
        #expect(throws: LiveGameError.badAnswer) { try game.answer(.text("far"), player: 2, question: 0, now: at(1)) }
    }

    @Test func doublePointsDoubleAndNoPointsScoreNothing() throws {
        var settings = LiveSettings()
        settings.points = [0: .double, 1: .none]
        settings.secondsPerQuestion = 10
        var game = makeSUT(settings: settings)
        _ = try game.join(nickname: "Ann", userId: nil)
        try game.start(now: t0)
        let r7 = try game.answer(.choice(2), player: 1, question: 0, now: at(2))
        #expect(r7.points == 1_800)  // 2000 × (1 − 0.2/2)
        try game.close(now: at(3))
        try game.next(now: at(4))  // leaderboard
        try game.next(now: at(5))
        let none = try game.answer(.choices([1, 3]), player: 1, question: 1, now: at(5))
        #expect(none.isCorrect && none.points == 0)
    }

    @Test func multipleChoiceIsAllOrNothing() throws {
        var game = makeSUT([primes])
        _ = try game.join(nickname: "Ann", userId: nil)
        _ = try game.join(nickname: "Bob", userId: nil)
        try game.start(now: t0)
        let r8 = try game.answer(.choices([1]), player: 1, question: 0, now: at(1))
        #expect(r8.points == 0)
        let r9 = try game.answer(.choices([1, 3]), player: 2, question: 0, now: at(0))
        #expect(r9.points == 1_000)
    }

    @Test func aStreakAddsAHundredPerCorrectAnswerAfterTheFirstUpToFiveHundred() throws {
        let questions = (1...8).map { Question(id: Int64($0), text: "Q\($0)", body: .trueFalse(true)) }
        var settings = LiveSettings()
        settings.leaderboardAfterEach = false
        var game = makeSUT(questions, settings: settings)
        _ = try game.join(nickname: "Ann", userId: nil)
        try game.start(now: t0)
        var bonuses: [Int] = []
        for question in 0..<8 {
            bonuses.append(try game.answer(.bool(true), player: 1, question: question, now: game.openedAt!).bonus)
            try game.close(now: game.openedAt! + 1)
            try game.next(now: game.openedAt! + 2)
        }
        #expect(bonuses == [0, 100, 200, 300, 400, 500, 500, 500])
        #expect(game.phase == .ended)
        #expect(game.players[0].score == 8 * 1_000 + 2_500)
        #expect(game.players[0].correct == 8)
    }

    /// True-or-false questions, no leaderboard between them; Ann and Bob joined; started at `t0`.
    private func trueOrFalseGame(_ count: Int, settings: LiveSettings = LiveSettings()) throws -> LiveGame {
        var settings = settings
        settings.leaderboardAfterEach = false
        var game = makeSUT((1...count).map { Question(id: Int64($0), text: "Q\($0)", body: .trueFalse(true)) }, settings: settings)
        _ = try game.join(nickname: "Ann", userId: nil)
        _ = try game.join(nickname: "Bob", userId: nil)
        try game.start(now: t0)
        return game
    }

    @Test func aWrongAnswerOrNoAnswerBreaksTheStreakAndTheBonusCanBeOff() throws {
        var game = try trueOrFalseGame(4)
        _ = try game.answer(.bool(true), player: 1, question: 0, now: at(0))
        _ = try game.answer(.bool(true), player: 2, question: 0, now: at(0))
        try game.close(now: at(1)); try game.next(now: at(2))
        _ = try game.answer(.bool(false), player: 1, question: 1, now: at(2))  // Ann wrong; Bob silent
        try game.close(now: at(3))
        #expect(game.players.map(\.streak) == [0, 0])
        try game.next(now: at(4))
        let r10 = try game.answer(.bool(true), player: 1, question: 2, now: at(4))
        #expect(r10.bonus == 0)

        var settings = LiveSettings()
        settings.streakBonus = false
        var plain = try trueOrFalseGame(4, settings: settings)
        _ = try plain.answer(.bool(true), player: 1, question: 0, now: at(0))
        try plain.close(now: at(1)); try plain.next(now: at(2))
        let r11 = try plain.answer(.bool(true), player: 1, question: 1, now: at(2))
        #expect(r11.bonus == 0)
    }

    @Test func theFirstAnswerCountsAndAnswersOnlyGoToTheOpenQuestion() throws {
        var game = makeSUT()
        _ = try game.join(nickname: "Ann", userId: nil)
        #expect(throws: LiveGameError.notOpen) { try game.answer(.choice(2), player: 1, question: 0, now: t0) }
        try game.start(now: t0)
        #expect(throws: LiveGameError.notOpen) { try game.answer(.choices([1]), player: 1, question: 1, now: at(1)) }
        #expect(throws: LiveGameError.unknownPlayer) { try game.answer(.choice(2), player: 9, question: 0, now: at(1)) }
        #expect(throws: LiveGameError.badAnswer) { try game.answer(.text("Paris"), player: 1, question: 0, now: at(1)) }
        _ = try game.answer(.choice(1), player: 1, question: 0, now: at(1))
        #expect(throws: LiveGameError.alreadyAnswered) { try game.answer(.choice(2), player: 1, question: 0, now: at(2)) }
        #expect(game.players[0].score == 0)
    }

    @Test func anAnswerThatCouldNotBeStoredIsTakenBackWhileItsQuestionIsOpen() throws {
        var game = try trueOrFalseGame(3)
        _ = try game.answer(.bool(true), player: 1, question: 0, now: at(1))
        try game.close(now: at(2)); try game.next(now: at(3))
        let before = game.players[0]
        #expect(before.streak == 1)
        let taken = try game.answer(.bool(true), player: 1, question: 1, now: at(4))
        #expect(taken.points > 0 && taken.bonus > 0)
        let withdrawn = game.withdraw(taken)
        #expect(withdrawn)
        #expect(game.players[0] == before)
        #expect(game.answers[1] == nil && !game.everyoneAnswered)
        // Answered again, it counts once.
        let again = try game.answer(.bool(true), player: 1, question: 1, now: at(5))
        try game.close(now: at(6))
        #expect(game.players[0].score == before.score + again.points + again.bonus)
        // Once the question has closed, what was shown stays.
        let late = game.withdraw(again)
        #expect(!late)
        #expect(game.players[0].score == before.score + again.points + again.bonus)
    }

    @Test func scoresCorrectCountsAndStreaksMoveOnlyWhenTheQuestionCloses() throws {
        var game = try trueOrFalseGame(3)
        _ = try game.answer(.bool(true), player: 1, question: 0, now: at(1))
        _ = try game.answer(.bool(true), player: 2, question: 0, now: at(1))
        try game.close(now: at(2)); try game.next(now: at(3))
        let before = game.players
        // Ann right, Bob wrong: while the question is open both look as they did before it.
        let right = try game.answer(.bool(true), player: 1, question: 1, now: at(4))
        _ = try game.answer(.bool(false), player: 2, question: 1, now: at(4))
        #expect(game.players == before)
        #expect(game.standings().map(\.player) == before.sorted { ($0.score, -$0.id) > ($1.score, -$1.id) })
        try game.close(now: at(5))
        #expect(game.players[0].score == before[0].score + right.points + right.bonus)
        #expect(game.players.map(\.correct) == [2, 1])
        #expect(game.players.map(\.streak) == [2, 0])
    }

    @Test func endingAGameDuringAQuestionCountsItsAnswers() throws {
        var game = try trueOrFalseGame(3)
        let taken = try game.answer(.bool(true), player: 1, question: 0, now: at(1))
        game.end(now: at(2))
        #expect(game.players[0].score == taken.points)
        #expect(game.standings().first?.player.nickname == "Ann")
    }

    @Test func anAnswerAfterTheDeadlineScoresNothing() throws {
        var game = makeSUT()
        _ = try game.join(nickname: "Ann", userId: nil)
        try game.start(now: t0)
        let late = try game.answer(.choice(2), player: 1, question: 0, now: at(20.5))
        #expect(late.late && !late.isCorrect && late.points == 0)
    }

    // MARK: The flow

    @Test func theQuestionClosesWhenTimeIsUpOrEveryoneAnswered() throws {
        var game = makeSUT()
        _ = try game.join(nickname: "Ann", userId: nil)
        _ = try game.join(nickname: "Bob", userId: nil)
        try game.start(now: t0)
        #expect(game.nextTick == at(20))
        let r12 = game.tick(now: at(19.9))
        #expect(!r12)
        _ = try game.answer(.choice(2), player: 1, question: 0, now: at(3))
        #expect(!game.everyoneAnswered)
        _ = try game.answer(.choice(3), player: 2, question: 0, now: at(4))
        #expect(game.everyoneAnswered)
        let r13 = game.tick(now: at(20))
        #expect(r13)
        #expect(game.phase == .reveal)
        #expect(game.distribution().map(\.count) == [0, 1, 1])
        #expect(game.distribution().map(\.isCorrect) == [false, true, false])
    }

    @Test func hostPacedGamesWaitAndAutoAdvancingGamesMoveOnByThemselves() throws {
        var game = makeSUT([capital, sky])
        _ = try game.join(nickname: "Ann", userId: nil)
        try game.start(now: t0)
        try game.close(now: at(2))
        #expect(game.nextTick == nil)
        let r14 = game.tick(now: at(100))
        #expect(!r14)
        #expect(throws: LiveGameError.notNow) { try game.start(now: at(100)) }

        var settings = LiveSettings()
        settings.autoAdvance = true
        var auto = makeSUT([capital, sky], settings: settings)
        _ = try auto.join(nickname: "Ann", userId: nil)
        try auto.start(now: t0)
        let r15 = auto.tick(now: at(20))
        #expect(r15)  // time up: reveal
        #expect(auto.phase == .reveal && auto.nextTick == at(25))
        let r16 = auto.tick(now: at(25))
        #expect(r16)
        #expect(auto.phase == .leaderboard)
        let r17 = auto.tick(now: at(30))
        #expect(r17)
        #expect(auto.phase == .question && auto.index == 1 && auto.deadline == at(50))
        let r18 = auto.tick(now: at(50))
        let r19 = auto.tick(now: at(55))
        #expect(r18 && r19)
        #expect(auto.phase == .ended)  // no leaderboard between the last reveal and the end
    }

    @Test func standingsShareRanksAndShowMovement() throws {
        var game = makeSUT([sky, sky, sky].enumerated().map { var q = $1; q.id = Int64($0 + 1); return q })
        for name in ["Ann", "Bob", "Cy"] { _ = try game.join(nickname: name, userId: nil) }
        try game.start(now: t0)
        _ = try game.answer(.bool(true), player: 1, question: 0, now: at(10))  // 750
        try game.close(now: at(11))
        try game.next(now: at(11))
        #expect(game.phase == .leaderboard)
        #expect(game.standings().map(\.rank) == [1, 2, 2])
        try game.next(now: at(12))
        _ = try game.answer(.bool(true), player: 3, question: 1, now: at(12))  // 1000
        _ = try game.answer(.bool(true), player: 2, question: 1, now: at(13))  // 975
        try game.close(now: at(14))
        try game.next(now: at(14))
        let standings = game.standings()
        #expect(standings.map(\.player.nickname) == ["Cy", "Bob", "Ann"])
        #expect(standings.map(\.movement) == [1, 0, -2])
    }

    @Test func aTeamScoresTheAverageOfItsMembers() throws {
        var settings = LiveSettings()
        settings.teams = 2
        var game = makeSUT([sky], settings: settings)
        for name in ["Ann", "Bob", "Cy"] { _ = try game.join(nickname: name, userId: nil) }  // teams 1, 2, 1
        try game.start(now: t0)
        _ = try game.answer(.bool(true), player: 1, question: 0, now: at(0))  // 1000
        _ = try game.answer(.bool(true), player: 2, question: 0, now: at(10))  // 750
        _ = try game.answer(.bool(false), player: 3, question: 0, now: at(1))  // 0
        try game.close(now: at(11))
        #expect(game.teamScores() == [LiveGame.TeamScore(team: 2, score: 750, members: 1),
                                      LiveGame.TeamScore(team: 1, score: 500, members: 2)])
    }

    @Test func aKickedPlayerNoLongerHoldsTheQuestionOpenAndTheirAnswerLeavesTheCount() throws {
        var game = makeSUT()
        for name in ["Ann", "Bob", "Cid"] { _ = try game.join(nickname: name, userId: nil) }
        try game.start(now: t0)
        _ = try game.answer(.choice(2), player: 1, question: 0, now: at(1))
        _ = try game.answer(.choice(2), player: 2, question: 0, now: at(2))
        try game.kick(2)
        try game.kick(2)  // twice is still one player out
        #expect(game.activeCount == 2)
        #expect(!game.everyoneAnswered)
        try game.kick(3)
        #expect(game.activeCount == 1)
        #expect(game.everyoneAnswered)
    }

    @Test func aRestoredGameCountsOnlyItsPlayersStillIn() throws {
        var game = makeSUT()
        for name in ["Ann", "Bob"] { _ = try game.join(nickname: name, userId: nil) }
        try game.start(now: t0)
        let bobs = try game.answer(.choice(2), player: 2, question: 0, now: at(1))
        var players = game.players.map { LivePlayer(id: $0.id, nickname: $0.nickname, userId: nil, team: nil) }
        players[1].kicked = true
        var restored = makeSUT()
        restored.restore(phase: .question, index: 0, openedAt: t0, deadline: at(20), advanceAt: nil, locked: false, players: players,
                         answers: [bobs])
        #expect(restored.activeCount == 1)
        #expect(!restored.everyoneAnswered)
        _ = try restored.answer(.choice(2), player: 1, question: 0, now: at(3))
        #expect(restored.everyoneAnswered)
    }

    @Test func aRestoredGameHasTheSameScoresAndStreaks() throws {
        var settings = LiveSettings()
        settings.leaderboardAfterEach = false
        let questions = (1...3).map { Question(id: Int64($0), text: "Q\($0)", body: .trueFalse(true)) }
        var game = makeSUT(questions, settings: settings)
        _ = try game.join(nickname: "Ann", userId: nil)
        _ = try game.join(nickname: "Bob", userId: nil)
        try game.start(now: t0)
        var taken: [LiveAnswer] = []
        taken.append(try game.answer(.bool(true), player: 1, question: 0, now: at(1)))
        taken.append(try game.answer(.bool(true), player: 2, question: 0, now: at(2)))
        try game.close(now: at(3)); try game.next(now: at(4))
        taken.append(try game.answer(.bool(true), player: 1, question: 1, now: at(5)))
        try game.close(now: at(6)); try game.next(now: at(7))
        taken.append(try game.answer(.bool(true), player: 1, question: 2, now: at(8)))

        var restored = makeSUT(questions, settings: settings)
        restored.restore(phase: game.phase, index: game.index, openedAt: game.openedAt, deadline: game.deadline, advanceAt: nil,
                         locked: false, players: game.players.map { LivePlayer(id: $0.id, nickname: $0.nickname, userId: nil, team: nil) },
                         answers: taken)
        #expect(restored.players.map(\.score) == game.players.map(\.score))
        // Ann's answer to the open question counts once it closes, as on the game it copies.
        #expect(restored.players.map(\.streak) == [2, 0])
        #expect(restored.answers.keys.sorted() == [1])
        #expect(throws: LiveGameError.alreadyAnswered) { try restored.answer(.bool(true), player: 1, question: 2, now: at(9)) }
        #expect(throws: LiveGameError.nicknameTaken) { try restored.join(nickname: "BOB", userId: nil) }
    }

    @Test func settingsOutsideTheirRangesAreRefused() {
        var settings = LiveSettings()
        settings.secondsPerQuestion = 4
        #expect(throws: LiveSettings.Problem.seconds) { try settings.validated(questionCount: 3) }
        settings.secondsPerQuestion = 30
        settings.teams = 7
        #expect(throws: LiveSettings.Problem.teams) { try settings.validated(questionCount: 3) }
        settings.teams = 0
        settings.points = [3: .double]
        #expect(throws: LiveSettings.Problem.pointsIndex) { try settings.validated(questionCount: 3) }
    }

    @Test func settingsDecodeWithDefaultsForWhatIsMissing() throws {
        let settings = try JSONDecoder().decode(LiveSettings.self, from: Data(#"{"teams": 3, "points": {"1": "double"}}"#.utf8))
        #expect(settings.teams == 3)
        #expect(settings.points(at: 1) == .double && settings.points(at: 0) == .standard)
        #expect(settings.secondsPerQuestion == 20 && settings.streakBonus)
    }

    @Test func nameThemAllQuestionsAreLeftOutOfLiveGames() {
        let nameAll = Question(text: "Planets", body: .nameAll(items: [NameAllItem(answer: "Mars")], timeLimitSeconds: 60, typoTolerance: false))
        #expect(LiveGame.playable([capital, nameAll, sky]).map(\.id) == [11, 13])
    }

    // MARK: Polls

    @Test func aPollIsCountedScoresNothingAndLeavesStreaksAsTheyWere() throws {
        let poll = Question(id: 15, text: "Tea or coffee?", body: .poll(Poll(choices: ["Tea", "Coffee", "Neither"])))
        var game = makeSUT([capital, poll, sky])
        _ = try game.join(nickname: "Ann", userId: nil)
        _ = try game.join(nickname: "Bob", userId: nil)
        try game.start(now: t0)
        var given = [try game.answer(.choice(2), player: 1, question: 0, now: at(1)),
                     try game.answer(.choice(2), player: 2, question: 0, now: at(1))]
        try game.close(now: at(2))
        let before = game.players.map(\.score)
        try game.next(now: at(3))  // the leaderboard
        try game.next(now: at(3))
        let vote = try game.answer(.choice(2), player: 1, question: 1, now: at(4))
        given.append(vote)
        #expect(!vote.isCorrect && vote.points == 0 && vote.bonus == 0)
        #expect(throws: LiveGameError.badAnswer) { try game.answer(.choice(9), player: 2, question: 1, now: at(4)) }
        // Bob does not vote: a poll breaks no streak.
        try game.close(now: at(5))
        #expect(game.players.map(\.score) == before)
        #expect(game.players.map(\.streak) == [1, 1])
        #expect(game.players.map(\.correct) == [1, 1])
        #expect(game.distribution() == [
            LiveGame.Tally(label: "Tea", choice: 1, count: 0, isCorrect: false),
            LiveGame.Tally(label: "Coffee", choice: 2, count: 1, isCorrect: false),
            LiveGame.Tally(label: "Neither", choice: 3, count: 0, isCorrect: false),
        ])
        // A game read back from storage comes out the same.
        var restored = makeSUT([capital, poll, sky])
        restored.restore(phase: .reveal, index: 1, openedAt: at(3), deadline: at(33), advanceAt: nil, locked: false,
                         players: game.players, answers: given)
        #expect(restored.players.map(\.streak) == [1, 1])
    }
}
