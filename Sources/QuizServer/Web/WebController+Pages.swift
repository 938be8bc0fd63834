import Foundation
import Hummingbird
import QuizCore
import QuizFormats
import NIOCore
import QuizStore
import QuizUseCases

extension WebController {
    /// The manage page's list of quizzes (the players' list is `BrowsePages`).
    static func listings(_ listings: [QuizListing]) -> [[String: Any]] {
        listings.map {
            ["id": $0.quiz.id, "title": $0.quiz.title, "topic": $0.topicName, "subject": $0.subjectName,
             "questionCount": count($0.quiz.questionCount, "question")]
        }
    }
}
