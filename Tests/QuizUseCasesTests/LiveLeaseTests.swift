import Foundation
import QuizCore
import QuizStore
import QuizTestSupport
import QuizUseCases
import Synchronization
import Testing

/// A clock that moves only when the test says (milliseconds), for how long a lease is trusted.
private final class Uptime: Sendable {
    private let now = Atomic<Int64>(0)
    var value: Int64 { now.load(ordering: .relaxed) }
    func advance(milliseconds: Int64) { now.add(milliseconds, ordering: .relaxed) }
}

/// Across instances one instance runs a game, on a lease it renews every second. One that stalls
/// (a long pause, the database out of reach) must not go on running a game another instance may
/// have taken: the two would tell their players different things.
@Suite(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
struct LiveLeaseTests {
    private func instance(_ name: String, _ env: UseCaseEnvironment, uptime: Uptime) -> (LiveGames, RecordingOutbox) {
        let games = LiveGames(store: env.store, catalog: env.store, time: env.time, joins: RateLimiter(limit: 120, window: 60, time: env.time), key: env.choiceKey,
                              cluster: .init(instance: name, store: env.store, uptime: { uptime.value }))
        let outbox = RecordingOutbox()
        games.deliver(to: outbox)
        return (games, outbox)
    }

    /// Two instances, A and B, on one database; a game hosted on A with Ann and Bob in it, started.
    private struct Started {
        let env: UseCaseEnvironment
        let a: LiveGames, outboxA: RecordingOutbox, clockA: Uptime
        let b: LiveGames
        let game: LiveGameRecord, host: User, ann: LivePlayer, bob: LivePlayer
    }

    private func withStartedGame(_ body: (Started) async throws -> Void) async throws {
        try await withPostgresUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let clockA = Uptime()
            let (a, outboxA) = instance("a", env, uptime: clockA)
            let (b, _) = instance("b", env, uptime: Uptime())
            let game = try await a.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            let ann = try await a.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            let bob = try await a.join(pin: game.pin, nickname: "Bob", user: nil, team: nil, address: "192.0.2.2")
            try await a.command(.start, gameId: game.id, userId: host.id)
            _ = outboxA.drain()
            try await body(Started(env: env, a: a, outboxA: outboxA, clockA: clockA, b: b, game: game, host: host,
                                   ann: ann.player, bob: bob.player))
        }
    }

    @Test func anOwnerWhoseLeaseIsOverdueStopsRunningTheGameAndOneThatLostItBecomesACopy() async throws {
        try await withStartedGame { started in
            let (env, a, outboxA, clockA, b, game, host) = (started.env, started.a, started.outboxA, started.clockA, started.b, started.game, started.host)
            let (ann, bob) = (started.ann, started.bob)

            // A goes four seconds without renewing its lease (its renewals stalled): it stops
            // running the game before the lease (five seconds) can run out for the others.
            clockA.advance(milliseconds: 4_000)
            await #expect(throws: LiveGames.Failure.game(.notNow)) { try await a.command(.close, gameId: game.id, userId: host.id) }
            // An answer it takes meanwhile is checked against the database, as on any other
            // instance: stored, acknowledged, and counted by whoever ends the question.
            let taken = try await a.answer(.choice(try await env.shown(2, ofQuestion: game.questionIds[0])), question: 0, playerId: ann.id, gameId: game.id)
            #expect(try await env.store.liveAnswers(gameId: game.id).map(\.answer) == [taken])
            // Its clock leaves the question to the lease's holder.
            env.time.advance(by: 120)
            await a.tick()
            #expect(!outboxA.drain().contains("reveal"))
            #expect(try await env.store.liveGame(id: game.id)?.phase == .question)

            // The renewal comes through: it runs the game again, and ends the question that is due.
            await a.maintainLeases()
            await a.tick()
            #expect(outboxA.drain().contains("reveal"))
            #expect(try await env.store.liveGame(id: game.id)?.phase == .reveal)
            try await a.command(.next, gameId: game.id, userId: host.id)  // the leaderboard
            try await a.command(.next, gameId: game.id, userId: host.id)
            let second = try await env.store.liveGame(id: game.id)
            #expect(second?.phase == .question && second?.index == 1)

            // Now A stalls longer: its lease runs out in the database and B takes the game.
            try await env.store.releaseLiveLeases(owner: "a")
            await b.maintainLeases()
            #expect(b.isRunning(gameId: game.id))
            // A, still trusting its last renewal, changes the game: the database refuses the state
            // of an instance that no longer holds the lease, and A becomes a copy of B's game.
            await #expect(throws: LiveGames.Failure.game(.notNow)) { try await a.command(.lock(true), gameId: game.id, userId: host.id) }
            #expect(try await env.store.liveGame(id: game.id)?.locked == false)
            try await a.command(.close, gameId: game.id, userId: host.id)  // passed on to the owner, not run here
            #expect(try await env.store.liveGame(id: game.id)?.phase == .question)
            // The game goes on from B; A checks answers against the database like any copy.
            try await b.command(.close, gameId: game.id, userId: host.id)
            #expect(try await env.store.liveGame(id: game.id)?.phase == .reveal)
            await #expect(throws: LiveGames.Failure.game(.notOpen)) {
                try await a.answer(.choice(try await env.shown(1, ofQuestion: game.questionIds[1])), question: 1, playerId: bob.id, gameId: game.id)
            }
        }
    }

    @Test func anEndThatAnInstanceNoLongerRunningTheGameTriesIsNeitherStoredNorTold() async throws {
        try await withStartedGame { started in
            let (env, a, outboxA, b, game, host) = (started.env, started.a, started.outboxA, started.b, started.game, started.host)
            try await a.command(.close, gameId: game.id, userId: host.id)
            try await env.store.releaseLiveLeases(owner: "a")
            await b.maintainLeases()
            _ = outboxA.drain()

            // An end would close every socket on A: refused by the database, it is not sent, and
            // the host is told to try again (which goes to B).
            await #expect(throws: LiveGames.Failure.game(.notNow)) { try await a.command(.end, gameId: game.id, userId: host.id) }
            #expect(!outboxA.drain().contains("ended"))
            #expect(try await env.store.liveGame(id: game.id)?.endedAt == nil)
            #expect(a.isRunning(gameId: game.id))
            try await b.command(.end, gameId: game.id, userId: host.id)
            #expect(try await env.store.liveGame(id: game.id)?.endedAt != nil)
        }
    }

    @Test func anAnswerTheOldOwnerTakesAfterTheNewOneEndedTheQuestionIsRefusedNotAcknowledged() async throws {
        try await withStartedGame { started in
            let (env, a, b, game, host, ann) = (started.env, started.a, started.b, started.game, started.host, started.ann)

            // B takes the game over and ends the question, counting what is stored: nothing.
            try await env.store.releaseLiveLeases(owner: "a")
            await b.maintainLeases()
            try await b.command(.close, gameId: game.id, userId: host.id)

            // A has not noticed yet and takes Ann's answer as the owner would: its group commit holds
            // the game's row and finds another owner, so the answer goes the copies' way and is
            // refused there. Acknowledged, it would have been stored and never counted.
            await #expect(throws: LiveGames.Failure.game(.notOpen)) {
                try await a.answer(.choice(try await env.shown(2, ofQuestion: game.questionIds[0])), question: 0, playerId: ann.id, gameId: game.id)
            }
            #expect(try await env.store.liveAnswers(gameId: game.id).isEmpty)
        }
    }
}
