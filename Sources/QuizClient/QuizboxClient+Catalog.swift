import Foundation

/// The catalog: subjects → topics → quizzes → questions. None of it needs a sign-in.
extension QuizboxClient {
    public func subjects() async throws(Error) -> [Subject] {
        try await perform {
            switch try await client.listSubjects() {
            case .ok(let ok): return try ok.body.json.subjects
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func topics(subjectId: Int64) async throws(Error) -> [Topic] {
        try await perform {
            switch try await client.listTopics(path: .init(subjectId: subjectId)) {
            case .ok(let ok): return try ok.body.json.topics
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func quizzes(topicId: Int64) async throws(Error) -> [Quiz] {
        try await perform {
            switch try await client.listQuizzes(path: .init(topicId: topicId)) {
            case .ok(let ok): return try ok.body.json.quizzes
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func quiz(id: Int64) async throws(Error) -> Quiz {
        try await perform {
            switch try await client.getQuiz(path: .init(quizId: id)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// The quiz's questions in order, with their choices but never their answers.
    public func questions(quizId: Int64) async throws(Error) -> [Question] {
        try await perform {
            switch try await client.listQuizQuestions(path: .init(quizId: quizId)) {
            case .ok(let ok): return try ok.body.json.questions
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }
}
