import Foundation
import QuizCore
import SQLKit
import Synchronization

/// The one store implementation: SQL through SQLKit, for SQLite and PostgreSQL alike.
public struct SQLStore: Sendable {
    public let database: QuizDatabase
    let caches: Caches
    let answers: AnswerBatcher

    /// - Parameter cacheLifetime: how long catalog reads and sessions are served from memory;
    ///   0 turns caching off. Changes made through this store are seen at once regardless.
    public init(database: QuizDatabase, cacheLifetime: TimeInterval = 2, time: any TimeSource = SystemTimeSource()) {
        self.database = database
        self.caches = Caches(lifetime: cacheLifetime, time: time)
        self.answers = AnswerBatcher(database: database)
    }

    final class Caches: Sendable {
        let quizQuestions: ReadCache<Int64, [Question]>
        let quizzes: ReadCache<Int64, QuizSummary>
        let sessions: ReadCache<String, StoredSession>
        let users: ReadCache<Int64, User>
        /// Who owns an attempt and which quiz it plays never change, so they are kept for long.
        let attemptQuizzes: ReadCache<Int64, AttemptOwner>
        /// An attempt with its answers, the question page's one database read. Answers and
        /// finishing go through this store and drop the entry once committed.
        let attempts: ReadCache<Int64, Attempt>
        let distribution: ReadCache<Int, PointsDistribution>
        let practiceCandidates: ReadCache<Int, [PracticeCandidate]>
        let questions: ReadCache<Int64, Question>
        let leaderboardEnds: ReadCache<Int, LeaderboardEnds>
        /// Feed pages; every post, follow and article written here drops them all.
        let feedPages: ReadCache<FeedPageKey, FeedPage>

        /// 0 when caching is off (several instances on PostgreSQL): reads go to the database.
        let lifetime: TimeInterval

        init(lifetime: TimeInterval, time: any TimeSource) {
            self.lifetime = lifetime
            quizQuestions = ReadCache(lifetime: lifetime, time: time, maxEntries: 1_000)
            quizzes = ReadCache(lifetime: lifetime, time: time)
            sessions = ReadCache(lifetime: lifetime, time: time, maxEntries: 100_000)
            users = ReadCache(lifetime: lifetime, time: time, maxEntries: 100_000)
            attemptQuizzes = ReadCache(lifetime: lifetime > 0 ? 24 * 3600 : 0, time: time, maxEntries: 100_000)
            attempts = ReadCache(lifetime: lifetime, time: time, maxEntries: 100_000)
            distribution = ReadCache(lifetime: lifetime, time: time, maxEntries: 1)
            practiceCandidates = ReadCache(lifetime: lifetime, time: time, maxEntries: 1)
            questions = ReadCache(lifetime: lifetime, time: time, maxEntries: 10_000)
            leaderboardEnds = ReadCache(lifetime: lifetime, time: time, maxEntries: 100)
            feedPages = ReadCache(lifetime: lifetime, time: time, maxEntries: 10_000)
        }

        /// Someone's total changed or a user arrived: ranks and both ends may move.
        func invalidateRanking() {
            distribution.removeAll()
            leaderboardEnds.removeAll()
        }

        /// Bumped whenever this process changes the catalog, so caches above the store can tell.
        let catalogGeneration = Atomic<Int>(0)

        func invalidateCatalog() {
            catalogGeneration.add(1, ordering: .relaxed)
            quizQuestions.removeAll()
            quizzes.removeAll()
            practiceCandidates.removeAll()
            questions.removeAll()
        }
    }

    /// Changes whenever this store changes the catalog.
    public var catalogGeneration: Int { caches.catalogGeneration.load(ordering: .relaxed) }

    struct AttemptOwner: Sendable {
        var userId: Int64
        var quizId: Int64
    }
}

extension SQLRow {
    func int64(_ column: String) throws -> Int64 { try decode(column: column, as: Int64.self) }
    func int(_ column: String) throws -> Int { try decode(column: column, as: Int.self) }
    func string(_ column: String) throws -> String { try decode(column: column, as: String.self) }
    func date(_ column: String) throws -> Date { Date(millis: try int64(column)) }
    func optionalDate(_ column: String) throws -> Date? {
        try decode(column: column, as: Int64?.self).map(Date.init(millis:))
    }
    func bool(_ column: String) throws -> Bool {
        // SQLite has no boolean type: it stores 0/1 integers.
        if let value = try? decode(column: column, as: Bool.self) { return value }
        return try int(column) != 0
    }
}
