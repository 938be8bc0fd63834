import QuizCore
import QuizStore
import QuizUseCases

// The use cases refuse with cases; what a person reads is written here, at the edge, in English.
// Pages, the API and live games translate these sentences through the catalog (`Texts`): each is
// a pattern there, its numbers and names filled in.

extension ManageUsers.Failure {
    var message: String {
        switch self {
        case .notAdmin: "This needs an admin account."
        case .searchTooLong(let limit): "Search for at most \(limit) characters."
        case .notFound: "No user with that id."
        case .lastAdmin: "This is the last admin: make someone else an admin first."
        }
    }
}

extension QuestionAuthoring.Failure {
    var message: String {
        switch self {
        case .notAuthor: "This needs an author or admin account."
        case .topicNotFound: "No topic with that id."
        case .questionNotFound: "No question with that id."
        case .invalid(let errors): "The question breaks \(errors.count) rule(s), first: \(errors.first.map { "\($0.field) \($0.message)" } ?? "")."
        case .kindLocked: "Players have answered this question, so its kind stays; add a new question instead."
        case .nameAllInQuiz: CatalogAuthoring.Failure.nameAllMessage
        case .tooManyPictures: CatalogAuthoring.Failure.tooManyPictures.message
        case .tooManySounds: "You have added \(QuestionAuthoring.soundsPerHour) sound clips in the last hour; wait a while before adding more."
        }
    }
}

extension CatalogAuthoring.Failure {
    /// Why a change was refused, for a person; the field rules say their own.
    var message: String {
        switch self {
        case .notAuthor: "This needs an author or admin account."
        case .notFound(let level): "No \(level.rawValue) with that id."
        case .invalid(let errors): errors.map { "\($0.field) \($0.message)." }.joined(separator: " ")
        case .notEmpty: "It still holds quizzes or questions: delete or move them first."
        case .quizHasAttempts: "People have played this quiz, so it is kept for their scores: unpublish it instead."
        case .questionNotInTopic(let id): "Question \(id) is not in this quiz's topic."
        case .tooManyQuestions(let limit): "A quiz holds at most \(limit) questions."
        case .nameAllInQuiz: Self.nameAllMessage
        case .badCover(let why): "The cover \(why)."
        case .tooManyPictures: "You have added \(QuestionAuthoring.picturesPerHour) pictures in the last hour; wait a while before adding more."
        }
    }

    static var nameAllMessage: String {
        "A name-them-all question is played on its own from Games, not inside a quiz: keep it in the topic's bank."
    }
}

extension Feed.Failure {
    var message: String { Feed.invalidCursorMessage }
}

extension Feed {
    static var invalidCursorMessage: String { "That cursor is not one this server handed out: start from the first page." }
}

extension DeletePost.Failure {
    var message: String {
        switch self {
        case .notFound: "No post with that id."
        case .notYours: "Only its author can delete a post."
        }
    }
}

extension Following.Failure {
    var message: String {
        switch self {
        case .noSuchUser(let username): People.noSuchUserMessage(username)
        case .cannotFollowSelf: "You cannot follow yourself: your own posts are always in your feed."
        case .tooManyFollows(let limit): "You follow \(limit) people, the most anyone can: unfollow someone first."
        }
    }
}

extension People.Failure {
    var message: String {
        switch self {
        case .noSuchUser(let username): People.noSuchUserMessage(username)
        case .invalidCursor: Feed.invalidCursorMessage
        case .queryTooLong(let max): "Search for at most \(max) characters."
        }
    }
}

extension People {
    static func noSuchUserMessage(_ username: String) -> String { "No user is called \(username.prefix(64))." }
}

extension PostToFeed.Failure {
    /// What went wrong, for the person who posted.
    var message: String {
        switch self {
        case .invalidText(let message): message
        case .tooManyPosts: "You are posting faster than Quizbox allows. Wait a few minutes and try again."
        case .imageTooLarge(let maxBytes): "The image is larger than the limit of \(maxBytes >> 20) MiB. Nothing was posted."
        case .imageTooManyPixels(let width, let height):
            "The image is \(width) × \(height) pixels, over the limit of \(PostImageType.maxPixels / 1_000_000) megapixels. Nothing was posted."
        case .notAnImage:
            "That file is not a PNG, JPEG or WebP image (checked from its contents, not its name). Nothing was posted."
        case .imageQuotaExceeded(let quota):
            "Your posts' pictures would take more than your \(quota >> 20) MiB. Delete some posts with pictures first. Nothing was posted."
        }
    }
}

extension Register {
    static var tooManyMessage: String { "Too many accounts were made from this address lately. Try again later." }
}

extension LogIn {
    static var tooManyMessage: String { "Too many log-in attempts. Wait a minute and try again." }
}

extension NameAllGames {
    static var tooManyGuessesMessage: String { "Slow down: at most \(guessesPerSecond) guesses a second." }
}
