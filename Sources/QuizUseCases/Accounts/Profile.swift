import Foundation
import QuizCore
import QuizStore
import QuizText

/// What a signed-in person sees of themselves: their account, points, rank and quizzes finished.
package struct Profile: Sendable {
    package struct Me: Sendable, Equatable {
        package var user: User
        package var rank: Int64
        package var quizzesFinished: Int
    }

    package enum Failure: Error, Equatable {
        /// The account was deleted while its session lived.
        case accountGone
    }

    /// The profile page: the account, whether it has a password, the providers linked to it and
    /// the articles its owner read.
    package struct Overview: Sendable {
        package var me: Me
        package var hasPassword: Bool
        package var identities: [ExternalIdentity]
        package var articlesRead: [ReadArticle]
        /// Live games they played, newest first, with their score and rank in each.
        package var liveGames: [LiveGameSummary]
    }

    package typealias Storage = UserStore & LeaderboardStore & ArticleStore & ExternalIdentityStore
    let store: any Storage
    let liveGames: (any LiveGameStore)?

    package init(store: any Storage, liveGames: (any LiveGameStore)? = nil) {
        self.store = store
        self.liveGames = liveGames
    }

    /// Remembers the language a user chose for pages, on every device they use.
    package func setLanguage(_ language: Language, userId: Int64) async throws {
        try await store.setLanguage(language.rawValue, userId: userId)
    }

    /// Read afresh: the session's copy of the user may be a moment old, and points must be current.
    package func me(userId: Int64) async throws -> Me {
        guard let user = try await store.user(id: userId) else { throw Failure.accountGone }
        async let rank = store.rank(points: user.points)
        async let finished = store.quizzesFinished(userId: user.id)
        return Me(user: user, rank: try await rank, quizzesFinished: try await finished)
    }

    package func overview(userId: Int64) async throws -> Overview {
        // One after another: under load, child tasks for these small reads cost more than they
        // overlap (the page lost 12% to them; BENCHMARKS.md, session 6).
        guard let user = try await store.user(id: userId) else { throw Failure.accountGone }
        let me = Me(user: user, rank: try await store.rank(points: user.points),
                    quizzesFinished: try await store.quizzesFinished(userId: userId))
        return Overview(me: me, hasPassword: try await store.passwordHash(userId: userId) != nil,
                        identities: try await store.identities(userId: userId),
                        articlesRead: try await store.articlesRead(userId: userId, limit: 50),
                        liveGames: try await liveGames?.liveGamesPlayed(userId: userId, limit: 20) ?? [])
    }
}
