import Foundation
import QuizCore
import QuizStore

/// A person's feed: their posts and those of the people they follow, newest first, with a news
/// card after every tenth post, a page at a time from the cursor the page before handed out.
package struct Feed: Sendable {
    package enum Failure: Error, Equatable {
        /// Not a cursor this server handed out.
        case invalidCursor

    }

    let store: any SocialStore

    package init(store: any SocialStore) {
        self.store = store
    }

    /// Posts on a page of the feed or of someone's posts, unless a client asks for another number.
    package static var pageSize: Int { 20 }

    /// The page after `cursor` (the first page without one).
    package func page(userId: Int64, cursor: String?, limit: Int = Feed.pageSize) async throws -> FeedPage {
        try await store.feed(userId: userId, after: try Self.cursor(cursor), limit: limit)
    }

    /// The cursor a client sent back; nil (the first page) for none or an empty one.
    package static func cursor(_ token: String?) throws(Failure) -> FeedCursor? {
        guard let token, !token.isEmpty else { return nil }
        guard let cursor = FeedCursor(token: token) else { throw .invalidCursor }
        return cursor
    }
}
