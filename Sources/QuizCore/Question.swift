import Foundation

public enum Difficulty: String, Sendable, Codable, CaseIterable, Hashable {
    case easy, medium, hard
}

public enum QuestionKind: String, Sendable, Codable, CaseIterable, Hashable {
    case singleChoice, multipleChoice, trueFalse, typedAnswer, numeric, nameAll
    case ordering, matching, gapFill, poll, wordCloud, estimate, slide

    /// Whether some answers are right: polls and word clouds ask opinions, slides ask nothing
    /// (a slide is "answered" by reading it: `Answer.read`).
    public var hasRightAnswer: Bool {
        switch self {
        case .poll, .wordCloud, .slide: false
        default: true
        }
    }

    /// Whether a player answers it at all: a slide is only read.
    public var takesAnswers: Bool { self != .slide }

    /// Whether live games play it. Name-them-all is a game of its own; a gap fill (a passage with
    /// up to 20 gaps of choices, words and numbers) is too much to read and fill in on a phone
    /// against a speed-scored clock. A live game leaves them out and its setup page says why.
    public var playsLive: Bool {
        switch self {
        case .singleChoice, .multipleChoice, .trueFalse, .typedAnswer, .numeric, .poll,
             .ordering, .matching, .wordCloud, .estimate, .slide: true
        case .nameAll, .gapFill: false
        }
    }
}

/// One option of a choice question. `id` is its 1-based position, stable for the question.
public struct Choice: Sendable, Codable, Hashable {
    public var id: Int
    public var text: String
    public var isCorrect: Bool
    /// Partial credit the author gave this choice (Moodle's fraction, GIFT's `%50%`); nil for the
    /// plain rule: a correct choice is full credit, any other none. In multiple choice, fractions
    /// add up over the choices picked, negative ones taking credit away.
    public var fraction: Fraction?

    public init(id: Int, text: String, isCorrect: Bool, fraction: Fraction? = nil) {
        self.id = id
        self.text = text
        self.isCorrect = isCorrect
        self.fraction = fraction
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
    /// `partial` answers earn part of the points (GIFT's `=%50%`, Moodle's fraction 50).
    case typedAnswer([String], partial: [Alternative] = [])
    /// `unit` is the value's own; `units` are others the answer may be given in, each with its
    /// multiplier (Moodle's units: 2.5 t/ha is also 2500 kg/ha).
    case numeric(value: Double, tolerance: Double, unit: String?, units: [NumericUnit] = [])
    case nameAll(items: [NameAllItem], timeLimitSeconds: Int, typoTolerance: Bool)
    case ordering(Ordering)
    case matching(Matching)
    case gapFill(GapFill)
    case poll(Poll)
    case wordCloud
    case estimate(Estimate)
    /// A page to read between questions: the question's text and picture, no answer.
    case slide

    public var kind: QuestionKind {
        switch self {
        case .singleChoice: .singleChoice
        case .multipleChoice: .multipleChoice
        case .trueFalse: .trueFalse
        case .typedAnswer: .typedAnswer
        case .numeric: .numeric
        case .nameAll: .nameAll
        case .ordering: .ordering
        case .matching: .matching
        case .gapFill: .gapFill
        case .poll: .poll
        case .wordCloud: .wordCloud
        case .estimate: .estimate
        case .slide: .slide
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
    /// Seconds to answer when the question is played against the clock (a live game); nil leaves
    /// it to the game's setting. Name-them-all keeps its own limit in its body, so this stays nil.
    public var timeLimitSeconds: Int?
    /// At most one sound clip, played by the player's own controls (never on its own).
    public var audio: QuestionAudio?

    public var kind: QuestionKind { body.kind }

    /// The seconds the question itself asks for, whatever its kind.
    public var ownSeconds: Int? {
        if case .nameAll(_, let seconds, _) = body { return seconds }
        return timeLimitSeconds
    }

    public init(
        id: Int64? = nil, text: String, explanation: String? = nil,
        difficulty: Difficulty = .medium, points: Int = Question.defaultPoints, body: QuestionBody,
        picture: QuestionPicture? = nil, timeLimitSeconds: Int? = nil, audio: QuestionAudio? = nil
    ) {
        self.id = id
        self.text = text
        self.explanation = explanation
        self.difficulty = difficulty
        self.points = points
        self.body = body
        self.picture = picture
        self.timeLimitSeconds = timeLimitSeconds
        self.audio = audio
    }
}
