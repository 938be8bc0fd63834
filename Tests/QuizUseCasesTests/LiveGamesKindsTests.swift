import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Issue 31's kinds through the live use cases: what a question shows (never its answer), answers
/// in the ids shown, the reveal each kind needs, a word cloud's hides, slides.
@Suite struct LiveGamesKindsTests {
    private let publicIds = 100_000_000..<1_000_000_000

    private func makeSUT(_ env: UseCaseEnvironment) -> (LiveGames, RecordingOutbox) {
        let games = LiveGames(store: env.store, catalog: env.store, time: env.time,
                              joins: RateLimiter(limit: 120, window: 60, time: env.time), key: env.choiceKey)
        let outbox = RecordingOutbox()
        games.deliver(to: outbox)
        return (games, outbox)
    }

    /// A quiz of `questions` hosted, Ann and Bob joined, its first question open.
    private func started(_ env: UseCaseEnvironment, _ questions: [Question]) async throws
        -> (LiveGames, RecordingOutbox, User, LiveGameRecord, ann: Int, bob: Int) {
        _ = try await env.store.importBank(Bank(subjects: [BankSubject(name: "Live", topics: [BankTopic(name: "Kinds", quizzes: [
            BankQuiz(title: "Kinds live", questions: questions)])])]), at: env.time.now())
        let quiz = try #require(try await env.store.allQuizzes().first { $0.quiz.title == "Kinds live" }?.quiz)
        let host = try await env.register("host")
        let (games, outbox) = makeSUT(env)
        let game = try await games.host(quizId: quiz.id, user: host, settings: LiveSettings())
        let ann = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
        let bob = try await games.join(pin: game.pin, nickname: "Bob", user: nil, team: nil, address: "192.0.2.1")
        try await games.command(.start, gameId: game.id, userId: host.id)
        return (games, outbox, host, game, ann.player.id, bob.player.id)
    }

    @Test func anOrderingShowsItsItemsUnderIdsThatSayNothingAndTheRevealGivesTheOrder() async throws {
        try await withUseCases { env in
            let items = ["Rome", "Paris", "Helsinki", "Brasília"]
            let (games, outbox, host, game, ann, bob) = try await started(env, [
                Question(text: "Oldest first", body: .ordering(Ordering(items: items))),
            ])
            let asked = try #require(outbox.questions().last)
            #expect(asked.kind == .ordering && asked.choices.isEmpty)
            #expect(Set(asked.items.map(\.text)) == Set(items))
            #expect(asked.items.allSatisfy { publicIds.contains($0.id) })
            #expect(asked.items.map(\.id) == asked.items.map(\.id).sorted(), "listed by id: an order only the server can compute")
            let id = Dictionary(uniqueKeysWithValues: asked.items.map { ($0.text, $0.id) })
            let right = items.map { id[$0]! }
            await #expect(throws: LiveGames.Failure.game(.badAnswer)) {
                try await games.answer(AnswerInput(order: [right[0], right[1], right[2], right[2]]), question: 0, playerId: ann, gameId: game.id)
            }
            await #expect(throws: LiveGames.Failure.game(.badAnswer)) {
                try await games.answer(AnswerInput(order: [1, 2, 3, 4]), question: 0, playerId: ann, gameId: game.id)  // stored ids
            }
            let whole = try await games.answer(AnswerInput(order: right), question: 0, playerId: ann, gameId: game.id)
            let swapped = try await games.answer(AnswerInput(order: [right[1], right[0], right[2], right[3]]), question: 0, playerId: bob,
                                                 gameId: game.id)
            #expect(whole.isCorrect && whole.points > 0)
            #expect(!swapped.isCorrect && swapped.points == 0)
            let reveal = try #require(outbox.reveals().last)
            #expect(reveal.order.map(\.text) == items)
            #expect(reveal.order.map(\.id) == right)
            #expect(reveal.correct == "Rome → Paris → Helsinki → Brasília")
            let results = outbox.results()
            #expect(results[ann]?.answer?.credit == .full && results[bob]?.answer?.credit == Credit.none)
            _ = host
        }
    }

    @Test func aMatchingShowsPromptsAndAnswersAndGivesPartialCredit() async throws {
        try await withUseCases { env in
            let (games, outbox, _, game, ann, bob) = try await started(env, [
                Question(text: "Capitals", body: .matching(Matching(pairs: [.init(prompt: "France", answer: "Paris"),
                                                                            .init(prompt: "Italy", answer: "Rome"),
                                                                            .init(prompt: "Spain", answer: "Madrid")], extras: ["Lyon"]))),
            ])
            let asked = try #require(outbox.questions().last)
            #expect(asked.prompts.map(\.text) == ["France", "Italy", "Spain"] && asked.prompts.map(\.id) == [1, 2, 3])
            #expect(Set(asked.answers.map(\.text)) == ["Paris", "Rome", "Madrid", "Lyon"])
            #expect(asked.answers.allSatisfy { publicIds.contains($0.id) })
            let id = Dictionary(uniqueKeysWithValues: asked.answers.map { ($0.text, $0.id) })
            await #expect(throws: LiveGames.Failure.game(.badAnswer)) {
                try await games.answer(AnswerInput(matches: [1: 1]), question: 0, playerId: ann, gameId: game.id)
            }
            await #expect(throws: LiveGames.Failure.game(.badAnswer)) {
                try await games.answer(AnswerInput(matches: [7: id["Paris"]!]), question: 0, playerId: ann, gameId: game.id)
            }
            let two = try await games.answer(AnswerInput(matches: [1: id["Paris"]!, 2: id["Rome"]!, 3: id["Lyon"]!]), question: 0,
                                             playerId: ann, gameId: game.id)
            #expect(two.credit.percent == 67 && two.points > 0 && !two.isCorrect)
            _ = try await games.answer(AnswerInput(matches: [1: id["Paris"]!, 2: id["Rome"]!, 3: id["Madrid"]!]), question: 0,
                                       playerId: bob, gameId: game.id)
            let reveal = try #require(outbox.reveals().last)
            #expect(reveal.pairs.map(\.prompt) == [1, 2, 3])
            #expect(reveal.pairs.map(\.answer) == [id["Paris"]!, id["Rome"]!, id["Madrid"]!])
            #expect(outbox.results()[ann]?.answer?.credit.percent == 67)
        }
    }

    @Test func anEstimateSendsItsRangeNeverItsValueAndTheRevealNamesTheClosest() async throws {
        try await withUseCases { env in
            let (games, outbox, _, game, ann, bob) = try await started(env, [
                Question(text: "Eiffel tower, in metres", body: .estimate(Estimate(minimum: 0, maximum: 1000, step: 10, value: 330, margin: 100,
                                                                                    unit: "m"))),
            ])
            let asked = try #require(outbox.questions().last)
            #expect(asked.estimate?.minimum == 0 && asked.estimate?.maximum == 1000 && asked.estimate?.step == 10 && asked.unit == "m")
            await #expect(throws: LiveGames.Failure.game(.badAnswer)) {
                try await games.answer(.number(1_010), question: 0, playerId: ann, gameId: game.id)
            }
            _ = try await games.answer(.number(300), question: 0, playerId: ann, gameId: game.id)
            _ = try await games.answer(.number(340), question: 0, playerId: bob, gameId: game.id)
            let reveal = try #require(outbox.reveals().last)
            #expect(reveal.estimate?.value == 330)
            #expect(reveal.estimate?.closest.map(\.nickname) == ["Bob", "Ann"])
            #expect(reveal.estimate?.closest.map(\.points) == [900, 700])
            #expect(outbox.results()[bob]?.answer?.credit.percent == 90)
        }
    }

    @Test func aWordCloudGrowsOnTheHostsScreenAndAHiddenWordLeavesEveryScreen() async throws {
        try await withUseCases { env in
            let (games, outbox, host, game, ann, bob) = try await started(env, [
                Question(text: "One word for Monday", body: .wordCloud),
            ])
            let asked = try #require(outbox.questions().last)
            #expect(asked.maxLength == WordCloud.maxEntryLength)
            await #expect(throws: LiveGames.Failure.game(.badAnswer)) {
                try await games.answer(.text(String(repeating: "a", count: 41)), question: 0, playerId: ann, gameId: game.id)
            }
            _ = try await games.answer(.text("<b>Coffee</b>"), question: 0, playerId: ann, gameId: game.id)
            let clouds = outbox.events().compactMap { event, audience -> LiveCloud? in
                if case .cloud(let cloud) = event, audience == .host { cloud } else { nil }
            }
            #expect(clouds.last?.entries.map(\.count) == [1], "the host sees the word as it arrives")
            let key = try #require(clouds.last?.entries.first?.key)
            await #expect(throws: LiveGames.Failure.game(.badHide)) {
                try await games.command(.hide(question: 0, key: "tea"), gameId: game.id, userId: host.id)
            }
            _ = try await games.answer(.text("tea"), question: 0, playerId: bob, gameId: game.id)
            let reveal = try #require(outbox.reveals().last)
            #expect(reveal.cloud?.entries.count == 2)
            #expect(outbox.results()[ann]?.answer?.points == 0)
            try await games.command(.hide(question: 0, key: key), gameId: game.id, userId: host.id)
            guard case (.cloud(let after), .everyone)? = outbox.events().last else {
                Issue.record("a hide on the reveal goes to everyone")
                return
            }
            #expect(after.entries.map(\.text) == ["tea"])
            #expect(games.catchUp(gameId: game.id, audience: .player(ann)).contains {
                if case .reveal(let shown) = $0 { shown.cloud?.entries.map(\.text) == ["tea"] } else { false }
            }, "a phone coming back sees the cloud without it")

            // A restart reads the game back from the database: the word stays hidden.
            let (restarted, _) = makeSUT(env)
            #expect(try await restarted.restore() == 1)
            #expect(restarted.catchUp(gameId: game.id, audience: .host).contains {
                if case .reveal(let shown) = $0 { shown.cloud?.entries.map(\.text) == ["tea"] } else { false }
            }, "the host's screen after a restart still leaves it out")
        }
    }

    @Test func aSlideIsShownWithoutAnswersAndTheHostMovesOn() async throws {
        try await withUseCases { env in
            let (games, outbox, host, game, ann, _) = try await started(env, [
                Question(text: "Now for geography", body: .slide),
                Question(text: "Sky is blue", body: .trueFalse(true)),
            ])
            let asked = try #require(outbox.questions().last)
            #expect(asked.kind == .slide && asked.choices.isEmpty && asked.items.isEmpty)
            await #expect(throws: LiveGames.Failure.game(.badAnswer)) {
                try await games.answer(.bool(true), question: 0, playerId: ann, gameId: game.id)
            }
            await #expect(throws: LiveGames.Failure.game(.notNow)) {
                try await games.command(.close, gameId: game.id, userId: host.id)
            }
            _ = outbox.drain()
            try await games.command(.next, gameId: game.id, userId: host.id)
            let shown = outbox.questions()
            #expect(outbox.drain() == ["question"], "no reveal, no results, no leaderboard after a slide")
            #expect(shown.last?.index == 1)
        }
    }
}
