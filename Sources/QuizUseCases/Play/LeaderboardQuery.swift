import Foundation
import QuizCore
import QuizStore

/// The leaderboard as a player sees it: the top players, themselves, and the row under the list.
package struct LeaderboardQuery: Sendable {
    let store: any LeaderboardStore

    package init(store: any LeaderboardStore) {
        self.store = store
    }

    package static var defaultLimit: Int { 3 }
    package static var limits: ClosedRange<Int> { 1...100 }

    package func callAsFunction(userId: Int64, limit: Int = defaultLimit) async throws -> Leaderboard {
        try await store.leaderboard(userId: userId, limit: min(max(limit, Self.limits.lowerBound), Self.limits.upperBound))
    }
}
