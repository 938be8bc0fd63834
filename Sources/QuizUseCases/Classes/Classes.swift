import Foundation
import Logging
import QuizCore
import QuizStore

/// Classes: a teacher's students, the assignments set to them and the gradebook they make.
///
/// Who may create a class: anyone signed in, the same people who may assign a quiz
/// (`QuizSummary.mayBeHosted`: a published quiz to anyone signed in, a draft to authors). A
/// class exists to be assigned to, so a narrower rule than assigning would only send teachers to
/// plain assignments; a new `teacher` role would make every teacher on a self-hosted server wait
/// for an admin first, and a class shows nothing to anyone until students join it with its code.
/// What bounds abuse is `classesPerOwner`, `membersPerClass` and the per-address join limit.
///
/// The owner creates, renames and opens or closes joining (`Classes+Owning`); students join with
/// the code while signed in (`Classes+Joining`); the owner and each student read the class and the
/// gradebook, the student only their own row (`Classes+Gradebook`); a student's due list is in
/// `Classes+Due`. Every rule reads the injected clock.
package struct Classes: Sendable {
    package enum Failure: StorageFailure, Equatable, Sendable {
        /// The name breaks a rule (`SchoolClass.problems(name:)`).
        case invalid([SchoolClass.Invalid])
        /// The owner has `classesPerOwner` classes.
        case tooManyClasses(Int)
        /// No class with that code or id, or (for anyone but its owner and members) someone
        /// else's: its existence is not theirs to learn.
        case classNotFound
        /// Too many joins from one address.
        case rateLimited
        /// Its owner closed joining.
        case joiningClosed
        /// It has `membersPerClass` students.
        case classFull(Int)
        /// The owner tried to join their own class.
        case ownClass
        /// Not a student of the class.
        case notMember
        /// The database could not be read or written: try again.
        case notNow
    }

    package typealias Storage = ClassStore & AssignmentStore
    let store: any Storage
    let time: any TimeSource
    /// Joins per address: what bounds guessing class codes.
    let joins: RateLimiter
    let logger: Logger

    /// An owner keeps at most this many classes.
    package static let classesPerOwner = 100
    /// A class holds at most this many students.
    package static let membersPerClass = 1_000
    /// "My classes" (taught and joined) lists this many.
    package static let listLimit = 200

    package init(store: any Storage, time: any TimeSource, joins: RateLimiter, logger: Logger = Logger(label: "quizbox.classes")) {
        self.store = store
        self.time = time
        self.joins = joins
        self.logger = logger
    }

    /// Runs `body`, passing its own failures on and turning a storage error into `notNow`.
    func storing<T>(_ what: String, _ body: () async throws -> T) async throws(Failure) -> T {
        try await QuizUseCases.storing(what, failing: Failure.self, logger: logger, body)
    }

    /// A code as typed or linked: digits only ("123 456" and "123-456" are "123456"), nil when
    /// it cannot be one (so a long paste costs no lookup).
    package static func normalized(code: String) -> String? {
        guard code.utf8.count <= 32 else { return nil }
        let digits = code.filter(\.isASCII).filter(\.isNumber)
        guard digits.count == 6, digits.count + code.count(where: { " -".contains($0) }) == code.count else { return nil }
        return digits
    }
}
