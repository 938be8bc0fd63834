import Foundation
import QuizCore
import QuizStore
import Testing

/// `importBatches`: a large file stored a batch at a time, still all or nothing.
@Suite struct BatchImportTests {
    static func entry(_ text: String, topic: String, subject: String = "Maths") -> BankEntry {
        BankEntry(question: Question(text: text, body: .trueFalse(true)), subject: subject, topic: topic)
    }

    @Test func batchesBecomeOneQuizPerTopicWithQuestionsInFileOrder() async throws {
        try await withStore(.sqlite) { store in
            var batches: [[BankEntry]] = [
                [Self.entry("A1", topic: "A"), Self.entry("B1", topic: "B"), Self.entry("A2", topic: "A")],
                [Self.entry("B2", topic: "B"), Self.entry("A3", topic: "a"), Self.entry("C1", topic: "C", subject: "maths")],
            ]
            let summary = try await store.importBatches(quizTitle: "Big file", at: t0) { batches.isEmpty ? nil : batches.removeFirst() }
            #expect(summary == ImportSummary(subjects: 1, topics: 3, quizzes: 4, questions: 6))
            let quizzes = try await store.allQuizzes()
            #expect(quizzes.map(\.topicName) == ["A", "A", "B", "C"], "\"a\" joins topic A with a quiz of its own, as importBank does")
            #expect(Set(quizzes.map(\.quiz.title)) == ["Big file"])
            var texts: [[String]] = []
            for quiz in quizzes { texts.append(try await store.questions(quizId: quiz.quiz.id).map(\.text)) }
            #expect(texts == [["A1", "A2"], ["A3"], ["B1", "B2"], ["C1"]])
        }
    }

    struct LateProblem: Error {}

    @Test func aProblemAfterSomeBatchesStoresNothing() async throws {
        try await withStore(.sqlite) { store in
            var calls = 0
            await #expect(throws: LateProblem.self) {
                _ = try await store.importBatches(quizTitle: "Q", at: t0) {
                    calls += 1
                    if calls == 3 { throw LateProblem() }
                    return [Self.entry("Q\(calls)", topic: "T")]
                }
            }
            #expect(calls == 3)
            let empty = try await store.isEmpty()
            #expect(empty, "the two batches stored before the problem were rolled back")
        }
    }
}
