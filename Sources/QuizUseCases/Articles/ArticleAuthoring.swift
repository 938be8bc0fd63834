import Foundation
import QuizCore
import QuizStore

/// Writing the news: authors and admins add, change and delete articles and link a quiz to each.
/// Every rule an article breaks is reported at once, field by field (`ArticleDraft`).
package struct ArticleAuthoring: Sendable {
    package enum Failure: Error, Equatable {
        /// Writing articles needs an author or admin account.
        case notAuthor
        /// Every rule the article breaks, by field (`title`, `sourceName`, `url`, `imageUrl`, …).
        case invalid([Question.ValidationError])
        /// Another article already has this address (or feed GUID).
        case duplicate
        case quizNotFound
        case notFound
    }

    /// What an author writes. No publication time means now; an empty image address means none.
    package struct Fields: Sendable, Equatable {
        package var title: String
        package var summary: String
        package var sourceName: String
        package var url: String
        package var imageURL: String?
        package var publishedAt: Date?
        package var quizId: Int64?

        package init(title: String, summary: String, sourceName: String, url: String, imageURL: String? = nil,
                     publishedAt: Date? = nil, quizId: Int64? = nil) {
            self.title = title
            self.summary = summary
            self.sourceName = sourceName
            self.url = url
            self.imageURL = imageURL
            self.publishedAt = publishedAt
            self.quizId = quizId
        }
    }

    /// A quiz an article may link to, drafts included.
    package struct QuizChoice: Sendable, Equatable {
        package var id: Int64
        package var subject: String
        package var topic: String
        package var title: String
        package var isPublished: Bool
    }

    package typealias Storage = ArticleStore & AuthoringStore
    let store: any Storage
    let time: any TimeSource

    package init(store: any Storage, time: any TimeSource) {
        self.store = store
        self.time = time
    }

    /// Every rule `fields` break; empty when they may be stored.
    package func problems(_ fields: Fields) -> [Question.ValidationError] {
        draft(fields).validationErrors()
    }

    package func create(_ fields: Fields, by user: User) async throws -> Article {
        let draft = try valid(fields, by: user)
        let id = try await change { try await store.createArticle(draft, by: user.id, at: time.now()) }
        return try await article(id: id, by: user)
    }

    package func update(id: Int64, _ fields: Fields, by user: User) async throws -> Article {
        let draft = try valid(fields, by: user)
        try await change { try await store.updateArticle(id: id, draft) }
        return try await article(id: id, by: user)
    }

    /// The article and who read it.
    package func delete(id: Int64, by user: User) async throws {
        guard user.role.canAuthor else { throw Failure.notAuthor }
        try await change { try await store.deleteArticle(id: id) }
    }

    /// The article as its author edits it.
    package func article(id: Int64, by user: User) async throws -> Article {
        guard user.role.canAuthor else { throw Failure.notAuthor }
        guard let article = try await store.article(id: id) else { throw Failure.notFound }
        return article
    }

    /// The quizzes an article may link to, in the catalog's order.
    package func quizChoices(by user: User) async throws -> [QuizChoice] {
        guard user.role.canAuthor else { throw Failure.notAuthor }
        return try await store.outline().flatMap { subject in
            subject.topics.flatMap { topic in
                topic.quizzes.map {
                    QuizChoice(id: $0.id, subject: subject.name, topic: topic.name, title: $0.title, isPublished: $0.isPublished)
                }
            }
        }
    }

    private func draft(_ fields: Fields) -> ArticleDraft {
        ArticleDraft(title: fields.title, summary: fields.summary, sourceName: fields.sourceName, url: fields.url,
                     imageURL: fields.imageURL.flatMap { $0.isEmpty ? nil : $0 }, publishedAt: fields.publishedAt ?? time.now(),
                     quizId: fields.quizId)
    }

    private func valid(_ fields: Fields, by user: User) throws -> ArticleDraft {
        guard user.role.canAuthor else { throw Failure.notAuthor }
        let draft = draft(fields)
        let problems = draft.validationErrors()
        guard problems.isEmpty else { throw Failure.invalid(problems) }
        return draft
    }

    /// The store's refusals, as this use case's.
    private func change<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch StoreError.notFound {
            throw Failure.notFound
        } catch ArticleError.duplicate {
            throw Failure.duplicate
        } catch ArticleError.quizNotFound {
            throw Failure.quizNotFound
        }
    }
}
