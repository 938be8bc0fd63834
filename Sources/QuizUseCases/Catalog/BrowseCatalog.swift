import Foundation
import QuizCore
import QuizStore

/// Reading the catalog: subjects, their topics, a topic's quizzes, a quiz and its questions.
/// Drafts are their authors' and practice rounds their player's: neither is listed here.
package struct BrowseCatalog: Sendable {
    package enum Failure: Error, Equatable {
        case subjectNotFound, topicNotFound, quizNotFound
    }

    let store: any CatalogStore

    package init(store: any CatalogStore) {
        self.store = store
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
    /// leave the answers out (the API's wire form does).
    package func questions(quizId: Int64) async throws -> [Question] {
        _ = try await quiz(id: quizId)
        return try await store.questions(quizId: quizId)
    }
}
