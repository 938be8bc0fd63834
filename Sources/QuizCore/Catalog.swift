import Foundation

/// A subject's or quiz's cover picture, stored like question pictures (by the hash of its bytes).
/// Decorative: the name is always shown beside it, so it has no alt text of its own.
public struct CoverPicture: Sendable, Hashable {
    public var hash: String
    public var type: PostImageType
    public var width: Int
    public var height: Int

    public init(hash: String, type: PostImageType, width: Int, height: Int) {
        self.hash = hash
        self.type = type
        self.width = width
        self.height = height
    }

    public var fileName: String { "\(hash).\(type.fileExtension)" }
    public var url: String { "/images/\(fileName)" }
}

/// Rows of the catalog as lists show them.
public struct SubjectSummary: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var description: String
    public var topicCount: Int
    public var cover: CoverPicture?
    public init(id: Int64, name: String, description: String, topicCount: Int, cover: CoverPicture? = nil) {
        self.cover = cover
        self.id = id
        self.name = name
        self.description = description
        self.topicCount = topicCount
    }
}

public struct TopicSummary: Sendable, Hashable {
    public var id: Int64
    public var subjectId: Int64
    public var name: String
    public var description: String
    public var quizCount: Int
    public init(id: Int64, subjectId: Int64, name: String, description: String, quizCount: Int) {
        self.id = id
        self.subjectId = subjectId
        self.name = name
        self.description = description
        self.quizCount = quizCount
    }
}

public struct QuizSummary: Sendable, Hashable {
    public var id: Int64
    public var topicId: Int64
    public var title: String
    public var description: String
    public var questionCount: Int
    public var totalPoints: Int
    /// Seconds allowed per question, enforced by the server; nil for no limit.
    public var timeLimitSeconds: Int?
    /// Set for a practice round: the player it was drawn for. Such quizzes are not in the catalog.
    public var practiceUserId: Int64?
    public var cover: CoverPicture?
    public init(
        id: Int64, topicId: Int64, title: String, description: String, questionCount: Int, totalPoints: Int,
        timeLimitSeconds: Int? = nil, practiceUserId: Int64? = nil, isPublished: Bool = true, cover: CoverPicture? = nil
    ) {
        self.cover = cover
        self.isPublished = isPublished
        self.id = id
        self.topicId = topicId
        self.title = title
        self.description = description
        self.questionCount = questionCount
        self.totalPoints = totalPoints
        self.timeLimitSeconds = timeLimitSeconds
        self.practiceUserId = practiceUserId
    }

    public var isPractice: Bool { practiceUserId != nil }
    /// False for an author's draft: only its authors and players already in it see it.
    public var isPublished: Bool
    /// In the catalog: published and not someone's practice round.
    public var isListed: Bool { isPublished && !isPractice }
}

/// What an import stored.
public struct ImportSummary: Sendable, Hashable {
    public var subjects: Int
    public var topics: Int
    public var quizzes: Int
    public var questions: Int
    public init(subjects: Int = 0, topics: Int = 0, quizzes: Int = 0, questions: Int = 0) {
        self.subjects = subjects
        self.topics = topics
        self.quizzes = quizzes
        self.questions = questions
    }
}

/// A quiz with where it sits in the catalog, for lists of every quiz.
public struct QuizListing: Sendable, Hashable {
    public var quiz: QuizSummary
    public var topicName: String
    public var subjectName: String

    public init(quiz: QuizSummary, topicName: String, subjectName: String) {
        self.quiz = quiz
        self.topicName = topicName
        self.subjectName = subjectName
    }
}
