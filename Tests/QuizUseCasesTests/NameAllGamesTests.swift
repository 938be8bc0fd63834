import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Name-them-all games on the use case: finds, repeats, the limit on guesses and the end.
@Suite struct NameAllGamesTests {
    @Test func findsCountOnceAndTheGameEndsWhenTimeIsUp() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let games = env.nameAllGames()
            #expect(try await games.choices().map(\.itemCount) == [8])
            let game = try await games.start(questionId: bank.planetsId, userId: ada.id)
            #expect(try await games.guess("mars", gameId: game.id, userId: ada.id).verdict == .found(item: 3))
            #expect(try await games.guess("Mars!", gameId: game.id, userId: ada.id).verdict == .alreadyFound(item: 3))
            #expect(try await games.guess("Pluto", gameId: game.id, userId: ada.id).verdict == .notAnItem)
            env.time.advance(by: 120 + NameAllGames.grace + 1)
            let late = try await games.guess("Venus", gameId: game.id, userId: ada.id)
            #expect(late.verdict == .tooLate)
            #expect(late.played.isFinished)
            #expect(late.played.state == .finished(.timeUp))
            #expect(try await games.guess("Venus", gameId: game.id, userId: ada.id).verdict == .tooLate)
            // The end was stored with its point, once.
            #expect(try await env.store.user(id: ada.id)?.points == 1)
            let stored = try #require(try await env.store.game(id: game.id))
            #expect(stored.endReason == .timeUp && stored.found == [3])
        }
    }

    @Test func aGameIsItsPlayersAndGuessesAreLimited() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let bob = try await env.register("bob")
            let games = env.nameAllGames(guessesPerSecond: 2)
            await #expect(throws: NameAllGames.Failure.questionNotFound) { try await games.start(questionId: bank.id(0), userId: ada.id) }
            let game = try await games.start(questionId: bank.planetsId, userId: ada.id)
            await #expect(throws: NameAllGames.Failure.gameNotFound) { try await games.guess("Mars", gameId: game.id, userId: bob.id) }
            await #expect(throws: NameAllGames.Failure.gameNotFound) { try await games.game(id: game.id + 1, userId: ada.id) }
            _ = try await games.guess("Mars", gameId: game.id, userId: ada.id)
            _ = try await games.guess("Venus", gameId: game.id, userId: ada.id)
            await #expect(throws: NameAllGames.Failure.tooManyGuesses) { try await games.guess("Earth", gameId: game.id, userId: ada.id) }
            env.time.advance(by: 1)
            #expect(try await games.guess("Earth", gameId: game.id, userId: ada.id).verdict == .found(item: 2))
        }
    }

    @Test func givingUpEndsTheGameAndAnotherTableReadsItFromTheStore() async throws {
        try await withUseCases { env in
            let bank = try await env.loadPlayBank()
            let ada = try await env.register("ada")
            let game = try await env.nameAllGames().start(questionId: bank.planetsId, userId: ada.id)
            _ = try await env.nameAllGames().guess("Neptune", gameId: game.id, userId: ada.id)
            env.time.advance(by: 30)
            let ended = try await env.nameAllGames().giveUp(gameId: game.id, userId: ada.id)
            #expect(ended.state == .finished(.gaveUp))
            #expect(ended.result.points == 1)
            #expect(try await env.nameAllGames().guess("Mars", gameId: game.id, userId: ada.id).verdict == .gameOver)
            let read = try await env.nameAllGames().game(id: game.id, userId: ada.id)
            #expect(read.isFinished && read.result.found.map(\.answer) == ["Neptune"])
        }
    }
}
