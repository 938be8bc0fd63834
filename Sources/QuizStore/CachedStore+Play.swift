import Foundation
import QuizCore

extension CachedStore: AttemptStore {
    public func startAttempt(userId: Int64, quizId: Int64, at date: Date) async throws -> Attempt {
        let attempt = try await sql.startAttempt(userId: userId, quizId: quizId, at: date)
        // Whose it is and which quiz it plays never change: its answers need not read them.
        caches.attemptQuizzes.insert(SQLStore.AttemptOwner(userId: attempt.userId, quizId: attempt.quizId), for: attempt.id)
        return attempt
    }

    public func attempt(id: Int64, userId: Int64) async throws -> Attempt? {
        try await refreshCaches()
        let attempt = try await caches.attempts.value(for: id) { [sql] in try await sql.anyonesAttempt(id: id) }
        return attempt?.userId == userId ? attempt : nil
    }

    public func unfinishedAttempt(userId: Int64, quizId: Int64) async throws -> Attempt? {
        try await sql.unfinishedAttempt(userId: userId, quizId: quizId)
    }

    public func history(userId: Int64, since date: Date, limit: Int) async throws -> [HistoryItem] {
        try await sql.history(userId: userId, since: date, limit: limit)
    }

    /// Never refreshed: who owns an attempt and which quiz it plays never change.
    public func attemptQuiz(id: Int64, userId: Int64) async throws -> Int64? {
        try await caches.attemptQuizzes.value(for: id) { [sql] in try await sql.attemptOwner(id: id) }?
            .quizId(ifOwnedBy: userId)
    }

    public func recordAnswer(
        attemptId: Int64, questionId: Int64, answer: String, isCorrect: Bool, points: Int, at date: Date
    ) async throws -> Bool {
        // Dropped even when the answer is refused: a refusal means the cached attempt was stale.
        // Other instances are told by the batch that stored it (see `init`).
        defer { caches.attempts.remove(attemptId) }
        return try await sql.recordAnswer(
            attemptId: attemptId, questionId: questionId, answer: answer, isCorrect: isCorrect, points: points, at: date)
    }

    public func score(attemptId: Int64, userId: Int64) async throws -> AttemptScore? {
        try await sql.score(attemptId: attemptId, userId: userId)
    }

    public func answerCounts(questionId: Int64, limit: Int) async throws -> [(answer: String, count: Int)] {
        try await sql.answerCounts(questionId: questionId, limit: limit)
    }

    public func finishAttempt(id: Int64, userId: Int64, at date: Date) async throws -> AttemptScore {
        let score = try await sql.finishAttempt(id: id, userId: userId, at: date)
        // After the commit, so no reader can cache the totals from before it.
        caches.attempts.remove(id)
        if score.newlyFinished {
            try await caches.tracker?.publish(.play)
            try await totalChanged(userId: userId)
        }
        return score
    }
}

extension CachedStore: LeaderboardStore {
    func distribution() async throws -> PointsDistribution {
        try await refreshCaches()
        return try await caches.distribution.value(for: 0) { [sql] in try await sql.pointsDistribution() }
            ?? PointsDistribution(buckets: [])
    }

    public func rank(points: Int64) async throws -> Int64 {
        // Without caching, one aggregate over the buckets beats reading all of them.
        if caches.lifetime == 0 { return try await sql.rank(points: points) }
        return try await distribution().rank(points: points)
    }

    /// The caller's points are read fresh; the ends of the board and the distribution they are
    /// ranked against come from a snapshot that this process refreshes whenever a total changes.
    public func leaderboard(userId: Int64, limit: Int) async throws -> Leaderboard {
        if caches.lifetime == 0 { return try await sql.leaderboard(userId: userId, limit: limit) }
        guard let user = try await user(id: userId) else { throw StoreError.notFound }
        let distribution = try await distribution()
        try await refreshCaches()
        let ends = try await caches.leaderboardEnds.value(for: limit) { [sql] in try await sql.leaderboardEnds(limit: limit) }
            ?? LeaderboardEnds(top: [], last: nil)
        return ends.board(for: user, ranked: distribution)
    }
}

extension CachedStore: PracticeStore {
    public func practiceCandidates() async throws -> [PracticeCandidate] {
        try await refreshCaches()
        return try await caches.practiceCandidates.value(for: 0) { [sql] in try await sql.practiceCandidates() } ?? []
    }

    public func question(id: Int64) async throws -> Question? {
        try await refreshCaches()
        return try await caches.questions.value(for: id) { [sql] in try await sql.question(id: id) }
    }

    public func practiceSettings(userId: Int64) async throws -> PracticeSettings? {
        try await sql.practiceSettings(userId: userId)
    }

    public func seenQuestions(userId: Int64) async throws -> Set<Int64> {
        try await sql.seenQuestions(userId: userId)
    }

    public func forgetSeenQuestions(userId: Int64) async throws {
        try await sql.forgetSeenQuestions(userId: userId)
    }

    public func startPractice(userId: Int64, settings: PracticeSettings, title: String, questionIds: [Int64], at date: Date) async throws -> Attempt {
        try await sql.startPractice(userId: userId, settings: settings, title: title, questionIds: questionIds, at: date)
    }

    public func markShown(attemptId: Int64, questionId: Int64, at date: Date) async throws -> Date {
        try await sql.markShown(attemptId: attemptId, questionId: questionId, at: date)
    }

    public func shownAt(attemptId: Int64, questionId: Int64) async throws -> Date? {
        try await sql.shownAt(attemptId: attemptId, questionId: questionId)
    }

    public func shownQuestions(attemptId: Int64) async throws -> Set<Int64> {
        try await sql.shownQuestions(attemptId: attemptId)
    }

    public func startClocks(userId: Int64, questionId: Int64, at date: Date) async throws {
        try await sql.startClocks(userId: userId, questionId: questionId, at: date)
    }

    public func recordSingleAnswer(userId: Int64, questionId: Int64, answer: String, isCorrect: Bool, points: Int, at date: Date) async throws -> SingleAnswer {
        let stored = try await sql.recordSingleAnswer(userId: userId, questionId: questionId, answer: answer, isCorrect: isCorrect,
                                                      points: points, at: date)
        if stored.pointsAwarded != 0 { try await totalChanged(userId: userId) }
        return stored
    }

    public func singleAnswer(id: Int64, userId: Int64) async throws -> SingleAnswer? {
        try await sql.singleAnswer(id: id, userId: userId)
    }
}

extension CachedStore: GameStore {
    public func nameAllQuestions() async throws -> [(question: Question, topicName: String)] {
        try await sql.nameAllQuestions()
    }

    /// The question comes from the cache.
    public func startGame(userId: Int64, questionId: Int64, at date: Date) async throws -> StoredGame {
        try await sql.startGame(userId: userId, questionId: questionId, at: date, question: question(id:))
    }

    /// The question comes from the cache.
    public func game(id: Int64) async throws -> StoredGame? {
        try await sql.game(id: id, question: question(id:))
    }

    public func recordFind(gameId: Int64, item: Int, at date: Date) async throws -> Bool {
        try await sql.recordFind(gameId: gameId, item: item, at: date)
    }

    public func endGame(id: Int64, reason: NameAllGame.EndReason, at date: Date, points: Int) async throws -> Bool {
        let player = try await sql.endGameReturningPlayer(id: id, reason: reason, at: date, points: points)
        if let player, points != 0 { try await totalChanged(userId: player) }
        return player != nil
    }
}
