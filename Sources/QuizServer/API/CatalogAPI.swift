import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// Browsing the catalog (`BrowseCatalog`): open to anyone, signed in or not.
struct CatalogAPI: Sendable {
    let browse: BrowseCatalog

    func listSubjects(_ input: Operations.ListSubjects.Input) async throws -> Operations.ListSubjects.Output {
        let subjects = try await browse.subjects()
        return .ok(.init(body: .json(.init(subjects: subjects.map(Components.Schemas.Subject.init)))))
    }

    func listTopics(_ input: Operations.ListTopics.Input) async throws -> Operations.ListTopics.Output {
        do {
            let topics = try await browse.topics(subjectId: input.path.subjectId)
            return .ok(.init(body: .json(.init(topics: topics.map(Components.Schemas.Topic.init)))))
        } catch let failure as BrowseCatalog.Failure {
            throw APIError(failure)
        }
    }

    func listQuizzes(_ input: Operations.ListQuizzes.Input) async throws -> Operations.ListQuizzes.Output {
        do {
            let quizzes = try await browse.quizzes(topicId: input.path.topicId)
            return .ok(.init(body: .json(.init(quizzes: quizzes.map(Components.Schemas.Quiz.init)))))
        } catch let failure as BrowseCatalog.Failure {
            throw APIError(failure)
        }
    }

    func getQuiz(_ input: Operations.GetQuiz.Input) async throws -> Operations.GetQuiz.Output {
        do {
            return .ok(.init(body: .json(.init(try await browse.quiz(id: input.path.quizId)))))
        } catch let failure as BrowseCatalog.Failure {
            throw APIError(failure)
        }
    }

    func listQuizQuestions(_ input: Operations.ListQuizQuestions.Input) async throws -> Operations.ListQuizQuestions.Output {
        // A practice round's questions are served one at a time, each starting its clock.
        do {
            let questions = try await browse.questions(quizId: input.path.quizId)
            let wire = questions.enumerated().map { Components.Schemas.Question(presented: $0.element, position: $0.offset + 1) }
            return .ok(.init(body: .json(.init(questions: wire))))
        } catch let failure as BrowseCatalog.Failure {
            throw APIError(failure)
        }
    }
}

extension APIError {
    init(_ failure: BrowseCatalog.Failure) {
        self = switch failure {
        case .subjectNotFound: .notFound("subject")
        case .topicNotFound: .notFound("topic")
        case .quizNotFound: .notFound("quiz")
        }
    }
}
