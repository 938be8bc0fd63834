import Foundation
import QuizCore
import QuizStore

/// Arranging the catalog: subjects, topics and quizzes created, renamed, moved, published and
/// deleted, and the questions a quiz holds. For authors and admins; every change is checked
/// before anything is stored.
package struct CatalogAuthoring: Sendable {
    package enum Failure: Error, Equatable {
        case notAuthor
        /// No such subject, topic or quiz; for a new one, its parent.
        case notFound(CatalogLevel)
        /// Every rule the name and description break; the name is called "title" for a quiz.
        case invalid([Question.ValidationError])
        /// A subject or topic that still holds something.
        case notEmpty
        /// People have played the quiz: it keeps their scores, so it is unpublished, not deleted.
        case quizHasAttempts
        case questionNotInTopic(Int64)
        case tooManyQuestions(limit: Int)
        /// A name-them-all question is played as a game of its own, never inside a quiz.
        case nameAllInQuiz(Int64)
        /// What was sent as a cover is not a picture Quizbox takes (why, as "is …").
        case badCover(String)
        /// More new pictures than the author's hourly allowance (question pictures count too).
        case tooManyPictures
    }

    package enum Direction: Sendable {
        case up, down
    }

    /// One change to a quiz's list of questions, as the editor makes them.
    package enum QuestionListChange: Sendable, Equatable {
        case add(Int64), remove(Int64), moveUp(Int64), moveDown(Int64)
    }

    /// A topic with its question bank.
    package struct TopicBank: Sendable {
        package var topic: OutlineTopic
        package var questions: [Question]
    }

    /// A quiz as its editor shows it: its questions, its topic, and the topic's questions it lacks.
    package struct QuizEditor: Sendable {
        package var quiz: ManagedQuiz
        package var topicName: String
        package var available: [Question]
        /// The topic's name-them-all questions: played from Games, so never offered to a quiz.
        package var games: Int
    }

    package static var maxQuizQuestions: Int { 1_000 }

    let store: any AuthoringStore
    let images: ImageFiles?
    let limiter: RateLimiter?

    package init(store: any AuthoringStore, images: ImageFiles? = nil, limiter: RateLimiter? = nil) {
        self.store = store
        self.images = images
        self.limiter = limiter
    }

    /// Everything, drafts included, in catalog order.
    package func outline(by user: User) async throws -> [OutlineSubject] {
        try author(user)
        return try await store.outline()
    }

    package func subject(_ id: Int64, by user: User) async throws -> OutlineSubject {
        guard let subject = try await outline(by: user).first(where: { $0.id == id }) else { throw Failure.notFound(.subject) }
        return subject
    }

    package func topic(_ id: Int64, by user: User) async throws -> TopicBank {
        guard let topic = try await outline(by: user).lazy.flatMap(\.topics).first(where: { $0.id == id }),
              let questions = try await store.topicQuestions(topicId: id) else { throw Failure.notFound(.topic) }
        return TopicBank(topic: topic, questions: questions)
    }

    package func quiz(_ id: Int64, by user: User) async throws -> ManagedQuiz {
        try author(user)
        guard let quiz = try await store.managedQuiz(id: id) else { throw Failure.notFound(.quiz) }
        return quiz
    }

    package func quizEditor(_ id: Int64, by user: User) async throws -> QuizEditor {
        let managed = try await quiz(id, by: user)
        let topicId = managed.quiz.topicId
        async let bank = store.topicQuestions(topicId: topicId)
        async let outline = store.outline()
        let inQuiz = Set(managed.questions.compactMap(\.id))
        let topicQuestions = try await bank ?? []
        return QuizEditor(quiz: managed,
                          topicName: try await outline.lazy.flatMap(\.topics).first { $0.id == topicId }?.name ?? "Topic",
                          available: topicQuestions.filter { !inQuiz.contains($0.id ?? 0) && $0.kind != .nameAll },
                          games: topicQuestions.count { $0.kind == .nameAll })
    }

    /// Adds it at the end of `parent` (nil for a subject); a new quiz is a draft.
    package func create(_ level: CatalogLevel, in parent: Int64?, name: String, description: String, by user: User) async throws -> Int64 {
        try author(user)
        try Self.check(level, name: name, description: description)
        let parentLevel: CatalogLevel = level == .quiz ? .topic : .subject
        return try await storing(parentLevel) { try await store.create(level, parent: parent, name: name, description: description) }
    }

    /// The given fields change, all at once. A quiz is published or unpublished this way too.
    package func update(_ level: CatalogLevel, _ id: Int64, _ change: CatalogChange, by user: User) async throws {
        try author(user)
        try Self.check(level, name: change.name, description: change.description)
        try await storing(level) { try await store.update(level, id: id, change) }
    }

    /// A subject's or quiz's cover picture (PNG, JPEG or WebP, checked from its bytes, at most
    /// 5 MiB), or none with nil: tiles without one get a cover drawn from their name.
    package func setCover(_ level: CatalogLevel, _ id: Int64, _ data: Data?, by user: User) async throws {
        try author(user)
        guard level != .topic, let images else { throw Failure.notFound(level) }
        var change = CatalogChange.CoverChange.remove
        if let data {
            let picture: QuestionPicture
            switch QuestionPicture.carried(data, alt: "") {
            case .success(let carried): picture = carried
            case .failure(let refusal): throw Failure.badCover(refusal.message)
            }
            if let limiter, !(try await limiter.allow([.init(key: "question-picture:\(user.id)", limit: QuestionAuthoring.picturesPerHour,
                                                              window: 3600)])) {
                throw Failure.tooManyPictures
            }
            // The file before its row: a file whose row never comes is harmless, named by its bytes.
            let stored = try images.store(data)
            change = .set(CoverPicture(hash: stored.hash, type: stored.type, width: picture.width, height: picture.height))
        }
        try await storing(level) { try await store.update(level, id: id, CatalogChange(cover: change)) }
    }

    package func cover(_ level: CatalogLevel, _ id: Int64, by user: User) async throws -> CoverPicture? {
        try author(user)
        return try await storing(level) { try await store.cover(level, id: id) }
    }

    /// One place up or down among its siblings.
    package func move(_ level: CatalogLevel, _ id: Int64, _ direction: Direction, by user: User) async throws {
        let subjects = try await outline(by: user)
        let siblings: [Int64] = switch level {
        case .subject: subjects.map(\.id)
        case .topic: subjects.first { $0.topics.contains { $0.id == id } }?.topics.map(\.id) ?? []
        case .quiz: subjects.lazy.flatMap(\.topics).first { $0.quizzes.contains { $0.id == id } }?.quizzes.map(\.id) ?? []
        }
        guard let index = siblings.firstIndex(of: id) else { throw Failure.notFound(level) }
        try await storing(level) { try await store.move(level, id: id, to: index + 1 + (direction == .up ? -1 : 1)) }
    }

    /// Only an empty subject or topic, and a quiz nobody has played.
    package func delete(_ level: CatalogLevel, _ id: Int64, by user: User) async throws {
        try author(user)
        try await storing(level) { try await store.delete(level, id: id) }
    }

    /// The quiz holds these questions of its topic, in this order.
    package func setQuestions(_ ids: [Int64], ofQuiz quizId: Int64, by user: User) async throws {
        try author(user)
        guard ids.count <= Self.maxQuizQuestions else { throw Failure.tooManyQuestions(limit: Self.maxQuizQuestions) }
        try await storing(.quiz) { try await store.setQuizQuestions(quizId: quizId, questionIds: ids) }
    }

    /// Applies one change to the quiz's list; false when it changes nothing (adding a question it
    /// holds, moving the first one up).
    package func changeQuestions(ofQuiz quizId: Int64, _ change: QuestionListChange, by user: User) async throws -> Bool {
        var ids = try await quiz(quizId, by: user).questions.compactMap(\.id)
        switch change {
        case .add(let id) where !ids.contains(id):
            ids.append(id)
        case .remove(let id):
            guard let index = ids.firstIndex(of: id) else { return false }
            ids.remove(at: index)
        case .moveUp(let id):
            guard let index = ids.firstIndex(of: id), index > 0 else { return false }
            ids.swapAt(index, index - 1)
        case .moveDown(let id):
            guard let index = ids.firstIndex(of: id), index < ids.count - 1 else { return false }
            ids.swapAt(index, index + 1)
        case .add:
            return false
        }
        try await setQuestions(ids, ofQuiz: quizId, by: user)
        return true
    }

    private func author(_ user: User) throws {
        guard user.role.canAuthor else { throw Failure.notAuthor }
    }

    private static func check(_ level: CatalogLevel, name: String?, description: String?) throws {
        let errors = CatalogText.validationErrors(name: name, description: description, nameField: level == .quiz ? "title" : "name")
        guard errors.isEmpty else { throw Failure.invalid(errors) }
    }

    /// The store's refusals as this use case's failures; `level` is what is missing when not found.
    private func storing<T>(_ level: CatalogLevel, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch StoreError.notFound {
            throw Failure.notFound(level)
        } catch AuthoringError.notEmpty {
            throw Failure.notEmpty
        } catch AuthoringError.quizHasAttempts {
            throw Failure.quizHasAttempts
        } catch AuthoringError.questionNotInTopic(let id) {
            throw Failure.questionNotInTopic(id)
        } catch AuthoringError.nameAllInQuiz(let id) {
            throw Failure.nameAllInQuiz(id)
        }
    }
}

