import Foundation
import QuizCore
import QuizStore

/// "Name them all" games: the questions to play, starting a game, its state, guessing, giving up.
/// A game whose time ran out is ended, with its points added, by whichever call notices first.
package struct NameAllGames: Sendable {
    package enum Failure: Error, Equatable {
        /// No name-them-all question with that id.
        case questionNotFound
        /// No such game, or someone else's.
        case gameNotFound
        case tooManyGuesses
    }

    package typealias Storage = GameStore
    let store: any Storage
    let time: any TimeSource
    let games: GameTable
    let guessLimiter: RateLimiter

    package init(store: any Storage, time: any TimeSource, games: GameTable, guessLimiter: RateLimiter) {
        self.store = store
        self.time = time
        self.games = games
        self.guessLimiter = guessLimiter
    }

    package static var grace: TimeInterval { NameAllGame.defaultGrace }
    package static var guessesPerSecond: Int { 15 }

    /// A name-them-all question to start a game of.
    package struct Choice: Sendable {
        package var id: Int64
        package var text: String
        package var topicName: String
        package var itemCount: Int
        package var timeLimitSeconds: Int
    }

    package func choices() async throws -> [Choice] {
        try await store.nameAllQuestions().compactMap { entry in
            guard case .nameAll(let items, let limit, _) = entry.question.body, let id = entry.question.id else { return nil }
            return Choice(id: id, text: entry.question.text, topicName: entry.topicName, itemCount: items.count,
                          timeLimitSeconds: limit > 0 ? limit : NameAllGame.defaultTimeLimitSeconds)
        }
    }

    /// A game as of `at`, the moment the call read it.
    package struct Played: Sendable {
        package var id: Int64
        package var game: NameAllGame
        package var at: Date

        package var state: NameAllGame.State { game.state(at: at) }
        package var isFinished: Bool { state != .playing }
        package var result: NameAllGame.Result { game.result(at: at) }
    }

    package func start(questionId: Int64, userId: Int64) async throws -> Played {
        let stored: StoredGame
        do {
            stored = try await store.startGame(userId: userId, questionId: questionId, at: time.now())
        } catch StoreError.notFound {
            throw Failure.questionNotFound
        }
        let game = try NameAllGame(question: stored.question, startedAt: stored.startedAt, grace: Self.grace)
        games.put(stored.id, GameTable.Entry(userId: userId, game: game, storedAsEnded: false))
        return Played(id: stored.id, game: game, at: time.now())
    }

    /// The game as of now; a game whose time ran out is ended here.
    package func game(id: Int64, userId: Int64) async throws -> Played {
        var entry = try await load(id: id, userId: userId)
        try await settle(id: id, &entry)
        return Played(id: id, game: entry.game, at: time.now())
    }

    package struct Guessed: Sendable {
        package var verdict: NameAllGame.Verdict
        package var played: Played
    }

    /// The hot path of games: with the game in memory, one limiter count and, for a find, one write.
    package func guess(_ text: String, gameId id: Int64, userId: Int64) async throws -> Guessed {
        guard try await guessLimiter.allow(keys: ["guess:\(userId)"]) else { throw Failure.tooManyGuesses }
        _ = try await load(id: id, userId: userId)
        let now = time.now()
        // The guess changes the shared copy under its lock, so two guesses at once both count.
        guard let (judged, updated) = games.update(id, { entry in entry.game.guess(text, at: now) }) else { throw Failure.gameNotFound }
        var entry = updated
        var verdict = judged
        if case .found(let item) = verdict {
            do {
                // Another instance may have stored the same item a moment ago: the row decides.
                if try await !store.recordFind(gameId: id, item: item, at: now) { verdict = .alreadyFound(item: item) }
            } catch {
                games.remove(id)  // the next request reloads what was stored
                throw error
            }
        }
        try await settle(id: id, &entry)
        return Guessed(verdict: verdict, played: Played(id: id, game: entry.game, at: time.now()))
    }

    package func giveUp(gameId id: Int64, userId: Int64) async throws -> Played {
        _ = try await load(id: id, userId: userId)
        let now = time.now()
        guard let (_, updated) = games.update(id, { entry in entry.game.giveUp(at: now) }) else { throw Failure.gameNotFound }
        var entry = updated
        try await settle(id: id, &entry)
        return Played(id: id, game: entry.game, at: time.now())
    }

    private func load(id: Int64, userId: Int64) async throws -> GameTable.Entry {
        if !games.rereads, let entry = games.get(id) {
            guard entry.userId == userId else { throw Failure.gameNotFound }
            return entry
        }
        guard let stored = try await store.game(id: id), stored.userId == userId else { throw Failure.gameNotFound }
        var ended: (reason: NameAllGame.EndReason, at: Date)? = nil
        if let reason = stored.endReason, let at = stored.endedAt { ended = (reason, at) }
        let game = try NameAllGame(question: stored.question, startedAt: stored.startedAt, found: stored.found, ended: ended, grace: Self.grace)
        let entry = GameTable.Entry(userId: userId, game: game, storedAsEnded: stored.endedAt != nil)
        games.put(id, entry)
        return entry
    }

    /// Stores the end of a game once, with its points.
    private func settle(id: Int64, _ entry: inout GameTable.Entry) async throws {
        let now = time.now()
        guard !entry.storedAsEnded, case .finished(let reason) = entry.game.state(at: now) else { return }
        let result = entry.game.result(at: now)
        let endedAt = entry.game.startedAt.addingTimeInterval(result.secondsUsed)
        _ = try await store.endGame(id: id, reason: reason, at: endedAt, points: result.points)
        entry.storedAsEnded = true
        games.markStoredAsEnded(id)
    }
}
