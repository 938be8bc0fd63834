import Foundation
import QuizCore
import QuizFormats
import QuizStore

extension OpenTrivia {
    /// What `category`, `difficulty` and `type` ask for; nil from `init` when one is not valid.
    struct Filter {
        var topicId: Int64?
        var difficulty: Difficulty?
        var kind: QuestionKind?

        init?(_ request: Request) {
            switch request.category {
            case nil, ""?, "0"?: topicId = nil
            case let text?:
                guard let number = OpenTrivia.wholeNumber(text) else { return nil }
                // A number that names no topic simply matches nothing (code 1).
                topicId = Int64(number) - OpenTrivia.categoryOffset
            }
            switch request.difficulty {
            case nil, ""?: difficulty = nil
            case let text?:
                guard let level = Difficulty(rawValue: text) else { return nil }
                difficulty = level
            }
            switch request.type {
            case nil, ""?: kind = nil
            case "multiple"?: kind = .singleChoice
            case "boolean"?: kind = .trueFalse
            default: return nil
            }
        }

        func matches(_ candidate: TriviaQuestion) -> Bool {
            OpenTrivia.servable(candidate.question)
                && (topicId == nil || candidate.topicId == topicId)
                && (difficulty == nil || candidate.question.difficulty == difficulty)
                && (kind == nil || candidate.question.kind == kind)
        }
    }

    /// Open Trivia DB's shapes: one correct choice among 2–4, or true/false. A wrong choice worth
    /// part of the points has no place there (it would be served as simply incorrect).
    static func servable(_ question: Question) -> Bool {
        switch question.body {
        case .singleChoice(let choices):
            (2...4).contains(choices.count) && choices.count(where: \.isCorrect) == 1
                && !choices.contains { !$0.isCorrect && ($0.fraction?.value ?? 0) > 0 }
        case .trueFalse: true
        default: false
        }
    }

    /// The number a topic goes by: its id, which never changes or returns to another topic
    /// (`AUTOINCREMENT` on SQLite, an identity column on PostgreSQL), moved up to Open Trivia
    /// DB's first category number.
    package static func categoryId(topicId: Int64) -> Int64 { topicId + categoryOffset }

    /// "Subject: Topic", as Open Trivia DB names "Entertainment: Books"; a topic named like its
    /// subject is named once.
    package static func categoryName(_ candidate: TriviaQuestion) -> String {
        candidate.topicName == candidate.subjectName ? candidate.topicName : "\(candidate.subjectName): \(candidate.topicName)"
    }

    static func result(_ candidate: TriviaQuestion, encoding: OpenTriviaReader.Encoding) -> Result? {
        let question = candidate.question
        let type: String
        let correct: String
        let incorrect: [String]
        switch question.body {
        case .singleChoice(let choices):
            guard let right = choices.first(where: \.isCorrect) else { return nil }
            (type, correct, incorrect) = ("multiple", right.text, choices.filter { !$0.isCorrect }.map(\.text))
        case .trueFalse(let answer):
            (type, correct, incorrect) = ("boolean", answer ? "True" : "False", [answer ? "False" : "True"])
        default:
            return nil
        }
        func encoded(_ text: String) -> String { OpenTriviaWriter.encode(text, encoding) }
        return Result(type: encoded(type), difficulty: encoded(question.difficulty.rawValue), category: encoded(categoryName(candidate)),
                      question: encoded(question.text), correctAnswer: encoded(correct), incorrectAnswers: incorrect.map(encoded))
    }
}
