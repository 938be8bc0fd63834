import HTTPTypes
import Hummingbird
import QuizText
import QuizUseCases

/// Every refusal of the assignments use case as a page a person understands, in their language:
/// never a 500. The pages handle the failures they can do something with (a form shown again, a
/// redirect) themselves and leave the rest to this.
enum AssignmentMessages {
    /// The page for `failure`, on the error template.
    static func page(_ failure: Assignments.Failure, pages: Pages, visit: Visit) -> Response {
        pages.refusal(refusal(failure, t: visit.t), visit: visit)
    }

    /// Thrown where a handler returns no page of its own (a download); `PageMiddleware` shows it.
    static func refusal(_ failure: Assignments.Failure, t: Texts) -> PageRefusal {
        let (status, heading, message) = words(failure, t: t)
        return PageRefusal(status: status, heading: heading, message: message)
    }

    static func words(_ failure: Assignments.Failure, t: Texts) -> (HTTPResponse.Status, String, String) {
        switch failure {
        case .quizNotFound: (.notFound, t("Quiz not found"), t("There is no quiz here that you may assign."))
        case .noPlayableQuestions: (.unprocessableContent, t("Nothing to assign"), t("This quiz has no question an assignment can play."))
        case .invalid: (.unprocessableContent, t("Please check the form"), t("Please go back and try again."))
        case .assignmentNotFound:
            (.notFound, t("No assignment with this code"), t("Check the code with whoever gave it to you: it has six digits."))
        case .rateLimited:
            (.tooManyRequests, t("Too many tries"), t("Too many joins from your network in a short time. Wait a minute and try again."))
        case .nicknameInvalid: (.unprocessableContent, t("Choose another nickname"), t("That nickname cannot be used."))
        case .nicknameTaken: (.conflict, t("Choose another nickname"), t("Someone in this assignment already has that nickname."))
        case .notResumable, .badRejoin:
            (.forbidden, t("We could not find you"), t("Join again, or continue with your nickname and rejoin code."))
        case .notOpen: (.conflict, t("Not open yet"), t("This assignment has not opened yet."))
        case .closed: (.gone, t("This assignment is closed"), t("Answers are no longer taken."))
        case .noAttemptsLeft: (.conflict, t("No attempts left"), t("You have used every attempt this assignment allows."))
        case .noAttempt, .notShown, .notFinished:
            (.conflict, t("Nothing to answer here"), t("Go back to the assignment to carry on where you were."))
        case .timeUp: (.conflict, t("Time is up"), t("The time for this question had run out."))
        case .alreadyAnswered: (.conflict, t("Already answered"), t("You already answered this question; your first answer counts."))
        case .badAnswer: (.unprocessableContent, t("That answer does not fit this question."), t("Please go back and try again."))
        case .signInRequired:
            (.forbidden, t("Sign in to join"), t("This assignment is for a class: sign in with the account you joined the class with."))
        case .notInClass:
            (.forbidden, t("Not in this class"), t("This assignment is for a class you are not in. Join the class with its code first."))
        case .notNow: (.serviceUnavailable, t("Not right now"), t("The server could not read or save this just now. Try again in a moment."))
        }
    }
}
