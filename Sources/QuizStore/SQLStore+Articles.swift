import Foundation
import QuizCore
import SQLKit

extension SQLStore: ArticleStore {
    static let articleColumns = """
        a.id, a.title, a.summary, a.source_name, a.url, a.image_url, a.published_at, a.quiz_id, a.created_by, a.created_at
        """

    static func decodeArticle(_ row: any SQLRow) throws -> Article {
        Article(id: try row.int64("id"), title: try row.string("title"), summary: try row.string("summary"),
                sourceName: try row.string("source_name"), url: try row.string("url"),
                imageURL: try row.decode(column: "image_url", as: String?.self), publishedAt: try row.date("published_at"),
                quizId: try row.decode(column: "quiz_id", as: Int64?.self),
                createdBy: try row.decode(column: "created_by", as: Int64?.self), createdAt: try row.date("created_at"))
    }

    public func createArticle(_ draft: ArticleDraft, by userId: Int64?, at date: Date) async throws -> Int64 {
        return try await database.transaction { db in
            try await Self.checkQuiz(db, draft.quizId)
            // ON CONFLICT, not a look-up first: two writers adding the same URL cannot both win.
            guard let id = try await db.raw("""
                INSERT INTO articles (title, summary, source_name, url, image_url, published_at, dedupe_key, quiz_id, created_by, created_at)
                VALUES \(Self.articleValues(draft, by: userId, at: date)) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id
                """).first()?.int64("id") else { throw ArticleError.duplicate }
            return id
        }
    }

    public func updateArticle(id: Int64, _ draft: ArticleDraft) async throws {
        return try await database.transaction { db in
            guard let row = try await db.raw("SELECT url, dedupe_key FROM articles WHERE id = \(bind: id)").first() else {
                throw StoreError.notFound
            }
            try await Self.checkQuiz(db, draft.quizId)
            // An article known by its URL follows it; one known by a feed's GUID keeps it.
            let oldKey = try row.string("dedupe_key")
            let oldURL = try row.string("url")
            let key = oldKey == oldURL ? draft.url : oldKey
            if key != oldKey,
               try await db.raw("SELECT id FROM articles WHERE dedupe_key = \(bind: key) AND id <> \(bind: id)").first() != nil {
                throw ArticleError.duplicate
            }
            try await db.raw("""
                UPDATE articles SET title = \(bind: draft.title), summary = \(bind: draft.summary),
                  source_name = \(bind: draft.sourceName), url = \(bind: draft.url), image_url = \(bind: draft.imageURL),
                  published_at = \(bind: draft.publishedAt.millis), dedupe_key = \(bind: key), quiz_id = \(bind: draft.quizId)
                WHERE id = \(bind: id)
                """).run()
        }
    }

    public func deleteArticle(id: Int64) async throws {
        return try await database.transaction { db in
            guard try await db.raw("SELECT id FROM articles WHERE id = \(bind: id)").first() != nil else { throw StoreError.notFound }
            // Explicit, since SQLite does not enforce the ON DELETE CASCADE.
            try await db.raw("DELETE FROM article_reads WHERE article_id = \(bind: id)").run()
            try await db.raw("DELETE FROM articles WHERE id = \(bind: id)").run()
        }
    }

    public func article(id: Int64) async throws -> Article? {
        try await database.read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.articleColumns) FROM articles a WHERE a.id = \(bind: id)")
                .first().map(Self.decodeArticle)
        }
    }

    public func articles(offset: Int, limit: Int) async throws -> ArticlePage {
        try await database.read { db in
            let total = try await db.raw("SELECT COUNT(*) AS n FROM articles").first()?.int("n") ?? 0
            let articles = try await db.raw("""
                SELECT \(unsafeRaw: Self.articleColumns) FROM articles a
                ORDER BY a.published_at DESC, a.id DESC LIMIT \(bind: max(limit, 0)) OFFSET \(bind: max(offset, 0))
                """).all().map(Self.decodeArticle)
            return ArticlePage(articles: articles, total: total)
        }
    }

    /// Rows per statement: 10 parameters each keeps well under SQLite's and PostgreSQL's limits.
    static let articlesPerInsert = 100

    public func importArticles(_ drafts: [ArticleDraft], by userId: Int64?, at date: Date) async throws -> ArticleImportSummary {
        return try await database.transaction { db in
            var added = 0
            for start in stride(from: 0, to: drafts.count, by: Self.articlesPerInsert) {
                let chunk = drafts[start..<min(start + Self.articlesPerInsert, drafts.count)]
                // SQLite does not enforce foreign keys: a linked quiz is checked here, and a
                // missing one rolls back the chunks already inserted.
                for quizId in Set(chunk.compactMap(\.quizId)) { try await Self.checkQuiz(db, quizId) }
                let rows = chunk.map { Self.articleValues($0, by: userId, at: date) }
                // A key already stored, or repeated within this statement, inserts nothing.
                added += try await db.raw("""
                    INSERT INTO articles (title, summary, source_name, url, image_url, published_at, dedupe_key, quiz_id, created_by, created_at)
                    VALUES \(rows.joined(separator: ", ")) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id
                    """).all().count
            }
            return ArticleImportSummary(added: added, skipped: drafts.count - added)
        }
    }

    public func recordRead(userId: Int64, articleId: Int64, at date: Date) async throws -> Article {
        try await database.transaction { db in
            guard let article = try await db.raw("SELECT \(unsafeRaw: Self.articleColumns) FROM articles a WHERE a.id = \(bind: articleId)")
                .first().map(Self.decodeArticle) else { throw StoreError.notFound }
            try await db.raw("""
                INSERT INTO article_reads (user_id, article_id, read_at) VALUES (\(bind: userId), \(bind: articleId), \(bind: date.millis))
                ON CONFLICT (user_id, article_id) DO NOTHING
                """).run()
            return article
        }
    }

    public func articlesRead(userId: Int64, limit: Int) async throws -> [ReadArticle] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.articleColumns), r.read_at FROM article_reads r JOIN articles a ON a.id = r.article_id
                WHERE r.user_id = \(bind: userId) ORDER BY r.read_at DESC, a.id DESC LIMIT \(bind: max(limit, 0))
                """).all().map { ReadArticle(article: try Self.decodeArticle($0), readAt: try $0.date("read_at")) }
        }
    }

    public func articleQuizzes() async throws -> [ArticleQuiz] {
        try await database.read { db in
            try await db.raw("""
                SELECT a.id, a.title, a.quiz_id FROM articles a JOIN quizzes q ON q.id = a.quiz_id
                WHERE q.published AND q.practice_user_id IS NULL ORDER BY a.published_at DESC, a.id DESC
                """).all().map {
                ArticleQuiz(quizId: try $0.int64("quiz_id"), articleId: try $0.int64("id"), articleTitle: try $0.string("title"))
            }
        }
    }

    private static func articleValues(_ draft: ArticleDraft, by userId: Int64?, at date: Date) -> SQLQueryString {
        """
        (\(bind: draft.title), \(bind: draft.summary), \(bind: draft.sourceName), \(bind: draft.url), \(bind: draft.imageURL),
         \(bind: draft.publishedAt.millis), \(bind: draft.dedupeKey), \(bind: draft.quizId), \(bind: userId), \(bind: date.millis))
        """
    }

    private static func checkQuiz(_ db: any SQLDatabase, _ quizId: Int64?) async throws {
        guard let quizId else { return }
        guard try await db.raw("SELECT id FROM quizzes WHERE id = \(bind: quizId) AND practice_user_id IS NULL").first() != nil else {
            throw ArticleError.quizNotFound
        }
    }
}
