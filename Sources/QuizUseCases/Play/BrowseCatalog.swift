import Foundation
import QuizCore
import QuizStore

/// The catalog as a player browses it for something to play: subjects, a subject's topics with
/// their quizzes, and every quiz with the news articles it is about.
package struct BrowseCatalog: Sendable {
    package enum Failure: Error, Equatable {
        case subjectNotFound
    }

    package typealias Storage = CatalogStore & ArticleStore
    let store: any Storage

    package init(store: any Storage) {
        self.store = store
    }

    package func subjects() async throws -> [SubjectSummary] {
        try await store.subjects()
    }

    package struct Topic: Sendable {
        package var topic: TopicSummary
        package var quizzes: [QuizSummary]
    }

    package func subject(id: Int64) async throws -> (subject: SubjectSummary, topics: [Topic]) {
        guard let subject = try await store.subjects().first(where: { $0.id == id }),
              let topics = try await store.topics(subjectId: id) else { throw Failure.subjectNotFound }
        var listed: [Topic] = []
        for topic in topics { listed.append(Topic(topic: topic, quizzes: try await store.quizzes(topicId: topic.id) ?? [])) }
        return (subject, listed)
    }

    package struct Listing: Sendable {
        package var listing: QuizListing
        /// Titles of the news articles the quiz is about.
        package var articles: [String]
    }

    /// Every quiz in catalog order; quizzes about news articles are listed with the rest.
    package func quizzes() async throws -> [Listing] {
        var about: [Int64: [String]] = [:]
        for link in try await store.articleQuizzes() { about[link.quizId, default: []].append(link.articleTitle) }
        return try await store.allQuizzes().map { Listing(listing: $0, articles: about[$0.quiz.id] ?? []) }
    }
}

/// A subject with its topics, for the forms that choose where questions come from.
package struct SubjectTopics: Sendable {
    package var subject: SubjectSummary
    package var topics: [TopicSummary]
}

extension CatalogStore {
    package func subjectsWithTopics() async throws -> [SubjectTopics] {
        var tree: [SubjectTopics] = []
        for subject in try await subjects() { tree.append(SubjectTopics(subject: subject, topics: try await topics(subjectId: subject.id) ?? [])) }
        return tree
    }
}
