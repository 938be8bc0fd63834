import CoreMetrics
import Foundation
import QuizCore
import QuizStore

/// Questions on their own: a random one, any one by its address, answered alone. The first
/// answer of the day to a question counts.
package struct SingleQuestion: Sendable {
    package enum Failure: Error, Equatable {
        /// No such question, or a name-them-all question (played as a game, not answered alone).
        case notFound
        /// No question in the chosen subject or topic.
        case noneMatches
        case badAnswer(AnswerProblem)
    }

    package typealias Storage = CatalogStore & PracticeStore
    let store: any Storage
    let time: any TimeSource
    let metrics: ActivityMetrics
    /// Choices are shown under public ids, in an order of this key's (see `ChoiceKey`).
    let key: ChoiceKey

    package init(store: any Storage, time: any TimeSource, key: ChoiceKey, metrics: ActivityMetrics = .off) {
        self.store = store
        self.time = time
        self.key = key
        self.metrics = metrics
    }

    /// The subjects and topics a random question may come from.
    package func subjects() async throws -> [SubjectTopics] {
        try await store.subjectsWithTopics()
    }

    /// A random playable question, from the subject or topic when given.
    package func random(subjectId: Int64?, topicId: Int64?, userId: Int64) async throws -> Question {
        let pool = try await store.practiceCandidates().filter {
            // Questions with a right answer: a random poll or slide asks nothing to get right.
            PracticeSettings.playableKinds.contains($0.kind) && (subjectId == nil || $0.subjectId == subjectId)
                && (topicId == nil || $0.topicId == topicId)
        }
        guard let pick = pool.randomElement() else { throw Failure.noneMatches }
        return try await question(id: pick.id, userId: userId)
    }

    /// The question with its choices under their public ids, in their order outside any attempt.
    /// Showing it starts its clock in any timed round of the player's that holds it, so a timed
    /// question's text is never read on its own before its time starts.
    package func question(id: Int64, userId: Int64) async throws -> Question {
        let question = try await storedQuestion(id: id, userId: userId)
        return key.ids(for: question).presenting(question)
    }

    /// As stored, with stored ids; its clock started as `question(id:userId:)` starts it.
    private func storedQuestion(id: Int64, userId: Int64) async throws -> Question {
        guard let question = try await store.question(id: id), question.kind != .nameAll else { throw Failure.notFound }
        try await store.startClocks(userId: userId, questionId: id, at: time.now())
        return question
    }

    package struct Answered: Sendable {
        package var stored: SingleAnswer
        package var question: Question
        package var verdict: Verdict
        package var credit: Credit
    }

    package func answer(_ answer: AnswerInput, questionId: Int64, userId: Int64) async throws -> Answered {
        let question = try await storedQuestion(id: questionId, userId: userId)
        let ids = key.ids(for: question)
        let graded: GradedAnswer
        do {
            graded = try GradedAnswer(answer, shownAs: ids, for: question)
        } catch {
            throw Failure.badAnswer(error)
        }
        let stored = try await store.recordSingleAnswer(userId: userId, questionId: questionId, answer: graded.stored(),
                                                        isCorrect: graded.isCorrect, points: graded.points(of: question.points), at: time.now())
        metrics.singleAnswers.increment()
        return Answered(stored: stored, question: ids.presenting(question), verdict: graded.verdict, credit: graded.credit)
    }

    package struct Result: Sendable {
        package var stored: SingleAnswer
        /// What was answered, when it could be read.
        package var given: GivenAnswer?
        package var question: Question
    }

    /// An answer the player gave to the question, as its page shows it afterwards (in public ids,
    /// however it was stored).
    package func result(questionId: Int64, answerId: Int64, userId: Int64) async throws -> Result {
        guard let stored = try await store.singleAnswer(id: answerId, userId: userId), stored.questionId == questionId,
              let question = try await store.question(id: questionId) else { throw Failure.notFound }
        let ids = key.ids(for: question)
        return Result(stored: stored, given: GivenAnswer(stored: stored.given).map { ids.presenting($0) }, question: ids.presenting(question))
    }
}
