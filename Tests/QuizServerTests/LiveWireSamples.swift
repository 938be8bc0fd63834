import Foundation
@testable import QuizCore
@testable import QuizServer
@testable import QuizUseCases

/// Representative events of a live game, written to text by the server's live adapter: the
/// messages `LiveWireFormatTests` pins byte for byte.
enum LiveWireSamples {
    static let now = Date(timeIntervalSince1970: 1_700_000_000.4567)
    static let endsAt = Date(timeIntervalSince1970: 1_700_000_300.0004)

    static func player(_ id: Int, _ nickname: String, team: Int?, score: Int, streak: Int, correct: Int, movement: Int = 0) -> LivePlayer {
        var player = LivePlayer(id: id, nickname: nickname, userId: nil, team: team)
        (player.score, player.streak, player.correct, player.movement) = (score, streak, correct, movement)
        return player
    }

    static let ann = player(1, "Ann \"A\" / Zoë", team: 1, score: 1_250, streak: 2, correct: 2, movement: 1)
    static let bob = player(2, "Bob", team: 2, score: 0, streak: 0, correct: 0, movement: -1)
    static let solo = player(3, "Solo 🎉", team: nil, score: 900, streak: 1, correct: 1)

    static let picture = QuestionPicture(hash: String(repeating: "ab", count: 32), type: .png, alt: "A map: rivers & <seas>", width: 640, height: 480)

    static func game(shuffle: Bool = true, teams: Int = 2) throws -> LiveGame {
        var settings = LiveSettings()
        settings.secondsPerQuestion = 30
        settings.points = [1: .double, 2: .none]
        settings.shuffleAnswers = shuffle
        settings.teams = teams
        settings.autoAdvance = true
        let questions = [
            Question(id: 11, text: "Which is the capital of France?\nPick one.", explanation: "Paris, since 987.",
                     body: .singleChoice([Choice(id: 1, text: "Paris", isCorrect: true), Choice(id: 2, text: "Lyon \\ Lugdunum", isCorrect: false),
                                          Choice(id: 3, text: "Nice", isCorrect: false)]),
                     picture: picture),
            Question(id: 12, text: "How long is the Seine?", body: .numeric(value: 777, tolerance: 5, unit: "km")),
            Question(id: 13, text: "The Loire is longer.", body: .trueFalse(true)),
        ]
        var game = LiveGame(id: 42, pin: "048213", quizId: 7, hostUserId: 5, title: "Rivers & <capitals> / “quoted”", questions: questions,
                            settings: settings)
        _ = try game.join(nickname: "Ann", userId: nil, team: 1)
        _ = try game.join(nickname: "Bob", userId: nil, team: 2)
        try game.start(now: Date(timeIntervalSince1970: 1_700_000_000.25))
        return game
    }

    static let ids = ChoiceIds(publicIds: [[1: 482_019_331, 2: 917_220_004, 3: 100_000_007]], seed: 99)

    static func view(_ game: LiveGame, question: Int = 0) -> LiveQuestionView {
        LiveQuestionView(game: game, question: game.questions[question], ids: ids)
    }

    static let standings = [
        LiveGame.Standing(player: ann, rank: 1, movement: 1),
        LiveGame.Standing(player: solo, rank: 2, movement: 0),
        LiveGame.Standing(player: bob, rank: 3, movement: -1),
    ]
    static let teams = [LiveGame.TeamScore(team: 1, score: 1_250, members: 1), LiveGame.TeamScore(team: 2, score: 0, members: 1)]

    static let reveal = LiveReveal(index: 0, correct: "Paris", correctChoices: [482_019_331], explanation: "Paris, since 987.",
                                   distribution: [LiveGame.Tally(label: "Paris", choice: 482_019_331, count: 1, isCorrect: true),
                                                  LiveGame.Tally(label: "Lyon \\ Lugdunum", choice: 917_220_004, count: 0, isCorrect: false)],
                                   answered: 1, players: 2)
    static let typedReveal = LiveReveal(index: 1, correct: "777 km", correctChoices: [], explanation: nil,
                                        distribution: [LiveGame.Tally(label: "right", choice: nil, count: 3, isCorrect: true)],
                                        answered: 3, players: 4)

    static let answer = LiveAnswer(playerId: 1, questionIndex: 0, answer: .choice(1), isCorrect: true, points: 850, bonus: 100,
                                   milliseconds: 9_000, late: false)
    static let lateAnswer = LiveAnswer(playerId: 2, questionIndex: 0, answer: .choice(2), isCorrect: false, points: 0, bonus: 0,
                                       milliseconds: 31_000, late: true)

    /// Name → the text the server sends.
    /// Each player's shuffled question as the fan-out writes it, and as a reconnect's catch-up does.
    static func shuffledBothWays(players: ClosedRange<Int>) throws -> [(String, String)] {
        let view = view(try game())
        let fanOut = LiveMessages.shuffledQuestions(view, now: now)
        return players.map { (fanOut($0), LiveMessages.question(view.shuffled(playerId: $0), now: now)) }
    }

    static func messages() throws -> [(String, String)] {
        let game = try game()
        let plain = try Self.game(shuffle: false, teams: 0)
        var numeric = plain
        try numeric.close(now: now)
        try numeric.next(now: now)
        return [
            ("error", LiveMessages.error("not-open", "That question is not open.", of: "answer")),
            ("error-without-of", LiveMessages.error("rate-limited", "Too many messages: slow down.", of: nil)),
            ("joined", LiveMessages.joined(LiveGames.Joined(player: ann, secret: "c2VjcmV0/+=", code: "AB12CD", game: game))),
            ("joined-resumed", LiveMessages.joined(LiveGames.Joined(player: solo, secret: "s", code: nil, game: plain))),
            ("hosting", LiveMessages.hosting(game, joinURL: "https://quiz.example.org/join/048213")),
            ("players", LiveMessages.shared(.players([ann, bob, solo], locked: true), host: true, now: now, connected: [1, 3]) ?? ""),
            ("question", LiveMessages.question(view(game), now: now)),
            // As the fan-out writes it: the question once, then each player's order (a reconnect's
            // catch-up writes `question(view.shuffled(playerId:))`, the same bytes).
            ("question-shuffled", LiveMessages.shuffledQuestions(view(game), now: now)(2)),
            ("question-numeric", LiveMessages.question(view(numeric, question: 1), now: now)),
            ("progress", LiveMessages.shared(.progress(index: 0, answered: 1, players: 2), host: true, now: now) ?? ""),
            ("reveal", LiveMessages.shared(.reveal(reveal), host: false, now: now) ?? ""),
            ("reveal-typed", LiveMessages.shared(.reveal(typedReveal), host: false, now: now) ?? ""),
            ("result", LiveMessages.result(LivePlayerResult(index: 0, answer: answer, score: 1_250, rank: 1, streak: 2))),
            ("result-late", LiveMessages.result(LivePlayerResult(index: 0, answer: lateAnswer, score: 0, rank: 3, streak: 0))),
            ("result-unanswered", LiveMessages.result(LivePlayerResult(index: 0, answer: nil, score: 900, rank: 2, streak: 0))),
            ("result-behind", LiveMessages.result(LivePlayerResult(index: 0, answer: nil, score: 900, rank: 2, streak: 0,
                                                                   behind: .init(nickname: ann.nickname, points: 350)))),
            ("leaderboard", LiveMessages.shared(.leaderboard(top: standings, teams: teams, final: false), host: false, now: now) ?? ""),
            ("ended-host", LiveMessages.shared(.ended(podium: standings, standings: standings, teams: teams), host: true, now: now) ?? ""),
            ("ended-player", endedForPlayer(podium: standings, standings: standings, teams: teams, playerId: 1)),
            ("ended-player-unlisted", endedForPlayer(podium: standings, standings: standings, teams: [], playerId: 9)),
            ("host-away", LiveMessages.shared(.host(connected: false, endsAt: endsAt), host: false, now: now) ?? ""),
            ("host-back", LiveMessages.shared(.host(connected: true, endsAt: nil), host: false, now: now) ?? ""),
            ("ack", LiveMessages.ack(question: 3)),
            ("kicked", LiveMessages.kicked),
        ]
    }

    static func endedForPlayer(podium: [LiveGame.Standing], standings: [LiveGame.Standing], teams: [LiveGame.TeamScore], playerId: Int) -> String {
        LiveMessages.ended(podium: podium, teams: teams, for: .player(standings.first { $0.player.id == playerId }))
    }
}
