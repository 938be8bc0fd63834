import Foundation
import QuizCore
import QuizStore

/// Following and unfollowing someone by username (any case).
package struct Following: Sendable {
    package enum Failure: Error, Equatable {
        case noSuchUser(String)
        /// One's own posts are always in one's feed.
        case cannotFollowSelf
        case tooManyFollows(limit: Int)
    }

    let store: any SocialStore
    let time: any TimeSource

    package init(store: any SocialStore, time: any TimeSource) {
        self.store = store
        self.time = time
    }

    /// Follows `username`; following twice changes nothing. Returns their profile with the new counts.
    package func follow(_ username: String, viewerId: Int64) async throws -> SocialProfile {
        try await change(username, viewerId: viewerId) { try await store.follow(followerId: viewerId, followeeId: $0, at: time.now()) }
    }

    /// Unfollows `username`; not following them is no error. Returns their profile with the new counts.
    package func unfollow(_ username: String, viewerId: Int64) async throws -> SocialProfile {
        try await change(username, viewerId: viewerId) { try await store.unfollow(followerId: viewerId, followeeId: $0) }
    }

    private func change(_ username: String, viewerId: Int64, _ body: (Int64) async throws -> Void) async throws -> SocialProfile {
        guard let target = try await store.socialProfile(username: username, viewerId: viewerId) else { throw Failure.noSuchUser(username) }
        do {
            try await body(target.userId)
        } catch SocialError.cannotFollowSelf {
            throw Failure.cannotFollowSelf
        } catch SocialError.tooManyFollows(let limit) {
            throw Failure.tooManyFollows(limit: limit)
        } catch StoreError.notFound {
            throw Failure.noSuchUser(username)  // deleted meanwhile
        }
        guard let profile = try await store.socialProfile(username: username, viewerId: viewerId) else { throw Failure.noSuchUser(username) }
        return profile
    }
}
