import Foundation
import QuizCore

/// Why an authoring change was refused.
public enum AuthoringError: Error, Sendable, Equatable {
    /// Removing the admin role from the only admin would leave nobody able to manage roles.
    case lastAdmin
    /// Deleting a subject or topic that still holds something (delete or move that first).
    case notEmpty
    /// A quiz people have played keeps its attempts and scores: unpublish it instead.
    case quizHasAttempts
    /// A question answered by players keeps its kind, so stored answers stay readable.
    case kindLocked
    /// A quiz can only hold questions of its own topic.
    case questionNotInTopic(Int64)
    /// A name-them-all question is played as a game of its own, never as a question of a quiz.
    case nameAllInQuiz(Int64)
}

/// Every subject, topic and quiz as an author sees them: drafts included, in catalog order.
public struct OutlineSubject: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var description: String
    public var topics: [OutlineTopic]
}

public struct OutlineTopic: Sendable, Hashable {
    public var id: Int64
    public var subjectId: Int64
    public var name: String
    public var description: String
    /// Questions in the topic's bank (archived ones left out).
    public var questionCount: Int
    public var quizzes: [OutlineQuiz]
}

public struct OutlineQuiz: Sendable, Hashable {
    public var id: Int64
    public var topicId: Int64
    public var title: String
    public var description: String
    public var isPublished: Bool
    public var questionCount: Int
}

/// One quiz with its questions and answers, drafts included: for authors only.
public struct ManagedQuiz: Sendable, Hashable {
    public var quiz: OutlineQuiz
    public var questions: [Question]
}

/// One page of users, and how many match in all.
public struct UserPage: Sendable, Hashable {
    public var users: [User]
    public var total: Int
}

/// What to change about a subject, topic or quiz; nil keeps the current value.
public struct CatalogChange: Sendable, Hashable {
    public var name: String?
    public var description: String?
    /// 1-based place among its siblings, clamped to the first and last.
    public var position: Int?
    /// Quizzes only: subjects and topics follow their quizzes.
    public var published: Bool?
    /// Subjects and quizzes only: a new cover picture, or none.
    public var cover: CoverChange?

    public enum CoverChange: Sendable, Hashable {
        case set(CoverPicture)
        case remove
    }

    public init(name: String? = nil, description: String? = nil, position: Int? = nil, published: Bool? = nil, cover: CoverChange? = nil) {
        self.cover = cover
        self.name = name
        self.description = description
        self.position = position
        self.published = published
    }
}

/// The three levels of the catalog that authors arrange.
public enum CatalogLevel: String, Sendable {
    case subject, topic, quiz
}

/// What authors and admins change. Every write is one transaction and is seen at once by
/// readers of this process (caches are invalidated).
public protocol AuthoringStore: Sendable {
    func outline() async throws -> [OutlineSubject]
    /// nil when there is no such quiz; drafts included.
    func managedQuiz(id: Int64) async throws -> ManagedQuiz?
    /// The topic's questions (not archived), oldest first; nil when there is no such topic.
    func topicQuestions(topicId: Int64) async throws -> [Question]?
    /// A question with the topic it belongs to; nil when missing or archived.
    func managedQuestion(id: Int64) async throws -> (topicId: Int64, question: Question)?

    /// Creates a subject, topic or quiz at the end of its parent. Quizzes start as drafts; a new
    /// subject or topic is shown to players once it holds a published quiz.
    /// `parent` is nil for subjects. Throws `StoreError.notFound` when the parent is missing.
    func create(_ level: CatalogLevel, parent: Int64?, name: String, description: String) async throws -> Int64
    /// Applies the whole change in one transaction.
    func update(_ level: CatalogLevel, id: Int64, _ change: CatalogChange) async throws
    /// A subject's or quiz's cover picture (nil for none, or for a topic); throws `StoreError.notFound`.
    func cover(_ level: CatalogLevel, id: Int64) async throws -> CoverPicture?
    /// Throws `AuthoringError.notEmpty` or `.quizHasAttempts` rather than deleting what players rely on.
    func delete(_ level: CatalogLevel, id: Int64) async throws

    /// Adds it to the topic's bank and, when `quizId` is given, at the end of that quiz (of the same topic).
    func createQuestion(_ question: Question, topicId: Int64, appendingTo quizId: Int64?, at date: Date) async throws -> Int64
    /// Replaces the question's content; past answers keep their verdicts and points.
    func updateQuestion(_ question: Question) async throws
    /// Deletes it, or archives it when players have answered it. Either way it leaves every quiz.
    func deleteQuestion(id: Int64, at date: Date) async throws
    /// Sets which of its topic's questions the quiz holds, in this order.
    func setQuizQuestions(quizId: Int64, questionIds: [Int64]) async throws

    /// Users whose username contains `search` (ignoring case), by username.
    func users(matching search: String, offset: Int, limit: Int) async throws -> UserPage
    /// Throws `AuthoringError.lastAdmin` when it would leave no admin, `StoreError.notFound` for no such user.
    func setRole(_ role: Role, userId: Int64) async throws -> User
}

extension AuthoringStore {
    public func rename(_ level: CatalogLevel, id: Int64, name: String?, description: String?) async throws {
        try await update(level, id: id, CatalogChange(name: name, description: description))
    }

    public func move(_ level: CatalogLevel, id: Int64, to position: Int) async throws {
        try await update(level, id: id, CatalogChange(position: position))
    }

    public func createQuestion(_ question: Question, topicId: Int64, at date: Date) async throws -> Int64 {
        try await createQuestion(question, topicId: topicId, appendingTo: nil, at: date)
    }

    public func setPublished(_ published: Bool, quizId: Int64) async throws {
        try await update(.quiz, id: quizId, CatalogChange(published: published))
    }
}
