import Foundation
import QuizCore
import QuizStore

/// The catalog as a player browses it for something to play: subjects, their topics, a topic's
/// quizzes, a quiz and its questions, and every quiz with the news articles it is about. Drafts
/// are their authors' and practice rounds their player's: neither is listed here.
package struct BrowseCatalog: Sendable {
    package enum Failure: Error, Equatable {
        case subjectNotFound, topicNotFound, quizNotFound
    }

    package typealias Storage = CatalogStore & ArticleStore
    let store: any Storage
    let key: ChoiceKey

    package init(store: any Storage, key: ChoiceKey) {
        self.store = store
        self.key = key
    }

    package func subjects() async throws -> [SubjectSummary] {
        try await store.subjects()
    }

    package func topics(subjectId: Int64) async throws -> [TopicSummary] {
        guard let topics = try await store.topics(subjectId: subjectId) else { throw Failure.subjectNotFound }
        return topics
    }

    package func quizzes(topicId: Int64) async throws -> [QuizSummary] {
        guard let quizzes = try await store.quizzes(topicId: topicId) else { throw Failure.topicNotFound }
        return quizzes
    }

    package func quiz(id: Int64) async throws -> QuizSummary {
        guard let quiz = try await store.quiz(id: id), quiz.isListed else { throw Failure.quizNotFound }
        return quiz
    }

    /// The quiz's questions in order, with their answers: whoever shows them to a player must
    /// leave the answers out (the API's wire form does). Choices are under their public ids, in
    /// the order those give, as an attempt would take them.
    package func questions(quizId: Int64) async throws -> [Question] {
        _ = try await quiz(id: quizId)
        return try await store.questions(quizId: quizId).map { key.ids(for: $0).presenting($0) }
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
