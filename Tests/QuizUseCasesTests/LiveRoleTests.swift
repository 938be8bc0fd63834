import Foundation
import QuizCore
import QuizStore
import QuizTestSupport
@testable import QuizUseCases
import Synchronization
import Testing

/// How an instance holds a game picks the part that plays it there (`LiveRole`): the owner runs
/// it, a copy shows another instance's game. The holding changes only when a game is created,
/// restored, read as a copy, taken over or lost; never as a fallback inside one answer.
@Suite struct LiveRoleTests {
    private func holding(_ games: LiveGames, _ gameId: Int64) -> LiveHolding? {
        games.context.rooms.room(id: gameId)?.holding
    }

    @Test func onOneInstanceEveryGameIsRunByItsOwnerHostedOrRestored() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let make = { LiveGames(store: env.store, catalog: env.store, time: env.time, joins: RateLimiter(limit: 120, window: 60, time: env.time),
                                   key: env.choiceKey) }
            let games = make()
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            #expect(holding(games, game.id) == .owner)
            let room = try #require(games.context.rooms.room(id: game.id))
            #expect(games.context.role(of: room) is LiveOwner)

            let restarted = make()
            #expect(try await restarted.restore() == 1)
            #expect(holding(restarted, game.id) == .owner)
        }
    }
}

/// Notices between instances keep the JSON an older instance writes and reads.
@Suite struct LiveNoticeTests {
    private static let every: [LiveNotice] = [
        .state, .players, .answers, .hostSocket(true), .host(false), .progress(index: 2, answered: 40, players: 90), .kicked(3),
        .command(.start), .command(.close), .command(.next), .command(.end), .command(.kick(4)), .command(.lock(true)),
        .command(.settings(LiveSettings())),
        .command(.hide(question: 3, key: "coffee \"é\"")), .hidden(index: 3, key: "coffee"),
    ]

    @Test(arguments: every) func everyNoticeComesBackAsSent(_ notice: LiveNotice) throws {
        let text = try #require(notice.payload(gameId: 7, sender: "a"))
        let read = try #require(LiveNotice.read(text))
        #expect(read.gameId == 7 && read.sender == "a" && read.notice == notice)
    }

    @Test func noticesAreReadAsTheEarlierVersionWritesThem() throws {
        let cases: [(String, LiveNotice)] = [
            (#"{"g":7,"f":"a","k":"state"}"#, .state),
            (#"{"f":"a","k":"progress","g":7,"i":1,"a":5,"n":9}"#, .progress(index: 1, answered: 5, players: 9)),
            (#"{"g":7,"f":"a","k":"command","c":"kick","p":3}"#, .command(.kick(3))),
            (#"{"g":7,"f":"a","k":"hostSocket","c":false}"#, .hostSocket(false)),
        ]
        for (text, notice) in cases { #expect(LiveNotice.read(text)?.notice == notice) }
        // Unknown to this version, or missing what it needs: left alone.
        #expect(LiveNotice.read(#"{"g":7,"f":"a","k":"later"}"#) == nil)
        #expect(LiveNotice.read(#"{"g":7,"f":"a","k":"kicked"}"#) == nil)
        // A word cloud's hide from a copy's host, and the owner's word of it: an older instance skips both.
        #expect(LiveNotice.read(#"{"g":7,"f":"a","k":"command","c":"hide","i":2,"w":"tea"}"#)?.notice == .command(.hide(question: 2, key: "tea")))
        #expect(LiveNotice.read(#"{"g":7,"f":"a","k":"hidden","i":2}"#) == nil)
    }

    @Test func aNoticeIsWrittenWithTheKeysOlderInstancesRead() throws {
        let text = try #require(LiveNotice.progress(index: 1, answered: 5, players: 9).payload(gameId: 7, sender: "a"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["g", "f", "k", "i", "a", "n"])
        #expect(object["k"] as? String == "progress" && object["g"] as? Int == 7 && object["n"] as? Int == 9)
    }
}

/// Across instances (PostgreSQL): the instance that hosts a game owns it, another reads a copy, and
/// an owner that finds it lost the game becomes a copy.
@Suite(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
struct LiveRoleAcrossInstancesTests {
    private func instance(_ name: String, _ env: UseCaseEnvironment) -> LiveGames {
        LiveGames(store: env.store, catalog: env.store, time: env.time, joins: RateLimiter(limit: 120, window: 60, time: env.time), key: env.choiceKey,
                  cluster: .init(instance: name, store: env.store, uptime: { 0 }))
    }

    /// Instances A and B on one database, and a game hosted on A.
    private func withGameOnA(_ body: (UseCaseEnvironment, LiveGames, LiveGames, LiveGameRecord, User) async throws -> Void) async throws {
        try await withPostgresUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let (a, b) = (instance("a", env), instance("b", env))
            let game = try await a.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            try await body(env, a, b, game, host)
        }
    }

    @Test func theHostsInstanceOwnsTheGameAnotherHoldsACopyAndATakeOverSwapsThem() async throws {
        try await withGameOnA { env, a, b, game, _ in
            _ = try await b.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            #expect(a.context.rooms.room(id: game.id)?.holding == .owner)
            #expect(b.context.rooms.room(id: game.id)?.holding == .copy)

            try await env.store.releaseLiveLeases(owner: "a")
            await b.maintainLeases()
            #expect(b.context.rooms.room(id: game.id)?.holding == .owner)
            await a.maintainLeases()  // its renewal finds the game gone to b
            #expect(a.context.rooms.room(id: game.id)?.holding == .copy)
        }
    }

    @Test func anOwnerThatFindsItLostTheGameStoresTheAnswerItTookAsACopyDoes() async throws {
        try await withGameOnA { env, a, b, game, host in
            let ann = try await a.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1").player
            _ = try await a.join(pin: game.pin, nickname: "Bob", user: nil, team: nil, address: "192.0.2.2")
            try await a.command(.start, gameId: game.id, userId: host.id)
            try await env.store.releaseLiveLeases(owner: "a")
            await b.maintainLeases()

            // A still trusts its lease: its answer log finds the game gone, so A holds a copy from
            // then on and stores Ann's answer checked against the question, still open there.
            let taken = try await a.answer(.choice(try await env.shown(2, ofQuestion: game.questionIds[0])), question: 0, playerId: ann.id, gameId: game.id)
            #expect(a.context.rooms.room(id: game.id)?.holding == .copy)
            #expect(try await env.store.liveAnswers(gameId: game.id).map(\.answer) == [taken])

            // B ends the question and counts it.
            try await b.command(.close, gameId: game.id, userId: host.id)
            let result = b.catchUp(gameId: game.id, audience: .player(ann.id)).compactMap { event -> LivePlayerResult? in
                if case .result(let result) = event { result } else { nil }
            }
            #expect(result.map(\.score) == [taken.points + taken.bonus])
        }
    }

    /// While no instance owns a game (its owner died, its lease not yet taken), no clock ends the
    /// question: an answer after the deadline is refused as on one instance, not kept as late.
    @Test func aCopyRefusesAnAnswerPastTheDeadlineWhileNoInstanceRunsTheGame() async throws {
        try await withGameOnA { env, a, b, game, host in
            let ann = try await a.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1").player
            try await a.command(.start, gameId: game.id, userId: host.id)
            await b.loadRoom(id: game.id)  // Ann's phone reconnects through B, which reads a copy
            // A is gone: nothing ends the question, and nobody has taken the game yet.
            env.time.advance(by: TimeInterval(LiveSettings().secondsPerQuestion) + 1)
            let choice = try await env.shown(2, ofQuestion: game.questionIds[0])
            await #expect(throws: LiveGames.Failure.game(.notOpen)) {
                try await b.answer(.choice(choice), question: 0, playerId: ann.id, gameId: game.id)
            }
            #expect(try await env.store.liveAnswers(gameId: game.id).isEmpty)
        }
    }

    /// A host's command on an instance holding a copy goes to the owner; with no owner (the
    /// seconds after it died) nobody would run it, so the host hears "try again".
    @Test func aCommandOnACopyWhileNoInstanceOwnsTheGameIsToldToTryAgain() async throws {
        try await withGameOnA { env, _, b, game, host in
            _ = try await b.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            try await b.command(.lock(true), gameId: game.id, userId: host.id)
            try await env.store.releaseLiveLeases(owner: "a")
            await #expect(throws: LiveGames.Failure.game(.notNow)) {
                try await b.command(.start, gameId: game.id, userId: host.id)
            }
        }
    }
}
