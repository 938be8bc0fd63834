import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Synchronization

/// The rules of play that the API and the pages share: time limits, practice rounds, questions
/// answered on their own, and "name them all" games.
struct Playing: Sendable {
    let store: Store
    let time: any TimeSource
    let games: GameTable
    let guessLimiter: RateLimiter

    /// Allowance for network latency after a time limit.
    static var grace: TimeInterval { NameAllGame.defaultGrace }
    static var guessesPerSecond: Int { 15 }
    static var tooManyGuesses: String { "Slow down: at most \(guessesPerSecond) guesses a second." }

    enum PlayError: Error, Equatable {
        /// A timed question must be fetched (which starts its clock) before it is answered.
        case notShown
        case notFound
        case tooManyGuesses
    }

    // MARK: Quiz questions with time limits

    enum Verdict: Equatable {
        case correct, wrong, alreadyAnswered, tooLate
    }

    /// Records an answer to a question of an attempt; over the quiz's time limit it scores 0.
    /// Throws `StoreError.attemptFinished` and `PlayError.notShown`.
    func answer(attemptId: Int64, quiz: QuizSummary, question: Question, given: String, isCorrect: Bool) async throws -> (verdict: Verdict, points: Int) {
        let now = time.now()
        var late = false
        if let limit = quiz.timeLimitSeconds, let id = question.id {
            guard let shown = try await store.shownAt(attemptId: attemptId, questionId: id) else { throw PlayError.notShown }
            late = now > shown.addingTimeInterval(TimeInterval(limit) + Self.grace)
        }
        let points = isCorrect && !late ? question.points : 0
        let recorded = try await store.recordAnswer(
            attemptId: attemptId, questionId: question.id ?? 0, answer: late ? Self.markLate(given) : given,
            isCorrect: isCorrect && !late, points: points, at: now)
        guard recorded else { return (.alreadyAnswered, 0) }
        return (late ? .tooLate : isCorrect ? .correct : .wrong, points)
    }

    /// Starts (or reads) the clock of a question; nil deadline when the quiz has no limit.
    func show(attemptId: Int64, quiz: QuizSummary, questionId: Int64) async throws -> (shownAt: Date, deadline: Date?) {
        guard let limit = quiz.timeLimitSeconds else { return (time.now(), nil) }
        let shown = try await store.markShown(attemptId: attemptId, questionId: questionId, at: time.now())
        return (shown, shown.addingTimeInterval(TimeInterval(limit)))
    }

    /// A late answer is stored with what was given, marked so pages can say why it scored nothing.
    static func markLate(_ given: String) -> String {
        given.hasPrefix("{") ? #"{"tooLate":true,"# + given.dropFirst() : #"{"tooLate":true}"#
    }

    static func isLate(_ given: String?) -> Bool { given?.hasPrefix(#"{"tooLate":true"#) == true }

    // MARK: Practice

    struct PracticeStart {
        var draw: PracticeDraw.Outcome
        /// Nil when nothing started: too few questions (and not accepted), pool used up, nothing matches.
        var attempt: Attempt?
    }

    func startPractice(userId: Int64, settings: PracticeSettings, acceptFewer: Bool) async throws -> PracticeStart {
        let candidates = try await store.practiceCandidates()
        let seen = try await store.seenQuestions(userId: userId)
        var generator = SystemRandomNumberGenerator()
        let draw = PracticeDraw.draw(from: candidates, settings: settings, seen: seen, using: &generator)
        switch draw.status {
        case .full, .fewerThanAsked where acceptFewer:
            let count = draw.questionIds.count
            let title = "Practice · \(count) question\(count == 1 ? "" : "s")"
            let attempt = try await store.startPractice(userId: userId, settings: settings, title: title,
                                                        questionIds: draw.questionIds, at: time.now())
            return PracticeStart(draw: draw, attempt: attempt)
        default:
            return PracticeStart(draw: draw, attempt: nil)
        }
    }

    // MARK: Questions on their own

    /// A random playable question, from the subject or topic when given.
    func randomQuestion(subjectId: Int64?, topicId: Int64?, shownTo userId: Int64) async throws -> Question? {
        let pool = try await store.practiceCandidates().filter {
            $0.kind != .nameAll && (subjectId == nil || $0.subjectId == subjectId) && (topicId == nil || $0.topicId == topicId)
        }
        guard let pick = pool.randomElement() else { return nil }
        return try await playableQuestion(id: pick.id, shownTo: userId)
    }

    /// A question that can be answered on its own (every kind but name-them-all). Showing it to
    /// `userId` starts its clock in any timed round of theirs that holds it, so a timed question's
    /// text is never read on its own before its time starts.
    func playableQuestion(id: Int64, shownTo userId: Int64?) async throws -> Question? {
        guard let question = try await store.question(id: id), question.kind != .nameAll else { return nil }
        if let userId { try await store.startClocks(userId: userId, questionId: id, at: time.now()) }
        return question
    }

    func answerAlone(userId: Int64, question: Question, given: String, isCorrect: Bool) async throws -> SingleAnswer {
        try await store.recordSingleAnswer(userId: userId, questionId: question.id ?? 0, answer: given, isCorrect: isCorrect,
                                           points: question.points, at: time.now())
    }

    // MARK: Name them all

    func startGame(userId: Int64, questionId: Int64) async throws -> (id: Int64, game: NameAllGame) {
        let stored: StoredGame
        do {
            stored = try await store.startGame(userId: userId, questionId: questionId, at: time.now())
        } catch StoreError.notFound {
            throw PlayError.notFound
        }
        let game = try NameAllGame(question: stored.question, startedAt: stored.startedAt, grace: Self.grace)
        games.put(stored.id, GameTable.Entry(userId: userId, game: game, storedAsEnded: false))
        return (stored.id, game)
    }

    /// The game as of now; a game whose time ran out is ended (and its points added) here.
    func game(id: Int64, userId: Int64) async throws -> NameAllGame {
        var entry = try await load(id: id, userId: userId)
        try await settle(id: id, &entry)
        return entry.game
    }

    func guess(id: Int64, userId: Int64, text: String) async throws -> (verdict: NameAllGame.Verdict, game: NameAllGame) {
        guard try await guessLimiter.allow(keys: ["guess:\(userId)"]) else { throw PlayError.tooManyGuesses }
        _ = try await load(id: id, userId: userId)
        let now = time.now()
        // The guess changes the shared copy under its lock, so two guesses at once both count.
        guard let (judged, updated) = games.update(id, { entry in entry.game.guess(text, at: now) }) else { throw PlayError.notFound }
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
        return (verdict, entry.game)
    }

    func giveUp(id: Int64, userId: Int64) async throws -> NameAllGame {
        _ = try await load(id: id, userId: userId)
        let now = time.now()
        guard let (_, updated) = games.update(id, { entry in entry.game.giveUp(at: now) }) else { throw PlayError.notFound }
        var entry = updated
        try await settle(id: id, &entry)
        return entry.game
    }

    private func load(id: Int64, userId: Int64) async throws -> GameTable.Entry {
        if !games.rereads, let entry = games.get(id) {
            guard entry.userId == userId else { throw PlayError.notFound }
            return entry
        }
        guard let stored = try await store.game(id: id), stored.userId == userId else { throw PlayError.notFound }
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

/// Games being played, kept in memory so a guess costs no database read; every find and every
/// end is written through at once. With `rereads` (instances sharing PostgreSQL, where another
/// may have found items or ended the game) each request loads the game from the database first.
final class GameTable: Sendable {
    struct Entry: Sendable {
        var userId: Int64
        var game: NameAllGame
        var storedAsEnded: Bool
    }

    let rereads: Bool
    private let entries = Mutex<[Int64: Entry]>([:])
    static let maxEntries = 50_000

    init(rereads: Bool = false) { self.rereads = rereads }

    func get(_ id: Int64) -> Entry? { entries.withLock { $0[id] } }

    func put(_ id: Int64, _ entry: Entry) {
        entries.withLock { entries in
            if entries.count >= Self.maxEntries { entries = entries.filter { !$0.value.storedAsEnded } }
            if entries.count >= Self.maxEntries { entries.removeAll() }
            entries[id] = entry
        }
    }

    func remove(_ id: Int64) { _ = entries.withLock { $0.removeValue(forKey: id) } }

    func markStoredAsEnded(_ id: Int64) { entries.withLock { $0[id]?.storedAsEnded = true } }

    /// Applies `change` to the entry under the lock and returns its result with the entry after it.
    func update<T: Sendable>(_ id: Int64, _ change: (inout Entry) -> T) -> (T, Entry)? {
        entries.withLock { entries in
            guard var entry = entries[id] else { return nil }
            let result = change(&entry)
            entries[id] = entry
            return (result, entry)
        }
    }
}
