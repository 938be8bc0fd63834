import Foundation

/// A question bank as a tree, independent of storage: what importers produce and the store loads.
public struct Bank: Sendable, Hashable {
    public var subjects: [BankSubject]
    public init(subjects: [BankSubject] = []) { self.subjects = subjects }

    public var questionCount: Int {
        subjects.reduce(0) { $0 + $1.topics.reduce(0) { $0 + $1.questionCount } }
    }
}

public struct BankSubject: Sendable, Hashable {
    public var name: String
    public var description: String
    public var topics: [BankTopic]
    public init(name: String, description: String = "", topics: [BankTopic] = []) {
        self.name = name
        self.description = description
        self.topics = topics
    }
}

public struct BankTopic: Sendable, Hashable {
    public var name: String
    public var description: String
    public var quizzes: [BankQuiz]
    /// Questions in the topic's bank that belong to no quiz.
    public var questions: [Question]
    public init(name: String, description: String = "", quizzes: [BankQuiz] = [], questions: [Question] = []) {
        self.name = name
        self.description = description
        self.quizzes = quizzes
        self.questions = questions
    }

    public var questionCount: Int { questions.count + quizzes.reduce(0) { $0 + $1.questions.count } }
}

public struct BankQuiz: Sendable, Hashable {
    public var title: String
    public var description: String
    /// The quiz's questions in order; each also joins the topic's bank.
    public var questions: [Question]
    public init(title: String, description: String = "", questions: [Question] = []) {
        self.title = title
        self.description = description
        self.questions = questions
    }
}
