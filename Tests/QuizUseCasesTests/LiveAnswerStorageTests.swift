import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Synchronization
import Testing

/// The live store, with answer writes failing while `failing` is set (a full disk, a database away).
final class FlakyLiveStore: LiveGameStore {
    let base: any LiveGameStore
    let failing = Atomic<Bool>(false)

    init(_ base: any LiveGameStore) {
        self.base = base
    }

    struct Down: Error {}

    func saveLiveBatch(players: [LivePlayerRecord], answers: [LiveAnswerRecord]) async throws {
        if failing.load(ordering: .relaxed), !answers.isEmpty { throw Down() }
        try await base.saveLiveBatch(players: players, answers: answers)
    }

    func createLiveGame(_ game: LiveGameRecord) async throws -> Int64? { try await base.createLiveGame(game) }
    func saveLiveGame(_ game: LiveGameRecord) async throws { try await base.saveLiveGame(game) }
    func kickLivePlayer(gameId: Int64, playerId: Int) async throws { try await base.kickLivePlayer(gameId: gameId, playerId: playerId) }
    func replaceLiveSecret(gameId: Int64, playerId: Int, secretHash: String) async throws {
        try await base.replaceLiveSecret(gameId: gameId, playerId: playerId, secretHash: secretHash)
    }
    func liveGame(id: Int64) async throws -> LiveGameRecord? { try await base.liveGame(id: id) }
    func runningLiveGames() async throws -> [LiveGameRecord] { try await base.runningLiveGames() }
    func livePlayers(gameId: Int64) async throws -> [LivePlayerRecord] { try await base.livePlayers(gameId: gameId) }
    func liveAnswers(gameId: Int64) async throws -> [LiveAnswerRecord] { try await base.liveAnswers(gameId: gameId) }
    func liveGames(hostUserId: Int64, limit: Int) async throws -> [LiveGameSummary] { try await base.liveGames(hostUserId: hostUserId, limit: limit) }
    func liveGamesPlayed(userId: Int64, limit: Int) async throws -> [LiveGameSummary] { try await base.liveGamesPlayed(userId: userId, limit: limit) }
}

@Suite struct LiveAnswerStorageTests {
    @Test func anAnswerThatCannotBeStoredIsNotCountedAndMayBeGivenAgain() async throws {
        try await withUseCases { env in
            let fixture = try await env.loadPlayBank()
            let host = try await env.register("host")
            let store = FlakyLiveStore(env.store)
            let games = LiveGames(store: store, catalog: env.store, time: env.time, joins: RateLimiter(limit: 120, window: 60, time: env.time), key: env.choiceKey)
            let outbox = RecordingOutbox()
            games.deliver(to: outbox)
            let game = try await games.host(quizId: fixture.quiz.id, user: host, settings: LiveSettings())
            let ann = try await games.join(pin: game.pin, nickname: "Ann", user: nil, team: nil, address: "192.0.2.1")
            try await games.command(.start, gameId: game.id, userId: host.id)
            _ = outbox.drain()

            // Ann is the only player: had her answer counted, it would have ended the question.
            store.failing.store(true, ordering: .relaxed)
            await #expect(throws: LiveGames.Failure.game(.notNow)) {
                try await games.answer(.choice(env.shown(2, of: fixture.questions[0])), question: 0, playerId: ann.player.id, gameId: game.id)
            }
            #expect(!outbox.drain().contains("reveal"))

            // Stored the second time: counted once, and now the question ends.
            store.failing.store(false, ordering: .relaxed)
            let taken = try await games.answer(.choice(env.shown(2, of: fixture.questions[0])), question: 0, playerId: ann.player.id, gameId: game.id)
            #expect(outbox.drain().contains("reveal"))
            let stored = try await env.store.liveAnswers(gameId: game.id)
            #expect(stored.map(\.answer) == [taken])
            // The game in memory counted it once too (what the player is shown).
            let shown = games.catchUp(gameId: game.id, audience: .player(ann.player.id)).compactMap { event -> LivePlayerResult? in
                if case .result(let result) = event { result } else { nil }
            }
            #expect(shown.map(\.score) == [taken.points + taken.bonus])
        }
    }
}
