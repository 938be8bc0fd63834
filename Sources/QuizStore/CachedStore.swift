import Foundation
import QuizCore
import Synchronization

/// The store the server uses: an `SQLStore` with read caches in front of its hot reads.
///
/// Cached: quizzes and their questions, single questions, practice candidates, sessions, users,
/// attempts with their answers (and, for a day, who owns an attempt), the points distribution, the
/// ends of the leaderboard and feed pages: what nearly every request reads. An entry lives for the
/// cache lifetime; a write through this store drops what it changed once committed, so this
/// process is exact, and on PostgreSQL tells the other instances too (`ChangeTracker`), so they
/// are exact as well. Only changes made around it (SQL by hand, a bare `SQLStore`) wait for the
/// lifetime.
///
/// Why a decorator: caching and change tracking wrap the SQL instead of living in it, so each
/// `SQLStore+*.swift` file reads as SQL and the same SQL runs cached here or uncached on its own.
/// Whatever is not cached is forwarded as it is.
public final class CachedStore: Sendable {
    /// The SQL underneath, for what is never cached (rate limits). A write made through it
    /// directly drops nothing from these caches, and only answers tell other instances.
    public let sql: SQLStore
    let caches: Caches

    /// - Parameter lifetime: how long catalog reads and sessions are served from memory; 0 turns
    ///   caching off. Changes made through this store are seen at once regardless. On PostgreSQL,
    ///   changes made through any `CachedStore` on the same database are seen at once too (see
    ///   `ChangeTracker`), and the lifetime only bounds how long a change made by hand in SQL may
    ///   stay unseen.
    /// - Parameter metrics: where each cache counts its hits and misses; nil counts nothing.
    public init(_ sql: SQLStore, lifetime: TimeInterval = 2, time: any TimeSource = SystemTimeSource(), metrics: StoreMetrics? = nil) {
        // Even a store that caches nothing tells the instances that do.
        let tracker = sql.database.dialect == .postgres ? ChangeTracker(database: sql.database) : nil
        caches = Caches(lifetime: lifetime, time: time, tracker: tracker, metrics: metrics)
        // One bump per batch of answers, after it committed and before any of them is answered.
        self.sql = tracker.map { tracker in sql.reportingAnswerBatches { try await tracker.publish(.play) } } ?? sql
    }

    public var database: QuizDatabase { sql.database }

    /// Runs one request: the caches it reads are checked against every instance's writes that
    /// answered before it started, with one read of the change counters shared by the requests
    /// that arrive together.
    public func serving<T>(_ request: () async throws -> T) async rethrows -> T {
        guard let tracker = caches.tracker, caches.lifetime > 0 else { return try await request() }
        return try await ChangeTracker.$requestTicket.withValue(tracker.ticket()) { try await request() }
    }

    /// Drops whatever another instance has changed since this one last looked (nothing to do
    /// without PostgreSQL or caching). Every cached read calls it first.
    func refreshCaches() async throws {
        guard let tracker = caches.tracker, caches.lifetime > 0 else { return }
        let changed = try await tracker.changed()
        if !changed.isEmpty { caches.invalidate(changed) }
    }

    /// Runs a write that changes `kinds`: this process's caches are dropped at once, other
    /// instances' caches when they next look, after the write committed. They are told even when
    /// the write failed, which costs them a reload at most.
    func changing<T>(_ kinds: ChangeKinds, _ write: () async throws -> T) async throws -> T {
        defer { caches.invalidate(kinds) }
        let result: T
        do {
            result = try await write()
        } catch {
            try? await caches.tracker?.publish(kinds)
            throw error
        }
        try await caches.tracker?.publish(kinds)
        return result
    }

    /// After a committed change of a user's total: this process drops what it ranked with, and
    /// other instances drop theirs when they next look.
    func totalChanged(userId: Int64) async throws {
        caches.invalidateRanking()
        caches.users.remove(userId)
        try await caches.tracker?.publish(.ranking)
    }

    /// After a user was added: everyone's rank may move, but no cached user changed (a missing one
    /// is never cached), so this process keeps its users; other instances drop theirs, since a
    /// ranking change from elsewhere does not say whose total moved.
    func userAdded() async throws {
        caches.invalidateRanking()
        try await caches.tracker?.publish(.ranking)
    }

    final class Caches: Sendable {
        let quizQuestions: ReadCache<Int64, [Question]>
        let quizzes: ReadCache<Int64, QuizSummary>
        let sessions: ReadCache<String, StoredSession>
        let users: ReadCache<Int64, User>
        /// Who owns an attempt and which quiz it plays never change, so they are kept for long.
        let attemptQuizzes: ReadCache<Int64, SQLStore.AttemptOwner>
        /// An attempt with its answers, the question page's one database read. Answers and
        /// finishing go through this store and drop the entry once committed.
        let attempts: ReadCache<Int64, Attempt>
        let distribution: ReadCache<Int, PointsDistribution>
        let practiceCandidates: ReadCache<Int, [PracticeCandidate]>
        let triviaQuestions: ReadCache<Int, [TriviaQuestion]>
        let questions: ReadCache<Int64, Question>
        let leaderboardEnds: ReadCache<Int, LeaderboardEnds>
        /// Feed pages; every post, follow and article written here drops them all.
        let feedPages: ReadCache<FeedPageKey, FeedPage>
        /// Assignments and their players by id, read by every question and answer of a player:
        /// a window moved or a secret replaced through this store drops them (`.play`), and on
        /// PostgreSQL other instances drop theirs when they next look.
        let assignments: ReadCache<Int64, Assignment>
        let assignmentPlayers: ReadCache<Int64, AssignmentPlayerRecord>
        /// A player's attempts, read by each of their questions and answers. Only starting and
        /// finishing change them (answers are rows of their own), both through this store, which
        /// drops the player's entry and tells other instances; kept longer than the catalog for that.
        let playerAttempts: ReadCache<Int64, [AssignmentAttemptRecord]>

        /// 0 when caching is off: reads go to the database.
        let lifetime: TimeInterval
        /// On PostgreSQL: tells this process what other instances changed.
        let tracker: ChangeTracker?

        init(lifetime: TimeInterval, time: any TimeSource, tracker: ChangeTracker?, metrics: StoreMetrics?) {
            self.lifetime = lifetime
            self.tracker = tracker
            func counters(_ name: String) -> CacheCounters? { metrics?.cache(name) }
            quizQuestions = ReadCache(lifetime: lifetime, time: time, maxEntries: 1_000, counters: counters("quiz_questions"))
            quizzes = ReadCache(lifetime: lifetime, time: time, counters: counters("quizzes"))
            sessions = ReadCache(lifetime: lifetime, time: time, maxEntries: 100_000, counters: counters("sessions"))
            users = ReadCache(lifetime: lifetime, time: time, maxEntries: 100_000, counters: counters("users"))
            attemptQuizzes = ReadCache(lifetime: lifetime > 0 ? 24 * 3600 : 0, time: time, maxEntries: 100_000, counters: counters("attempt_quizzes"))
            attempts = ReadCache(lifetime: lifetime, time: time, maxEntries: 100_000, counters: counters("attempts"))
            distribution = ReadCache(lifetime: lifetime, time: time, maxEntries: 1, counters: counters("distribution"))
            practiceCandidates = ReadCache(lifetime: lifetime, time: time, maxEntries: 1, counters: counters("practice_candidates"))
            triviaQuestions = ReadCache(lifetime: lifetime, time: time, maxEntries: 1, counters: counters("trivia_questions"))
            questions = ReadCache(lifetime: lifetime, time: time, maxEntries: 10_000, counters: counters("questions"))
            leaderboardEnds = ReadCache(lifetime: lifetime, time: time, maxEntries: 100, counters: counters("leaderboard_ends"))
            feedPages = ReadCache(lifetime: lifetime, time: time, maxEntries: 10_000, counters: counters("feed_pages"))
            assignments = ReadCache(lifetime: lifetime, time: time, maxEntries: 10_000, counters: counters("assignments"))
            assignmentPlayers = ReadCache(lifetime: lifetime, time: time, maxEntries: 100_000, counters: counters("assignment_players"))
            playerAttempts = ReadCache(lifetime: lifetime > 0 ? 30 : 0, time: time, maxEntries: 100_000, counters: counters("player_attempts"))
        }

        /// Someone's total changed or a user arrived: ranks and both ends may move.
        func invalidateRanking() {
            distribution.removeAll()
            leaderboardEnds.removeAll()
        }

        /// Bumped whenever this process changes the catalog, so caches above the store can tell.
        let catalogGeneration = Atomic<Int>(0)

        func invalidate(_ kinds: ChangeKinds) {
            if kinds.contains(.catalog) { invalidateCatalog() }
            if kinds.contains(.accounts) {
                sessions.removeAll()
                users.removeAll()
            }
            if kinds.contains(.ranking) {
                invalidateRanking()
                // Sessions carry a user's points too, but only as of the lookup: callers read `users` for them.
                users.removeAll()
            }
            if kinds.contains(.social) { feedPages.removeAll() }
            if kinds.contains(.play) {
                attempts.removeAll()
                assignments.removeAll()
                assignmentPlayers.removeAll()
                playerAttempts.removeAll()
            }
        }

        func invalidateCatalog() {
            catalogGeneration.add(1, ordering: .relaxed)
            quizQuestions.removeAll()
            quizzes.removeAll()
            practiceCandidates.removeAll()
            triviaQuestions.removeAll()
            questions.removeAll()
        }
    }

    /// Changes whenever this store changes the catalog.
    public var catalogGeneration: Int { caches.catalogGeneration.load(ordering: .relaxed) }

    /// `catalogGeneration` after dropping what other instances changed.
    public func currentCatalogGeneration() async throws -> Int {
        try await refreshCaches()
        return catalogGeneration
    }
}
