import QuizCore
import QuizUseCases

// What a class's refusals say, in English; pages and the API translate them through the catalog.

extension Classes.Failure {
    var message: String {
        switch self {
        case .invalid(let problems): problems.map { "The class's \($0.field) \($0.message)." }.joined(separator: " ")
        case .tooManyClasses(let limit): "You have \(limit) classes, the most one teacher may: delete or reuse one first."
        case .classNotFound: "No class with that code or id that you may see."
        case .rateLimited: "Too many tries: wait a minute."
        case .joiningClosed: "This class is closed to new students: ask its teacher to open it."
        case .classFull(let limit): "This class has \(limit) students, the most a class may have."
        case .ownClass: "You teach this class: students join it, you do not need to."
        case .notMember: "That user is not a student of this class."
        case .notNow: "That could not be done just now; try again."
        }
    }
}
