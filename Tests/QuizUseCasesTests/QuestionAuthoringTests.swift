import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Writing questions on the use case: drafts checked whole, answered questions keep their kind,
/// and deleting never takes a player's points.
@Suite struct QuestionAuthoringTests {
    typealias Failure = QuestionAuthoring.Failure

    func singleChoice(_ text: String = "Which planet has rings?") -> QuestionDraft {
        var draft = QuestionDraft()
        draft.text = text
        draft.choices = [.init(text: "Saturn", correct: true), .init(text: "Mars", correct: false)]
        return draft
    }

    @Test func aDraftIsCheckedWholeAndABadOneStoresNothing() async throws {
        try await withUseCases { env in
            let (author, _, player) = try await env.people()
            let rome = try await env.rome(by: author)
            var draft = singleChoice("  ")
            draft.choices = [.init(text: "Saturn", correct: true), .init(text: "saturn", correct: true)]
            let refused = await failure(Failure.self) { _ = try await env.questions.create(draft, inTopic: rome.quiz.topicId, by: author) }
            guard case .invalid(let errors) = refused else { Issue.record("\(String(describing: refused))"); return }
            #expect(errors.map(\.field) == ["text", "choices[1].text", "choices"])
            var numeric = QuestionDraft()
            numeric.kind = .numeric
            numeric.text = "Moons of Mars?"
            #expect(await failure(Failure.self) { _ = try await env.questions.create(numeric, inTopic: rome.quiz.topicId, by: author) }
                    == .invalid([.init(field: "value", message: "is required: the correct number")]))
            #expect(await failure(Failure.self) { _ = try await env.questions.create(singleChoice(), inTopic: rome.quiz.topicId, by: player) }
                    == .notAuthor)
            #expect(await failure(Failure.self) { _ = try await env.questions.create(singleChoice(), inTopic: 999, by: author) } == .topicNotFound)
            #expect(try await env.questions.bank(ofTopic: rome.quiz.topicId, by: author).count == 2)
        }
    }

    @Test func aQuestionAddedToAQuizGoesAtItsEnd() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let rome = try await env.rome(by: author)
            let stored = try await env.questions.create(singleChoice(), inTopic: rome.quiz.topicId, appendingTo: rome.quiz.id, by: author)
            #expect(stored.question.id != nil)
            #expect(try await env.catalog.quiz(rome.quiz.id, by: author).questions.last?.text == "Which planet has rings?")
            #expect(try await env.questions.question(stored.question.id!, by: author).question == stored.question)
        }
    }

    /// Nothing on a quiz's page answers a name-them-all question, so a quiz holding one could never
    /// be finished: they stay in the topic's bank and are played from Games.
    @Test func aNameThemAllQuestionNeverJoinsAQuiz() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let rome = try await env.rome(by: author)
            let topic = rome.quiz.topicId
            var game = QuestionDraft()
            game.kind = .nameAll
            game.text = "Name the seven hills of Rome."
            game.items = ["Aventine", "Caelian", "Capitoline", "Esquiline", "Palatine", "Quirinal", "Viminal"].map { .init(answer: $0) }
            #expect(await failure(Failure.self) { _ = try await env.questions.create(game, inTopic: topic, appendingTo: rome.quiz.id, by: author) }
                    == .nameAllInQuiz)
            #expect(try await env.questions.bank(ofTopic: topic, by: author).count == 2, "nothing stored")
            // In the topic's bank it is fine, but the quiz editor does not offer it, and adding it anyway is refused.
            let stored = try await env.questions.create(game, inTopic: topic, by: author)
            let editor = try await env.catalog.quizEditor(rome.quiz.id, by: author)
            #expect(editor.available.isEmpty && editor.games == 1)
            #expect(await failure(CatalogAuthoring.Failure.self) {
                _ = try await env.catalog.changeQuestions(ofQuiz: rome.quiz.id, .add(stored.question.id!), by: author)
            } == .nameAllInQuiz(stored.question.id!))
            // Nor can a quiz's question become one.
            var edited = QuestionDraft(rome.questions[0])
            edited.kind = .nameAll
            edited.items = game.items
            #expect(await failure(Failure.self) { _ = try await env.questions.update(rome.questions[0].id!, to: edited, by: author) }
                    == .nameAllInQuiz)
            #expect(try await env.catalog.quiz(rome.quiz.id, by: author).questions.map(\.kind) == [.singleChoice, .trueFalse])
        }
    }

    @Test func anAnsweredQuestionKeepsItsKindAndIsArchivedWhenDeleted() async throws {
        try await withUseCases { env in
            let (author, _, player) = try await env.people()
            let rome = try await env.rome(by: author)
            try await env.play(rome, as: player)
            let answered = try #require(rome.questions.first?.id)
            var edited = QuestionDraft(rome.questions[0])
            edited.points = 40
            #expect(try await env.questions.update(answered, to: edited, by: author).question.points == 40)
            edited.kind = .trueFalse
            edited.answer = true
            #expect(await failure(Failure.self) { _ = try await env.questions.update(answered, to: edited, by: author) } == .kindLocked)

            #expect(try await env.questions.delete(answered, by: author) == rome.quiz.topicId)
            #expect(try await env.catalog.quiz(rome.quiz.id, by: author).questions.count == 1, "it leaves the quiz")
            #expect(await failure(Failure.self) { _ = try await env.questions.question(answered, by: author) } == .questionNotFound)
            #expect(try await env.store.attempt(id: 1, userId: player.id)?.answers.first?.pointsAwarded == 1, "the answer keeps its points")
        }
    }
}
