import Foundation

public enum Difficulty: String, Sendable, Codable, CaseIterable, Hashable {
    case easy, medium, hard
}

public enum QuestionKind: String, Sendable, Codable, CaseIterable, Hashable {
    case singleChoice, multipleChoice, trueFalse, typedAnswer, numeric, nameAll
}

/// One option of a choice question. `id` is its 1-based position, stable for the question.
public struct Choice: Sendable, Codable, Hashable {
    public var id: Int
    public var text: String
    public var isCorrect: Bool

    public init(id: Int, text: String, isCorrect: Bool) {
        self.id = id
        self.text = text
        self.isCorrect = isCorrect
    }
}

/// One thing to find in a "name them all" question, with the spellings also accepted.
public struct NameAllItem: Sendable, Codable, Hashable {
    public var answer: String
    public var alternates: [String]

    public init(answer: String, alternates: [String] = []) {
        self.answer = answer
        self.alternates = alternates
    }
}

/// What a question asks for and how it is graded; one case per kind.
public enum QuestionBody: Sendable, Hashable {
    case singleChoice([Choice])
    case multipleChoice([Choice])
    case trueFalse(Bool)
    /// Accepted answers: the first is shown as the correct answer, the rest are alternates.
    case typedAnswer([String])
    case numeric(value: Double, tolerance: Double, unit: String?)
    case nameAll(items: [NameAllItem], timeLimitSeconds: Int, typoTolerance: Bool)

    public var kind: QuestionKind {
        switch self {
        case .singleChoice: .singleChoice
        case .multipleChoice: .multipleChoice
        case .trueFalse: .trueFalse
        case .typedAnswer: .typedAnswer
        case .numeric: .numeric
        case .nameAll: .nameAll
        }
    }

    public var choices: [Choice] {
        switch self {
        case .singleChoice(let c), .multipleChoice(let c): c
        default: []
        }
    }
}

/// A question as authored: the bank's unit. `id` is nil until stored.
public struct Question: Sendable, Hashable {
    public static let defaultPoints = 1
    public static let maxTextLength = 2_000

    public var id: Int64?
    public var text: String
    public var explanation: String?
    public var difficulty: Difficulty
    public var points: Int
    public var body: QuestionBody
    /// At most one picture, shown above the answers.
    public var picture: QuestionPicture?

    public var kind: QuestionKind { body.kind }

    public init(
        id: Int64? = nil, text: String, explanation: String? = nil,
        difficulty: Difficulty = .medium, points: Int = Question.defaultPoints, body: QuestionBody,
        picture: QuestionPicture? = nil
    ) {
        self.id = id
        self.text = text
        self.explanation = explanation
        self.difficulty = difficulty
        self.points = points
        self.body = body
        self.picture = picture
    }
}
