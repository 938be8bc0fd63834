import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

@Suite struct BrowseCatalogTests {
    @Test func theCatalogIsReadDownFromSubjectsAndMissingPartsAreNamed() async throws {
        try await withUseCases { env in
            let questions = [Question(text: "Is 2 even?", difficulty: .easy, points: 1, body: .trueFalse(true))]
            _ = try await env.store.importBank(Bank(subjects: [BankSubject(name: "Maths", topics: [
                BankTopic(name: "Numbers", quizzes: [BankQuiz(title: "Even or odd", questions: questions)]),
            ])]), at: env.time.now())
            let browse = BrowseCatalog(store: env.store, key: env.choiceKey)
            let subject = try #require(try await browse.subjects().first)
            #expect(subject.name == "Maths")
            let topic = try #require(try await browse.topics(subjectId: subject.id).first)
            let quiz = try #require(try await browse.quizzes(topicId: topic.id).first)
            #expect(try await browse.quiz(id: quiz.id).title == "Even or odd")
            #expect(try await browse.questions(quizId: quiz.id).map(\.text) == ["Is 2 even?"])
            await #expect(throws: BrowseCatalog.Failure.subjectNotFound) { try await browse.topics(subjectId: 999) }
            await #expect(throws: BrowseCatalog.Failure.topicNotFound) { try await browse.quizzes(topicId: 999) }
            await #expect(throws: BrowseCatalog.Failure.quizNotFound) { try await browse.questions(quizId: 999) }
        }
    }
}
