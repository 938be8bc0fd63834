import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// Arranging the catalog on the use case: the role, the name rules, order, publishing, and
/// what may not be deleted.
@Suite struct CatalogAuthoringTests {
    typealias Failure = CatalogAuthoring.Failure

    @Test func aPlayerChangesNothing() async throws {
        try await withUseCases { env in
            let (_, _, player) = try await env.people()
            #expect(await failure(Failure.self) { _ = try await env.catalog.outline(by: player) } == .notAuthor)
            #expect(await failure(Failure.self) { _ = try await env.catalog.create(.subject, in: nil, name: "Sneaky", description: "", by: player) }
                    == .notAuthor)
            #expect(try await env.store.outline().isEmpty)
        }
    }

    @Test func namesAreCheckedBeforeAnythingIsStoredAndAQuizHasATitle() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let blank = await failure(Failure.self) { _ = try await env.catalog.create(.subject, in: nil, name: " ", description: "", by: author) }
            #expect(blank == .invalid([.init(field: "name", message: "is empty")]))
            let subject = try await env.catalog.create(.subject, in: nil, name: "Music", description: "", by: author)
            let topic = try await env.catalog.create(.topic, in: subject, name: "Opera", description: "", by: author)
            let long = String(repeating: "x", count: CatalogText.maxNameLength + 1)
            let quiz = await failure(Failure.self) { _ = try await env.catalog.create(.quiz, in: topic, name: long, description: "", by: author) }
            #expect(quiz == .invalid([.init(field: "title", message: "is longer than 200 characters")]))
            #expect(await failure(Failure.self) { _ = try await env.catalog.create(.quiz, in: 999, name: "Arias", description: "", by: author) }
                    == .notFound(.topic), "the missing parent is named")
            #expect(try await env.store.outline().flatMap(\.topics).flatMap(\.quizzes).isEmpty)
        }
    }

    @Test func entriesMoveAmongTheirSiblingsAndAQuizIsPublished() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let science = try await env.catalog.create(.subject, in: nil, name: "Science", description: "", by: author)
            let music = try await env.catalog.create(.subject, in: nil, name: "Music", description: "", by: author)
            try await env.catalog.move(.subject, music, .up, by: author)
            #expect(try await env.catalog.outline(by: author).map(\.name) == ["Music", "Science"])
            try await env.catalog.move(.subject, music, .up, by: author)
            #expect(try await env.catalog.outline(by: author).map(\.id) == [music, science], "the first stays first")
            #expect(await failure(Failure.self) { try await env.catalog.move(.topic, 999, .down, by: author) } == .notFound(.topic))

            let topic = try await env.catalog.create(.topic, in: music, name: "Opera", description: "", by: author)
            let quiz = try await env.catalog.create(.quiz, in: topic, name: "Arias", description: "", by: author)
            #expect(try await env.store.allQuizzes().isEmpty, "a new quiz is a draft")
            try await env.catalog.update(.quiz, quiz, CatalogChange(published: true), by: author)
            #expect(try await env.store.allQuizzes().map(\.quiz.title) == ["Arias"])
        }
    }

    @Test func onlyEmptyEntriesAndUnplayedQuizzesAreDeleted() async throws {
        try await withUseCases { env in
            let (author, _, player) = try await env.people()
            let rome = try await env.rome(by: author)
            let history = try #require(try await env.catalog.outline(by: author).first?.id)
            #expect(await failure(Failure.self) { try await env.catalog.delete(.subject, history, by: author) } == .notEmpty)
            try await env.play(rome, as: player)
            #expect(await failure(Failure.self) { try await env.catalog.delete(.quiz, rome.quiz.id, by: author) } == .quizHasAttempts)
            let empty = try await env.catalog.create(.subject, in: nil, name: "Empty", description: "", by: author)
            try await env.catalog.delete(.subject, empty, by: author)
            #expect(await failure(Failure.self) { try await env.catalog.delete(.subject, empty, by: author) } == .notFound(.subject))
        }
    }

    @Test func aQuizHoldsQuestionsOfItsTopicInTheOrderGiven() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let rome = try await env.rome(by: author)
            let ids = rome.questions.compactMap(\.id)
            let quiz = try await env.catalog.create(.quiz, in: rome.quiz.topicId, name: "Short", description: "", by: author)
            #expect(try await env.catalog.quizEditor(quiz, by: author).available.compactMap(\.id) == ids)
            #expect(try await env.catalog.changeQuestions(ofQuiz: quiz, .add(ids[0]), by: author))
            #expect(try await env.catalog.changeQuestions(ofQuiz: quiz, .add(ids[1]), by: author))
            #expect(try await !env.catalog.changeQuestions(ofQuiz: quiz, .add(ids[1]), by: author), "already there")
            #expect(try await env.catalog.changeQuestions(ofQuiz: quiz, .moveUp(ids[1]), by: author))
            #expect(try await !env.catalog.changeQuestions(ofQuiz: quiz, .moveUp(ids[1]), by: author), "first already")
            #expect(try await env.catalog.quiz(quiz, by: author).questions.compactMap(\.id) == [ids[1], ids[0]])
            #expect(try await env.catalog.quizEditor(quiz, by: author).available.isEmpty)

            #expect(await failure(Failure.self) { try await env.catalog.setQuestions([999], ofQuiz: quiz, by: author) } == .questionNotInTopic(999))
            let tooMany = Array(Int64(1)...Int64(CatalogAuthoring.maxQuizQuestions + 1))
            #expect(await failure(Failure.self) { try await env.catalog.setQuestions(tooMany, ofQuiz: quiz, by: author) }
                    == .tooManyQuestions(limit: CatalogAuthoring.maxQuizQuestions))
            #expect(try await env.catalog.quiz(quiz, by: author).questions.count == 2, "refusals change nothing")
        }
    }
}
