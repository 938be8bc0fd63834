import Foundation
import QuizCore
import QuizStore

/// Finding people by name, and a person's page: their profile as others see it and their posts,
/// a page at a time.
package struct People: Sendable {
    package enum Failure: Error, Equatable {
        case noSuchUser(String)
        case invalidCursor
        /// More to search for than anyone's name holds.
        case queryTooLong(maxCharacters: Int)
    }

    package struct Page: Sendable, Equatable {
        package var profile: SocialProfile
        package var posts: PostsPage
        /// The person looking is the person shown.
        package var isViewer: Bool
    }

    let store: any SocialStore

    package init(store: any SocialStore) {
        self.store = store
    }

    package static var maxQueryCharacters: Int { 100 }
    package static var searchResults: Int { 20 }

    /// `username`'s profile, seen by `viewerId`, and their posts after `cursor`.
    package func page(username: String, viewerId: Int64, cursor: String?) async throws -> Page {
        guard let profile = try await store.socialProfile(username: username, viewerId: viewerId) else { throw Failure.noSuchUser(username) }
        let after: FeedCursor?
        do { after = try Feed.cursor(cursor) } catch { throw Failure.invalidCursor }
        let posts = try await store.posts(userId: profile.userId, after: after, limit: Feed.pageSize)
        return Page(profile: profile, posts: posts, isViewer: profile.userId == viewerId)
    }

    /// People whose username or name contains `query` (trimmed), ignoring case; nil when there is
    /// nothing to search for.
    package func search(_ query: String, limit: Int = People.searchResults, viewerId: Int64? = nil) async throws -> [UserMatch]? {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= Self.maxQueryCharacters else { throw Failure.queryTooLong(maxCharacters: Self.maxQueryCharacters) }
        guard !trimmed.isEmpty else { return nil }
        return try await store.searchUsers(trimmed, limit: limit, viewerId: viewerId)
    }
}
