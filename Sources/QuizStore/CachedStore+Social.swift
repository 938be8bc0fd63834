import Foundation
import QuizCore

struct FeedPageKey: Hashable, Sendable {
    var userId: Int64
    var cursor: FeedCursor?
    var limit: Int
}

extension CachedStore: SocialStore {
    public func follow(followerId: Int64, followeeId: Int64, at date: Date) async throws -> Bool {
        // Refused before any write, so no one is told.
        try SQLStore.checkFollow(followerId: followerId, followeeId: followeeId)
        return try await changing(.social) { try await sql.follow(followerId: followerId, followeeId: followeeId, at: date) }
    }

    public func unfollow(followerId: Int64, followeeId: Int64) async throws -> Bool {
        try await changing(.social) { try await sql.unfollow(followerId: followerId, followeeId: followeeId) }
    }

    public func socialProfile(username: String, viewerId: Int64?) async throws -> SocialProfile? {
        try await sql.socialProfile(username: username, viewerId: viewerId)
    }

    public func searchUsers(_ query: String, limit: Int, viewerId: Int64?) async throws -> [UserMatch] {
        try await sql.searchUsers(query, limit: limit, viewerId: viewerId)
    }

    public func createPost(_ post: NewPost) async throws -> Post {
        // Refused before any write, so no one is told.
        let body = try SQLStore.postBody(post)
        return try await changing(.social) { try await sql.insertPost(post, body: body) }
    }

    @discardableResult
    public func deletePost(id: Int64, userId: Int64) async throws -> PostImageName? {
        try await changing(.social) { try await sql.deletePost(id: id, userId: userId) }
    }

    public func imageBytes(userId: Int64) async throws -> Int {
        try await sql.imageBytes(userId: userId)
    }

    public func post(id: Int64) async throws -> Post? {
        try await sql.post(id: id)
    }

    public func posts(userId: Int64, after cursor: FeedCursor?, limit: Int) async throws -> PostsPage {
        try await sql.posts(userId: userId, after: cursor, limit: limit)
    }

    /// A feed page, kept in the read cache until any post, follow or article changes through this
    /// store (or its lifetime ends, for changes made elsewhere; off on shared PostgreSQL).
    public func feed(userId: Int64, after cursor: FeedCursor?, limit: Int) async throws -> FeedPage {
        let limit = SQLStore.pageSize(limit)
        let key = FeedPageKey(userId: userId, cursor: cursor, limit: limit)
        try await refreshCaches()
        return try await caches.feedPages.value(for: key) { [sql] in
            try await sql.feed(userId: userId, after: cursor, limit: limit)
        } ?? FeedPage(items: [], next: nil)
    }
}

extension CachedStore: ArticleStore {
    public func createArticle(_ draft: ArticleDraft, by userId: Int64?, at date: Date) async throws -> Int64 {
        try await changing(.social) { try await sql.createArticle(draft, by: userId, at: date) }
    }

    public func updateArticle(id: Int64, _ draft: ArticleDraft) async throws {
        try await changing(.social) { try await sql.updateArticle(id: id, draft) }
    }

    public func deleteArticle(id: Int64) async throws {
        try await changing(.social) { try await sql.deleteArticle(id: id) }
    }

    public func article(id: Int64) async throws -> Article? {
        try await sql.article(id: id)
    }

    public func articles(offset: Int, limit: Int) async throws -> ArticlePage {
        try await sql.articles(offset: offset, limit: limit)
    }

    public func importArticles(_ drafts: [ArticleDraft], by userId: Int64?, at date: Date) async throws -> ArticleImportSummary {
        try await changing(.social) { try await sql.importArticles(drafts, by: userId, at: date) }
    }

    public func recordRead(userId: Int64, articleId: Int64, at date: Date) async throws -> Article {
        try await sql.recordRead(userId: userId, articleId: articleId, at: date)
    }

    public func articlesRead(userId: Int64, limit: Int) async throws -> [ReadArticle] {
        try await sql.articlesRead(userId: userId, limit: limit)
    }

    public func articleQuizzes() async throws -> [ArticleQuiz] {
        try await sql.articleQuizzes()
    }
}
