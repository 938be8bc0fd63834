import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Synchronization
import Testing

/// Collects what a game sends, as the socket adapter would receive it.
final class RecordingOutbox: LiveOutbox, Sendable {
    private let sent = Mutex<[(LiveEvent, LiveAudience)]>([])

    func send(_ event: LiveEvent, gameId: Int64, to audience: LiveAudience) {
        sent.withLock { $0.append((event, audience)) }
    }

    /// Each player's own result sent so far, by player id.
    func results() -> [Int: LivePlayerResult] {
        sent.withLock { sent in
            var results: [Int: LivePlayerResult] = [:]
            for case (.result(let result), .player(let id)) in sent { results[id] = result }
            return results
        }
    }

    /// The questions and reveals sent so far, in order.
    func questions() -> [LiveQuestionView] {
        sent.withLock { sent in sent.compactMap { if case (.question(let view, _), _) = $0 { view } else { nil } } }
    }

    /// Every event sent so far, with whom it was for.
    func events() -> [(LiveEvent, LiveAudience)] { sent.withLock { $0 } }

    func reveals() -> [LiveReveal] {
        sent.withLock { sent in sent.compactMap { if case (.reveal(let reveal), _) = $0 { reveal } else { nil } } }
    }

    /// The names of the events sent so far, in order, and forgets them.
    func drain() -> [String] {
        sent.withLock { sent in
            defer { sent = [] }
            return sent.map { event, _ in
                switch event {
                case .players: "players"
                case .question: "question"
                case .progress: "progress"
                case .cloud: "cloud"
                case .reveal: "reveal"
                case .result: "result"
                case .leaderboard: "leaderboard"
                case .ended: "ended"
                case .host(let connected, _): connected ? "host-back" : "host-away"
                case .kicked: "kicked"
                }
            }
        }
    }
}

@Suite struct LiveGamesTests {
    private func makeSUT(_ env: UseCaseEnvironment, joinsPerMinute: Int = 120,
                         limits: LiveGames.Limits = .init()) -> (LiveGames, RecordingOutbox) {
        let games = LiveGames(store: env.store, catalog: env.store, time: env.time,
                              joins: RateLimiter(limit: joinsPerMinute, window: 60, time: env.time), key: env.choiceKey, limits: limits)
        let outbox = RecordingOutbox()
        games.deliver(to: outbox)
        return (games, outbox)
    }

    /// The play bank's quiz hosted, `players` joined (from one address) and its first question open.
    private func startedGame(_ env: UseCaseEnvironment, players names: [String]) async throws
        -> (LiveGames, RecordingOutbox, User, LiveGameRecord, [LiveGames.Joined]) {
        let fixture = try await env.loadPlayBank()
        let host = try await env.register("host")
        let (games, outbox) = makeSUT(env)
        let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
        var joined: [LiveGames.Joined] = []
        for name in names { joined.append(try await games.join(pin: game.pin, nickname: name, user: nil, team: nil, address: "192.0.2.1")) }
        try await games.command(.start, gameId: game.id, userId: host.id)
        return (games, outbox, host, game, joined)
    }

    @Test func nameThemAllQuestionsAreLeftOutAndDraftsAreTheirAuthorsOnly() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, _) = makeSUT(env)
            let setup = try await games.setup(quizId: fixture.quiz.id, user: host)
            #expect(setup.questions.count == 5 && setup.skipped == 0)
            let record = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            #expect(record.pin.count == 6)
            #expect(record.questionIds == fixture.questions.compactMap(\.id))
            await #expect(throws: LiveGames.Failure.quizNotFound) { try await games.host(quizId: 999, user: host, settings: LiveSettings()) }
            var bad = LiveSettings()
            bad.secondsPerQuestion = 1
            await #expect(throws: LiveGames.Failure.badSettings([.seconds])) { try await games.host(quizId: fixture.quiz.id, user: host, settings: bad) }
            bad.teams = 9
            bad.points = [7: .double]
            await #expect(throws: LiveGames.Failure.badSettings([.seconds, .teams, .pointsIndex])) {
                try await games.host(quizId: fixture.quiz.id, user: host, settings: bad)
            }
        }
    }

    @Test func aPollIsPlayedLiveAndTheKindsLiveGamesDoNotPlayAreNamed() async throws {
        try await withUseCases { env in
            let questions = [
                Question(text: "Tea or coffee?", body: .poll(Poll(choices: ["Tea", "Coffee"]))),
                Question(text: "The Seine flows through [[1]].", body: .gapFill(GapFill(text: "The Seine flows through [[1]].", gaps: [
                    .init(.typed([Alternative("Paris")])),
                ]))),
                Question(text: "Capital of France?", body: .singleChoice([Choice(id: 1, text: "Paris", isCorrect: true),
                                                                          Choice(id: 2, text: "Lyon", isCorrect: false)])),
            ]
            _ = try await env.store.importBank(Bank(subjects: [BankSubject(name: "Live", topics: [BankTopic(name: "Kinds", quizzes: [
                BankQuiz(title: "Mixed live", questions: questions)])])]), at: env.time.now())
            let quiz = try #require(try await env.store.allQuizzes().first { $0.quiz.title == "Mixed live" }?.quiz)
            let host = try await env.register("host")
            let (games, outbox) = makeSUT(env)
            let setup = try await games.setup(quizId: quiz.id, user: host)
            #expect(setup.questions.map(\.kind) == [.poll, .singleChoice])
            #expect(setup.skipped == 1 && setup.skippedKinds == [.gapFill])
            #expect(setup.leftOut.map(\.text) == ["The Seine flows through [[1]]."], "the setup page names it")

            let game = try await games.host(quizId: quiz.id, user: host, settings: LiveSettings())
            let ann = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            let bob = try await games.join(pin: game.pin, nickname: "Bob", user: nil, team: nil, address: "192.0.2.1")
            try await games.command(.start, gameId: game.id, userId: host.id)
            let asked = try #require(outbox.questions().last)
            #expect(asked.kind == .poll)
            #expect(asked.choices.map(\.text) == ["Tea", "Coffee"])
            #expect(asked.choices.allSatisfy { (100_000_000..<1_000_000_000).contains($0.id) })
            let coffee = try #require(asked.choices.first { $0.text == "Coffee" }?.id)
            let vote = try await games.answer(.choice(coffee), question: 0, playerId: ann.player.id, gameId: game.id)
            #expect(vote.points == 0)
            await #expect(throws: LiveGames.Failure.self) {
                try await games.answer(.choice(1), question: 0, playerId: bob.player.id, gameId: game.id)
            }
            try await games.command(.close, gameId: game.id, userId: host.id)
            let reveal = try #require(outbox.reveals().last)
            #expect(reveal.correctChoices.isEmpty && reveal.correct.isEmpty)
            #expect(reveal.distribution.map(\.count) == [0, 1])
            #expect(reveal.distribution.map(\.choice) == asked.choices.map(\.id), "the ids the poll was shown under")
            #expect(reveal.distribution.allSatisfy { !$0.isCorrect })
            let results = outbox.results()
            #expect(results[ann.player.id]?.answer?.points == 0 && results[ann.player.id]?.score == 0)
        }
    }

    @Test func aHostWhoStaysAwayFiveMinutesEndsTheGameAndEveryoneIsTold() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, outbox) = makeSUT(env)
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            games.hostConnected(true, gameId: game.id)
            _ = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            _ = outbox.drain()
            games.hostConnected(false, gameId: game.id)
            #expect(outbox.drain() == ["host-away"])
            env.time.advance(by: LiveGames.hostTimeout - 1)
            await games.tick()
            #expect(games.isRunning(gameId: game.id))
            games.hostConnected(true, gameId: game.id)  // back in time: nothing ends
            games.hostConnected(false, gameId: game.id)
            env.time.advance(by: LiveGames.hostTimeout - 1)
            await games.tick()
            #expect(games.isRunning(gameId: game.id))
            env.time.advance(by: 1)
            await games.tick()
            #expect(outbox.drain().suffix(1) == ["ended"])
            #expect(!games.isRunning(gameId: game.id))
            #expect(try await env.store.liveGame(id: game.id)?.endedAt == env.time.now())
            await #expect(throws: LiveGames.Failure.unknownGame) {
                try await games.join(pin: game.pin, nickname: "Bob", user: nil, team: nil, address: "192.0.2.1")
            }
        }
    }

    @Test func theClockClosesAQuestionAtItsDeadlineAndAutoAdvanceMovesOn() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, outbox) = makeSUT(env)
            var settings = LiveSettings()
            settings.autoAdvance = true
            settings.secondsPerQuestion = 10
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: settings)
            games.hostConnected(true, gameId: game.id)
            _ = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            try await games.command(.start, gameId: game.id, userId: host.id)
            _ = outbox.drain()
            #expect(games.nextTick() == env.time.now().addingTimeInterval(10))
            env.time.advance(by: 10)
            await games.tick()
            #expect(outbox.drain() == ["reveal", "result"])
            env.time.advance(by: LiveGame.autoAdvanceSeconds)
            await games.tick()
            #expect(outbox.drain() == ["leaderboard"])
            env.time.advance(by: LiveGame.autoAdvanceSeconds)
            await games.tick()
            #expect(outbox.drain() == ["question"])
            // The phase is stored at each change: a restart would find question 2 open.
            let stored = try #require(try await env.store.liveGame(id: game.id))
            #expect(stored.phase == .question && stored.index == 1)
        }
    }

    @Test func onlyTheHostRunsTheGameAndKickedPlayersCannotComeBack() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let other = try await env.register("other")
            let (games, outbox) = makeSUT(env)
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            await #expect(throws: LiveGames.Failure.notHost) { try await games.command(.start, gameId: game.id, userId: other.id) }
            await #expect(throws: LiveGames.Failure.game(.notNow)) { try await games.command(.start, gameId: game.id, userId: host.id) }
            let ann = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            let signedIn = try await games.join(pin: game.pin, nickname: "ignored", user: other, team: nil, address: "192.0.2.1")
            #expect(signedIn.player.nickname == "other")
            // Joining again (another tab) is the same player, with a new secret.
            let again = try await games.join(pin: game.pin, nickname: "someone", user: other, team: nil, address: "192.0.2.1")
            #expect(again.player.id == signedIn.player.id && again.secret != signedIn.secret)
            await #expect(throws: LiveGames.Failure.notResumable) {
                try await games.resume(pin: game.pin, playerId: signedIn.player.id, secret: signedIn.secret, address: "192.0.2.1")
            }
            _ = outbox.drain()
            try await games.command(.kick(ann.player.id), gameId: game.id, userId: host.id)
            #expect(outbox.drain() == ["kicked", "players"])
            await #expect(throws: LiveGames.Failure.game(.kicked)) {
                try await games.resume(pin: game.pin, playerId: ann.player.id, secret: ann.secret, address: "192.0.2.1")
            }
            await #expect(throws: LiveGames.Failure.game(.kicked)) {
                try await games.rejoin(pin: game.pin, nickname: "Ann", code: try #require(ann.code), address: "192.0.2.1")
            }
            #expect(try await env.store.livePlayers(gameId: game.id).first { $0.player.id == ann.player.id }?.player.kicked == true)
        }
    }

    @Test func rejoiningFromAnotherDeviceTakesTheCodeAndRetiresTheOldSecret() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, _) = makeSUT(env)
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            let ann = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            let code = try #require(ann.code)
            await #expect(throws: LiveGames.Failure.badRejoin) {
                try await games.rejoin(pin: game.pin, nickname: "Ann", code: "AAAAAA", address: "192.0.2.1")
            }
            let moved = try await games.rejoin(pin: game.pin, nickname: " ann ", code: code.lowercased(), address: "192.0.2.1")
            #expect(moved.player.id == ann.player.id && moved.secret != ann.secret)
            await #expect(throws: LiveGames.Failure.notResumable) { try await games.resume(pin: game.pin, playerId: ann.player.id, secret: ann.secret, address: "192.0.2.1") }
            #expect(try await games.resume(pin: game.pin, playerId: ann.player.id, secret: moved.secret, address: "192.0.2.1").player.nickname == "Ann")
        }
    }

    @Test func theHostHearsOfAnswersAboutAHundredTimesAQuestionAtMost() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, outbox) = makeSUT(env, joinsPerMinute: 1_000)
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            var ids: [Int] = []
            for number in 0..<300 {
                ids.append(try await games.join(pin: game.pin, nickname: "P\(number)", user: nil, team: nil, address: "192.0.2.\(number % 200)").player.id)
            }
            try await games.command(.start, gameId: game.id, userId: host.id)
            _ = outbox.drain()
            for id in ids { _ = try await games.answer(.choice(env.shown(2, of: fixture.questions[0])), question: 0, playerId: id, gameId: game.id) }
            let sent = outbox.drain()
            #expect(sent.filter { $0 == "progress" }.count == 100)  // every third answer (the 300th, stored, then ends the question)
            #expect(sent.filter { $0 == "result" }.count == 300)
        }
    }

    @Test func joinsFromOneAddressAreLimited() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, _) = makeSUT(env, joinsPerMinute: 3)
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            for pin in ["000000", "000001", "000002"] {
                await #expect(throws: LiveGames.Failure.unknownGame) {
                    try await games.join(pin: pin, nickname: "Guess", user: nil, team: nil, address: "192.0.2.9")
                }
            }
            await #expect(throws: LiveGames.Failure.rateLimited) {
                try await games.join(pin: game.pin, nickname: "Guess", user: nil, team: nil, address: "192.0.2.9")
            }
            // Another address is not held up.
            _ = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "198.51.100.1")
        }
    }

    @Test func aFullGameTurnsTheNextPlayerAwayAndGoesOnForTheOthers() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, _) = makeSUT(env, limits: .init(playersPerGame: 2))
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            let ann = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            _ = try await games.join(pin: game.pin, nickname: "Bob", user: nil, team: nil, address: "192.0.2.2")
            await #expect(throws: LiveGames.Failure.game(.full)) {
                try await games.join(pin: game.pin, nickname: "Cid", user: nil, team: nil, address: "192.0.2.3")
            }
            // Someone already in comes back on the same place.
            #expect(try await games.resume(pin: game.pin, playerId: ann.player.id, secret: ann.secret, address: "192.0.2.1").player.nickname == "Ann")
            try await games.command(.start, gameId: game.id, userId: host.id)
            let answer = try await games.answer(.choice(env.shown(2, of: fixture.questions[0])), question: 0, playerId: ann.player.id, gameId: game.id)
            #expect(answer.questionIndex == 0)
        }
    }

    @Test func aHostRunsAsManyGamesAtOnceAsTheLimitSays() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, _) = makeSUT(env, limits: .init(gamesPerHost: 2))
            _ = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            _ = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            await #expect(throws: LiveGames.Failure.tooManyGames) {
                try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            }
        }
    }

    @Test func aRestoredGameCarriesOnWithItsPlayersScoresAndSecrets() async throws {
        try await withUseCases { env in
            let (before, _, host, game, joined) = try await startedGame(env, players: ["Ann", "Bob"])
            let (ann, bob) = (joined[0], joined[1])
            let first = try #require(try await env.store.questions(quizId: game.quizId).first)
            env.time.advance(by: 5)
            let taken = try await before.answer(.choice(env.shown(2, of: first)), question: 0, playerId: ann.player.id, gameId: game.id)
            #expect(taken.points == 875)

            // A new process on the same database.
            let (after, outbox) = makeSUT(env)
            #expect(try await after.restore() == 1)
            let view = try after.hostView(gameId: game.id, userId: host.id)
            #expect(view.phase == .question && view.index == 0)
            // Her answer is back, and counts once the question closes (not before: nothing may tell it was right).
            #expect(view.answers[ann.player.id]?.points == 875 && view.player(ann.player.id)?.score == 0)
            #expect(try await after.resume(pin: game.pin, playerId: bob.player.id, secret: bob.secret, address: "192.0.2.1").player.nickname == "Bob")
            await #expect(throws: LiveGames.Failure.game(.alreadyAnswered)) {
                try await after.answer(.choice(env.shown(2, of: first)), question: 0, playerId: ann.player.id, gameId: game.id)
            }
            _ = try await after.answer(.choice(env.shown(1, of: first)), question: 0, playerId: bob.player.id, gameId: game.id)
            #expect(outbox.drain().contains("reveal"))
            #expect(try after.hostView(gameId: game.id, userId: host.id).player(ann.player.id)?.score == 875)
            let results = try await after.results(gameId: game.id, userId: host.id)
            #expect(results.answers.count == 2)
            #expect(results.standings.map(\.player.nickname) == ["Ann", "Bob"])
        }
    }

    @Test func resumingTellsNoMoreForAPINThatRunsThanForOneThatDoesNotAndCountsAgainstTheAddress() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, _) = makeSUT(env, joinsPerMinute: 4)
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            let ann = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            let wrongPIN = game.pin == "000000" ? "000001" : "000000"
            await #expect(throws: LiveGames.Failure.notResumable) {
                try await games.resume(pin: wrongPIN, playerId: ann.player.id, secret: ann.secret, address: "192.0.2.9")
            }
            await #expect(throws: LiveGames.Failure.notResumable) {
                try await games.resume(pin: game.pin, playerId: ann.player.id, secret: "guessed", address: "192.0.2.9")
            }
            _ = try await games.resume(pin: game.pin, playerId: ann.player.id, secret: ann.secret, address: "192.0.2.9")
            _ = try await games.resume(pin: game.pin, playerId: ann.player.id, secret: ann.secret, address: "192.0.2.9")
            // The fifth greeting of a minute from that address, even with the right secret.
            await #expect(throws: LiveGames.Failure.rateLimited) {
                try await games.resume(pin: game.pin, playerId: ann.player.id, secret: ann.secret, address: "192.0.2.9")
            }
        }
    }

    @Test func aSignedInPlayerIsNeverLockedOutOfAGameByTheirUsername() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let alice = try await env.register("alice")
            let long = try await env.register("a_username_of_twenty_six_c")
            let (games, _) = makeSUT(env)
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            // An anonymous "Alice" (or a look-alike) got in first: the account's alice still gets in.
            _ = try await games.join(pin: game.pin, nickname: " Alice ", user: nil, team: nil, address: "192.0.2.1")
            let joined = try await games.join(pin: game.pin, nickname: "", user: alice, team: nil, address: "192.0.2.1")
            #expect(joined.player.nickname == "alice (2)" && joined.player.userId == alice.id)
            // A username longer than a chosen nickname may be still plays under itself.
            #expect(try await games.join(pin: game.pin, nickname: "", user: long, team: nil, address: "192.0.2.1").player.nickname == long.username)
        }
    }

    @Test func eachPlayersResultSaysWhomTheyChaseAndByHowMuch() async throws {
        try await withUseCases { env in
            let (games, outbox, _, game, joined) = try await startedGame(env, players: ["Ann", "Bob", "Cy"])
            let (ann, bob, cy) = (joined[0].player.id, joined[1].player.id, joined[2].player.id)
            let question = try #require(try await env.store.questions(quizId: game.quizId).first)
            let right = env.shown(try #require(question.body.choices.first { $0.isCorrect }?.id), of: question)
            let wrong = env.shown(try #require(question.body.choices.first { !$0.isCorrect }?.id), of: question)
            env.time.advance(by: 1)
            _ = try await games.answer(.choice(right), question: 0, playerId: ann, gameId: game.id)
            env.time.advance(by: 4)
            _ = try await games.answer(.choice(right), question: 0, playerId: cy, gameId: game.id)
            // The last answer closes the question: everyone answered.
            _ = try await games.answer(.choice(wrong), question: 0, playerId: bob, gameId: game.id)
            let results = outbox.results()
            let (first, second, third) = (try #require(results[ann]), try #require(results[cy]), try #require(results[bob]))
            #expect(first.rank == 1 && first.behind == nil, "the leader chases nobody")
            #expect(second.rank == 2 && second.behind == .init(nickname: "Ann", points: first.score - second.score))
            #expect(first.score > second.score && second.score > 0)
            #expect(third.rank == 3 && third.behind == .init(nickname: "Cy", points: second.score))
        }
    }

    @Test func whileAQuestionIsOpenNoScoreSaysWhetherAnAnswerWasRight() async throws {
        try await withUseCases { env in
            // Cy does not answer, so the question stays open.
            let (games, _, host, game, joined) = try await startedGame(env, players: ["Ann", "Bob", "Cy"])
            let (ann, bob) = (joined[0], joined[1])
            let question = try #require(try await env.store.questions(quizId: game.quizId).first)
            let right = try #require(question.body.choices.first { $0.isCorrect }?.id)
            let wrong = try #require(question.body.choices.first { !$0.isCorrect }?.id)
            _ = try await games.answer(.choice(env.shown(right, of: question)), question: 0, playerId: ann.player.id, gameId: game.id)
            _ = try await games.answer(.choice(env.shown(wrong, of: question)), question: 0, playerId: bob.player.id, gameId: game.id)
            let seen = try await games.resume(pin: game.pin, playerId: ann.player.id, secret: ann.secret, address: "192.0.2.1").game.players
            #expect(seen.allSatisfy { $0.score == 0 && $0.correct == 0 && $0.streak == 0 })
            try await games.command(.close, gameId: game.id, userId: host.id)
            let after = try await games.resume(pin: game.pin, playerId: ann.player.id, secret: ann.secret, address: "192.0.2.1").game.players
            #expect(after.map(\.correct) == [1, 0, 0] && after[0].score > 0)
        }
    }
}

extension LiveGamesTests {
    /// Players hear the host is back only after hearing the host was away: a host who comes back
    /// to a restarted server (or to the instance that took the game over) is no news to them.
    @Test func playersHearTheHostIsBackOnlyAfterHearingTheHostWasAway() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (games, outbox) = makeSUT(env)
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            games.hostConnected(true, gameId: game.id)
            _ = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            #expect(!outbox.drain().contains { $0.hasPrefix("host") })

            let (restarted, afterRestart) = makeSUT(env)
            #expect(try await restarted.restore() == 1)
            restarted.hostConnected(true, gameId: game.id)
            #expect(!afterRestart.drain().contains { $0.hasPrefix("host") })
            restarted.hostConnected(false, gameId: game.id)
            #expect(afterRestart.drain() == ["host-away"])
            restarted.hostConnected(true, gameId: game.id)
            #expect(afterRestart.drain() == ["host-back"])
        }
    }
}

