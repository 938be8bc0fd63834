import Foundation
import QuizCore
import QuizStore

/// Writing the questions of a topic's bank, any kind, from a `QuestionDraft`: for authors and
/// admins. A draft is checked whole before anything is stored; a question players have answered
/// keeps its kind, and deleting it archives it so their scores stay.
package struct QuestionAuthoring: Sendable {
    package enum Failure: Error, Equatable {
        case notAuthor
        /// No such topic (or, adding to a quiz, no such quiz in it).
        case topicNotFound
        case questionNotFound
        /// Every rule the draft breaks.
        case invalid([Question.ValidationError])
        case kindLocked
        /// A name-them-all question added to a quiz, or a quiz's question made one: it is played
        /// as a game of its own (the Games page), never inside a quiz.
        case nameAllInQuiz
        /// More new pictures than `picturesPerHour`.
        case tooManyPictures
        /// More new sound clips than `soundsPerHour`.
        case tooManySounds
    }

    /// A question as stored, with the topic whose bank holds it.
    package struct Stored: Sendable {
        package var topicId: Int64
        package var question: Question
    }

    let store: any AuthoringStore
    let time: any TimeSource
    /// Where pictures are kept: the post images' files, by content hash.
    let images: ImageFiles
    /// New pictures per author per hour; nil for no limit.
    let limiter: RateLimiter?

    /// New pictures one author may upload in an hour.
    package static let picturesPerHour = 60
    /// New sound clips one author may upload in an hour: up to 8 MiB each, a music round's worth.
    package static let soundsPerHour = 30

    package init(store: any AuthoringStore, time: any TimeSource, images: ImageFiles, limiter: RateLimiter? = nil) {
        self.store = store
        self.time = time
        self.images = images
        self.limiter = limiter
    }

    /// The topic's questions, oldest first.
    package func bank(ofTopic topicId: Int64, by user: User) async throws -> [Question] {
        try author(user)
        guard let questions = try await store.topicQuestions(topicId: topicId) else { throw Failure.topicNotFound }
        return questions
    }

    package func question(_ id: Int64, by user: User) async throws -> Stored {
        try author(user)
        guard let (topicId, question) = try await store.managedQuestion(id: id) else { throw Failure.questionNotFound }
        return Stored(topicId: topicId, question: question)
    }

    /// Adds it to the topic's bank and, when `quizId` is given, at the end of that quiz.
    package func create(_ draft: QuestionDraft, inTopic topicId: Int64, appendingTo quizId: Int64? = nil, by user: User) async throws -> Stored {
        try author(user)
        var question = try Self.valid(draft, id: nil)
        try await storePicture(draft, by: user)
        do {
            question.id = try await store.createQuestion(question, topicId: topicId, appendingTo: quizId, at: time.now())
            try restorePicture(draft)
        } catch StoreError.notFound {
            throw Failure.topicNotFound
        } catch AuthoringError.nameAllInQuiz {
            throw Failure.nameAllInQuiz
        }
        return Stored(topicId: topicId, question: question)
    }

    /// Replaces its content; past answers keep their verdicts and points.
    package func update(_ id: Int64, to draft: QuestionDraft, by user: User) async throws -> Stored {
        try author(user)
        var draft = draft
        guard let current = try await store.managedQuestion(id: id) else { throw Failure.questionNotFound }
        draft.currentPicture = current.question.picture
        draft.currentSound = current.question.audio
        let question = try Self.valid(draft, id: id)
        try await storePicture(draft, by: user)
        do {
            try await store.updateQuestion(question)
            try restorePicture(draft)
        } catch StoreError.notFound {
            throw Failure.questionNotFound
        } catch AuthoringError.kindLocked {
            throw Failure.kindLocked
        } catch AuthoringError.nameAllInQuiz {
            throw Failure.nameAllInQuiz
        }
        return try await self.question(id, by: user)
    }

    /// It leaves every quiz; returns the topic it was in.
    package func delete(_ id: Int64, by user: User) async throws -> Int64 {
        let stored = try await question(id, by: user)
        do {
            try await store.deleteQuestion(id: id, at: time.now())
        } catch StoreError.notFound {
            throw Failure.questionNotFound
        }
        return stored.topicId
    }

    /// Writes a new picture's file before its row, within the author's hourly allowance. A file
    /// whose row never comes is harmless: it is named by its bytes and holds nothing secret.
    private func storePicture(_ draft: QuestionDraft, by user: User) async throws {
        if case .replace(let data) = draft.picture {
            if let limiter, !(try await limiter.allow([.init(key: "question-picture:\(user.id)", limit: Self.picturesPerHour, window: 3600)])) {
                throw Failure.tooManyPictures
            }
            _ = try images.store(data)
        }
        if case .replace(let data) = draft.sound {
            if let limiter, !(try await limiter.allow([.init(key: "question-sound:\(user.id)", limit: Self.soundsPerHour, window: 3600)])) {
                throw Failure.tooManySounds
            }
            _ = try images.storeSound(data)
        }
    }

    /// A post sharing these bytes may have been deleted, and the file with it, between storing the
    /// file and the row: write it again (a no-op when it is there). Clips are no post's.
    private func restorePicture(_ draft: QuestionDraft) throws {
        if case .replace(let data) = draft.picture { _ = try images.store(data) }
    }

    private func author(_ user: User) throws {
        guard user.role.canAuthor else { throw Failure.notAuthor }
    }

    private static func valid(_ draft: QuestionDraft, id: Int64?) throws -> Question {
        switch draft.question(id: id) {
        case .success(let question): question
        case .failure(let problems): throw Failure.invalid(problems.errors)
        }
    }
}

