import Foundation
import Logging
import QuizCore
import QuizStore

/// Assignments: a quiz set as homework with a deadline. Its owner creates it and moves its
/// window (`Assignments+Owning`); players join with its code, with a nickname or signed in, and
/// play it on their own (`Assignments+Joining`, `Assignments+Playing`) and see their own result
/// (`Assignments+Result`); the owner reads the report (`Assignments+Report`, as files in
/// `+ReportFiles`). The window is the server's: nothing is taken before it opens or after it
/// closes, and every rule reads the injected clock.
package struct Assignments: Sendable {
    package enum Failure: StorageFailure, Equatable, Sendable {
        /// No such quiz, or not one this user may host.
        case quizNotFound
        /// The quiz has no question an assignment can play.
        case noPlayableQuestions
        /// Every broken rule of the form, each with its field.
        case invalid([Assignment.Invalid])
        /// No assignment with that code or id, or (for an owner's request) someone else's: its
        /// existence is not theirs to learn.
        case assignmentNotFound
        /// Too many joins, resumes or rejoins from one address.
        case rateLimited
        case nicknameInvalid
        case nicknameTaken
        /// A secret that is not the player's, or a player of another assignment.
        case notResumable
        /// No player with that nickname and rejoin code.
        case badRejoin
        /// Before it opens.
        case notOpen
        /// After it closes (an attempt cut off by the close is over).
        case closed
        /// Every attempt allowed was made.
        case noAttemptsLeft
        /// No attempt being played.
        case noAttempt
        /// A question the attempt has not shown yet (or has not at all).
        case notShown
        /// After the question's time (and the grace).
        case timeUp
        /// The question has its answer: the first one stands.
        case alreadyAnswered
        case badAnswer(AnswerProblem)
        /// No attempt is over: results come after answering, never before.
        case notFinished
        /// A class assignment (`Assignment.classId`) asks its players to sign in.
        case signInRequired
        /// A class assignment, and the one signed in is not a student of its class; or (when
        /// assigning) a class that is not the teacher's.
        case notInClass
        /// The database could not be read or written: try again.
        case notNow
    }

    /// How a player proves who they are: the secret their browser keeps (from joining, resuming
    /// or rejoining), or their signed-in account.
    package enum Pass: Sendable, Equatable {
        case secret(playerId: Int64, secret: String)
        case user(Int64)
    }

    package typealias Storage = AssignmentStore & CatalogStore & PracticeStore & ClassStore
    let store: any Storage
    let time: any TimeSource
    /// Choices are shown under public ids, in orders of this key's (see `ChoiceKey`).
    let key: ChoiceKey
    /// Joins, resumes and rejoins per address: what bounds guessing codes and secrets.
    let joins: RateLimiter
    let logger: Logger

    /// Allowance for network latency after a question's time limit, as in solo play.
    package static var grace: TimeInterval { PlayQuiz.grace }
    /// "My assignments" lists this many, newest first.
    package static let listLimit = 200

    package init(store: any Storage, time: any TimeSource, key: ChoiceKey, joins: RateLimiter,
                 logger: Logger = Logger(label: "quizbox.assignments")) {
        self.store = store
        self.time = time
        self.key = key
        self.joins = joins
        self.logger = logger
    }

    /// Runs `body`, passing its own failures on and turning a storage error into `notNow`.
    func storing<T>(_ what: String, _ body: () async throws -> T) async throws(Failure) -> T {
        try await QuizUseCases.storing(what, failing: Failure.self, logger: logger, body)
    }

    /// The assignment's questions that still exist, in its order.
    func questions(of assignment: Assignment) async throws -> [Question] {
        var questions: [Question] = []
        for id in assignment.questionIds {
            if let question = try await store.question(id: id) { questions.append(question) }
        }
        return questions
    }
}
