import Foundation
import QuizCore

/// Why an article change was refused.
public enum ArticleError: Error, Sendable, Equatable {
    /// Another article already has this GUID or URL.
    case duplicate
    /// The quiz to link does not exist.
    case quizNotFound
}

/// One page of articles, newest first, and how many there are in all.
public struct ArticlePage: Sendable, Hashable {
    public var articles: [Article]
    public var total: Int
    public init(articles: [Article], total: Int) {
        self.articles = articles
        self.total = total
    }
}

/// What an import stored: new articles, and those skipped because their GUID or URL was known.
public struct ArticleImportSummary: Sendable, Hashable {
    public var added: Int
    public var skipped: Int
    public init(added: Int = 0, skipped: Int = 0) {
        self.added = added
        self.skipped = skipped
    }
}

/// An article someone read, and when they first did.
public struct ReadArticle: Sendable, Hashable {
    public var article: Article
    public var readAt: Date
}

/// A published quiz that an article links to, with that article's title.
public struct ArticleQuiz: Sendable, Hashable {
    public var quizId: Int64
    public var articleId: Int64
    public var articleTitle: String
}

/// News articles, what people read, and the quizzes about them. Drafts are checked with
/// `ArticleDraft.validationErrors()` before they get here; every write is one transaction.
public protocol ArticleStore: Sendable {
    /// Throws `ArticleError.duplicate` when its GUID or URL is known, `.quizNotFound` for a bad quiz.
    func createArticle(_ draft: ArticleDraft, by userId: Int64?, at date: Date) async throws -> Int64
    /// Replaces what an author sees of the article. Its dedupe key follows the URL unless it came
    /// from a feed item's GUID. Throws `StoreError.notFound`, `ArticleError.duplicate`, `.quizNotFound`.
    func updateArticle(id: Int64, _ draft: ArticleDraft) async throws
    /// The article and who read it. Throws `StoreError.notFound`.
    func deleteArticle(id: Int64) async throws
    func article(id: Int64) async throws -> Article?
    /// Newest published first (ties: newest id first).
    func articles(offset: Int, limit: Int) async throws -> ArticlePage
    /// Adds the drafts whose dedupe key is new, all in one transaction; a repeated key (stored or
    /// earlier in `drafts`) is skipped. A linked quiz that does not exist fails the whole import
    /// (`ArticleError.quizNotFound`) and stores nothing.
    func importArticles(_ drafts: [ArticleDraft], by userId: Int64?, at date: Date) async throws -> ArticleImportSummary
    /// Records that the user read the article (the first time counts); returns the article.
    /// Throws `StoreError.notFound`.
    func recordRead(userId: Int64, articleId: Int64, at date: Date) async throws -> Article
    /// What the user read, most recently read first, at most `limit`.
    func articlesRead(userId: Int64, limit: Int) async throws -> [ReadArticle]
    /// Published quizzes that articles link to, newest article first.
    func articleQuizzes() async throws -> [ArticleQuiz]
}
