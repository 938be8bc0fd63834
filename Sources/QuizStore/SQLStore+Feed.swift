import Foundation
import QuizCore
import SQLKit

extension SQLStore {
    /// How many posts a page of a feed or of someone's posts holds when `limit` are asked for.
    static func pageSize(_ limit: Int) -> Int { max(1, min(limit, 100)) }

    public func feed(userId: Int64, after cursor: FeedCursor?, limit: Int) async throws -> FeedPage {
        let limit = Self.pageSize(limit)
        return try await database.read { db in
            let anchor: Int64
            if let cursor {
                anchor = cursor.articleAnchor
            } else {
                anchor = try await db.raw("SELECT COALESCE(MAX(id), 0) AS n FROM articles").first()?.int64("n") ?? 0
            }
            let rows = try await feedPosts(db, userId: userId, before: cursor?.beforeId, limit: limit + 1)
            let posts = Array(rows.prefix(limit))
            let shown = cursor?.shown ?? 0
            // The cards this page holds: the k-th after the (10·k)-th post of the whole feed.
            let every = Self.postsPerNewsCard
            let firstCard = shown / every + 1
            let lastCard = (shown + posts.count) / every
            var cards: [NewsCard] = []
            if lastCard >= firstCard, anchor > 0 {
                cards = try await db.raw("""
                    SELECT id, title, summary, source_name, url, quiz_id, published_at FROM articles WHERE id <= \(bind: anchor)
                    ORDER BY published_at DESC, id DESC LIMIT \(bind: lastCard - firstCard + 1) OFFSET \(bind: firstCard - 1)
                    """).all().map {
                    NewsCard(articleId: try $0.int64("id"), title: try $0.string("title"), summary: try $0.string("summary"),
                             sourceName: try $0.string("source_name"), url: try $0.string("url"),
                             quizId: try $0.decode(column: "quiz_id", as: Int64?.self), publishedAt: try $0.date("published_at"))
                }
            }
            var items: [FeedItem] = []
            items.reserveCapacity(posts.count + cards.count)
            for (index, post) in posts.enumerated() {
                items.append(.post(post))
                let position = shown + index + 1
                if position % every == 0 {
                    let card = position / every - firstCard
                    if card < cards.count { items.append(.news(cards[card])) }
                }
            }
            let next = rows.count > limit ? posts.last.map { FeedCursor(beforeId: $0.id, shown: shown + posts.count, articleAnchor: anchor) } : nil
            return FeedPage(items: items, next: next)
        }
    }

    /// The newest `limit` posts below `before` by the user or anyone they follow.
    ///
    /// First the newest few thousand post ids are read backwards by primary key, keeping those whose
    /// author is followed (one primary-key probe of `follows` each): when the people followed post
    /// often, as in any lively feed, a page is found within a few hundred rows. When that window
    /// holds too few, the rest comes from each followee's own newest posts through `posts_by_user`
    /// (on PostgreSQL a LATERAL join: one index probe per followee, however old their posts are).
    func feedPosts(_ db: any SQLDatabase, userId: Int64, before: Int64?, limit: Int) async throws -> [Post] {
        let top: Int64
        if let before {
            top = before
        } else {
            top = (try await db.raw("SELECT COALESCE(MAX(id), 0) AS n FROM posts").first()?.int64("n") ?? 0) + 1
        }
        let floor = max(0, top - Self.feedScanWindow)
        // CROSS JOIN: SQLite then reads posts first, in id order, and stops at the limit.
        var posts = try await db.raw("""
            SELECT \(unsafeRaw: Self.postColumns) FROM posts p CROSS JOIN users u
            WHERE u.id = p.user_id AND p.id < \(bind: top) AND p.id >= \(bind: floor)
              AND (p.user_id = \(bind: userId)
                   OR EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(bind: userId) AND f.followee_id = p.user_id))
            ORDER BY p.id DESC LIMIT \(bind: limit)
            """).all().map(Self.decodePost)
        guard posts.count < limit, floor > 0 else { return posts }
        let missing = limit - posts.count
        // Ids first, from `posts_by_user` alone (an index-only scan), then the few rows shown.
        let newestIds: SQLQueryString
        switch database.dialect {
        case .postgres:
            newestIds = """
                SELECT q.id FROM (
                  SELECT f.followee_id AS author FROM follows f WHERE f.follower_id = \(bind: userId)
                  UNION ALL SELECT \(bind: userId)) a
                CROSS JOIN LATERAL (SELECT q.id FROM posts q WHERE q.user_id = a.author AND q.id < \(bind: floor)
                                    ORDER BY q.id DESC LIMIT \(bind: missing)) q
                ORDER BY q.id DESC LIMIT \(bind: missing)
                """
        case .sqlite:
            newestIds = """
                SELECT q.id FROM posts q
                WHERE q.id < \(bind: floor)
                  AND q.user_id IN (SELECT f.followee_id FROM follows f WHERE f.follower_id = \(bind: userId) UNION ALL SELECT \(bind: userId))
                ORDER BY q.id DESC LIMIT \(bind: missing)
                """
        }
        var query: SQLQueryString = "SELECT \(unsafeRaw: Self.postColumns) FROM ("
        query.appendInterpolation(newestIds)
        query.appendLiteral(") top JOIN posts p ON p.id = top.id JOIN users u ON u.id = p.user_id ORDER BY p.id DESC")
        let older = try await db.raw(query).all().map(Self.decodePost)
        posts.append(contentsOf: older)
        return posts
    }
}
