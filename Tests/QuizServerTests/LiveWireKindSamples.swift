import Foundation
@testable import QuizCore
@testable import QuizServer
@testable import QuizUseCases

/// Issue 31's kinds as the server writes them: `LiveWireFormatTests` pins these too.
enum LiveWireKindSamples {
    static let now = LiveWireSamples.now

    static let questions = [
        Question(id: 21, text: "Oldest first", body: .ordering(Ordering(items: ["Rome", "Paris", "Helsinki"]))),
        Question(id: 22, text: "Capitals", body: .matching(Matching(pairs: [.init(prompt: "France", answer: "Paris"),
                                                                        .init(prompt: "Italy <it>", answer: "Rome")], extras: ["Lyon"]))),
        Question(id: 23, text: "Eiffel tower", body: .estimate(Estimate(minimum: 0, maximum: 1000, step: 0.5, value: 330, margin: 100, unit: "m"))),
        Question(id: 24, text: "One word for Monday", body: .wordCloud),
        Question(id: 25, text: "Now for geography", body: .slide),
    ]

    /// Public ids as a server's key might give them: not in the stored (right) order.
    static let ids = ChoiceIds(publicIds: [[1: 731_000_001, 2: 204_000_002, 3: 519_000_003, 4: 388_000_004]], seed: 7)

    /// The game with its first question open: `from` 4 opens the slide, which has no clock.
    static func game(from first: Int = 0) throws -> LiveGame {
        var settings = LiveSettings()
        settings.secondsPerQuestion = 30
        var game = LiveGame(id: 42, pin: "048213", quizId: 7, hostUserId: 5, title: "Kinds", questions: Array(questions[first...]),
                            settings: settings)
        _ = try game.join(nickname: "Ann", userId: nil)
        try game.start(now: Date(timeIntervalSince1970: 1_700_000_000.25))
        return game
    }

    static func view(_ game: LiveGame, _ index: Int) -> LiveQuestionView {
        var view = LiveQuestionView(game: game, question: questions[index], ids: ids)
        view.count = questions.count
        view.index = index
        return view
    }

    static let cloud = LiveCloud(index: 3, entries: [.init(key: "coffee", text: "Coffee", count: 7), .init(key: "b", text: "<b>", count: 1)],
                                 others: 2)

    static func reveal(index: Int, correct: String) -> LiveReveal {
        LiveReveal(index: index, correct: correct, correctChoices: [], explanation: nil,
                   distribution: [LiveGame.Tally(label: "Right", choice: nil, count: 1, isCorrect: true),
                                  LiveGame.Tally(label: "Wrong", choice: nil, count: 0, isCorrect: false)],
                   answered: 1, players: 1)
    }

    static func messages() throws -> [(String, String)] {
        let game = try game()
        var ordering = reveal(index: 0, correct: "Rome → Paris → Helsinki")
        ordering.order = [.init(id: 731_000_001, text: "Rome"), .init(id: 204_000_002, text: "Paris"), .init(id: 519_000_003, text: "Helsinki")]
        var matching = reveal(index: 1, correct: "France: Paris; Italy <it>: Rome")
        matching.pairs = [(prompt: 1, answer: 731_000_001), (prompt: 2, answer: 204_000_002)]
        var estimate = reveal(index: 2, correct: "330 m")
        estimate.estimate = (330, [LiveGame.Closest(playerId: 1, nickname: "Ann", value: 330.5, points: 995)])
        var words = LiveReveal(index: 3, correct: "", correctChoices: [], explanation: nil, distribution: [], answered: 10, players: 12)
        words.cloud = cloud
        let partly = LiveAnswer(playerId: 1, questionIndex: 1, answer: .matches([1: 1, 2: 3]), isCorrect: false, points: 425, bonus: 0,
                                milliseconds: 9_000, late: false, credit: Credit(0.5))
        return [
            ("question-ordering", LiveMessages.question(view(game, 0), now: now)),
            ("question-matching", LiveMessages.question(view(game, 1), now: now)),
            ("question-estimate", LiveMessages.question(view(game, 2), now: now)),
            ("question-wordCloud", LiveMessages.question(view(game, 3), now: now)),
            ("question-slide", LiveMessages.question(view(try Self.game(from: 4), 4), now: now)),
            ("reveal-ordering", LiveMessages.shared(.reveal(ordering), host: false, now: now) ?? ""),
            ("reveal-matching", LiveMessages.shared(.reveal(matching), host: false, now: now) ?? ""),
            ("reveal-estimate", LiveMessages.shared(.reveal(estimate), host: false, now: now) ?? ""),
            ("reveal-wordCloud", LiveMessages.shared(.reveal(words), host: false, now: now) ?? ""),
            ("cloud", LiveMessages.shared(.cloud(cloud), host: true, now: now) ?? ""),
            ("result-partly", LiveMessages.result(LivePlayerResult(index: 1, answer: partly, score: 425, rank: 1, streak: 0))),
        ]
    }
}
