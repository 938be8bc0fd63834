import Foundation
import QuizCore
import QuizStore
import QuizTestSupport

/// The databases the contract runs against: PostgreSQL joins when a server is configured
/// (`QUIZBOX_TEST_POSTGRES_URL`). Without one, `PostgresOnlyStoreTests` is reported as skipped
/// with the reason. (A cancelled argument of a parameterized test is not shown as skipped, so the
/// argument is left out instead.)
enum DatabaseKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres
    var description: String { rawValue }
    static var available: [DatabaseKind] { TestPostgres.serverURL == nil ? [.sqlite] : [.sqlite, .postgres] }
}

/// Where a fresh, empty database of `kind` lives (a file path or a URL) while `body` runs;
/// removed afterwards.
func withEmptyDatabase<T>(_ kind: DatabaseKind, _ body: (String) async throws -> T) async throws -> T {
    switch kind {
    case .sqlite:
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-test-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        return try await body(path)
    case .postgres:
        return try await TestPostgres.withFreshDatabase(body)
    }
}

/// Opens a fresh, migrated database of `kind`, runs `body`, and removes the database afterwards.
func withStore<T>(_ kind: DatabaseKind, _ body: (CachedStore) async throws -> T) async throws -> T {
    try await withDatabase(kind) { database in try await body(CachedStore(SQLStore(database: database))) }
}

/// Opens a fresh, migrated database of `kind`, runs `body` on it, and closes and removes it afterwards.
func withDatabase<T>(_ kind: DatabaseKind, _ body: (QuizDatabase) async throws -> T) async throws -> T {
    try await withEmptyDatabase(kind) { location in
        let database = try await QuizDatabase.open(location, poolSize: 2)
        do {
            try await Migrations.run(on: database)
            let result = try await body(database)
            try await database.close()
            return result
        } catch {
            try? await database.close()
            throw error
        }
    }
}

let t0 = Date(timeIntervalSince1970: 1_800_000_000)

func newUser(_ name: String, at date: Date = t0) -> NewUser {
    NewUser(username: name, firstName: "First", lastName: "Last", passwordHash: "$2b$04$hash", role: .player, createdAt: date)
}

/// A quiz whose questions are worth 1, 2, 4, 8 and 16 points: any total up to 31 is one subset away.
func binaryQuizBank() -> Bank {
    let questions = [1, 2, 4, 8, 16].map { points in
        Question(text: "Worth \(points)?", difficulty: .easy, points: points, body: .trueFalse(true))
    }
    return Bank(subjects: [BankSubject(name: "Maths", topics: [
        BankTopic(name: "Powers", quizzes: [BankQuiz(title: "Powers of two", questions: questions)]),
    ])])
}

/// Gives `user` exactly `points` (0...31) by playing the binary quiz.
@discardableResult
func earn(_ points: Int, user: Int64, quizId: Int64, store: CachedStore, at date: Date = t0) async throws -> AttemptScore {
    let questions = try await store.questions(quizId: quizId)
    let attempt = try await store.startAttempt(userId: user, quizId: quizId, at: date)
    for question in questions {
        let correct = points & question.points != 0
        _ = try await store.recordAnswer(attemptId: attempt.id, questionId: question.id!, answer: "{}",
                                         isCorrect: correct, points: correct ? question.points : 0, at: date)
    }
    return try await store.finishAttempt(id: attempt.id, userId: user, at: date)
}

struct NoQuiz: Error {}

/// The first quiz of the first topic of the first subject.
func firstQuizId(_ store: CachedStore) async throws -> Int64 {
    guard let subject = try await store.subjects().first,
          let topic = try await store.topics(subjectId: subject.id)?.first,
          let quiz = try await store.quizzes(topicId: topic.id)?.first else { throw NoQuiz() }
    return quiz.id
}
