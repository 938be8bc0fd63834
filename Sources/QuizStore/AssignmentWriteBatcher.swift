import Foundation
import Logging
import SQLKit

/// Group commit for assignment play: a shown question and an answer are one row each, and with
/// thousands of players each would be a lease of the one SQLite writer. Under load the writer then
/// sits idle between leases while the next holder waits for a thread (measured: held 44 % of the
/// time, 100 ms waits). Writes that arrive while a batch is in flight go together in the next
/// one: one multi-row statement for the shown questions and one for the answers, each row checked
/// as a single write checks it. Should a batch's statement fail, its rows are written one by one,
/// so one bad row fails only its own request.
final class AssignmentWriteBatcher: Sendable {
    struct Show: Sendable {
        var attemptId: Int64
        var position: Int
        var questionId: Int64
        var at: Int64
        var key: Key { Key(attemptId: attemptId, position: position) }
    }

    struct NewAnswer: Sendable {
        var attemptId: Int64
        var position: Int
        var answer: String
        var correct: Bool
        var marks: Int
        var at: Int64
        var key: Key { Key(attemptId: attemptId, position: position) }
    }

    struct Key: Hashable, Sendable {
        var attemptId: Int64
        var position: Int
    }

    private enum Waiting: Sendable {
        case show(Show, CheckedContinuation<Date, any Error>)
        case answer(NewAnswer, CheckedContinuation<AssignmentAnswerOutcome, any Error>)
    }

    /// Six bound values an answer, well under SQLite's 32,766 and PostgreSQL's 65,535.
    static let maxBatch = 1_000

    private let database: QuizDatabase
    private let queue = FlushQueue<Waiting>()

    init(database: QuizDatabase) { self.database = database }

    /// When the question was shown: now, or when it was first shown in this attempt.
    func show(_ show: Show) async throws -> Date {
        try await withCheckedThrowingContinuation { enqueue(.show(show, $0)) }
    }

    func answer(_ answer: NewAnswer) async throws -> AssignmentAnswerOutcome {
        try await withCheckedThrowingContinuation { enqueue(.answer(answer, $0)) }
    }

    private func enqueue(_ waiting: Waiting) {
        if queue.add(waiting) { Task { await self.flush() } }
    }

    private func flush() async {
        while true {
            // A second answer to a question already in this batch waits for the next one, so the
            // first decides and the second is told it was answered.
            let batch = queue.next { waiting in
                var answered = Set<Key>()
                var (batch, later): ([Waiting], [Waiting]) = ([], [])
                for item in waiting {
                    guard batch.count < Self.maxBatch else { later.append(item); continue }
                    if case .answer(let answer, _) = item, !answered.insert(answer.key).inserted { later.append(item) } else { batch.append(item) }
                }
                return (batch, later)
            }
            if batch.isEmpty { return }
            var shows: [(Show, CheckedContinuation<Date, any Error>)] = []
            var answers: [(NewAnswer, CheckedContinuation<AssignmentAnswerOutcome, any Error>)] = []
            for item in batch {
                switch item {
                case .show(let show, let continuation): shows.append((show, continuation))
                case .answer(let answer, let continuation): answers.append((answer, continuation))
                }
            }
            let showResults = await store(shows.map(\.0))
            for ((_, continuation), result) in zip(shows, showResults) { continuation.resume(with: result) }
            let answerResults = await store(answers.map(\.0))
            for ((_, continuation), result) in zip(answers, answerResults) { continuation.resume(with: result) }
        }
    }

    /// A batch's statement, or nil when it failed: its rows are then written one by one, each
    /// failing (or not) on its own. The failure is logged, since the rows' own errors may differ.
    private func batch<T: Sendable>(_ what: String, _ body: @Sendable (any SQLDatabase) async throws -> T) async -> T? {
        do {
            return try await database.write(body)
        } catch {
            database.logger.warning("an assignment batch failed; its rows are written one by one",
                                    metadata: ["rows": "\(what)", "error": "\(QuizDatabase.describe(error))"])
            return nil
        }
    }

    // MARK: Shown questions

    private func store(_ shows: [Show]) async -> [Result<Date, any Error>] {
        guard !shows.isEmpty else { return [] }
        if shows.count > 1, let times = await batch("shown questions", { db in try await Self.insert(shows, on: db) }) {
            return shows.map { show in times[show.key].map { .success($0) } ?? .failure(StoreError.notFound) }
        }
        var results: [Result<Date, any Error>] = []
        for show in shows {
            do {
                let times = try await database.write { db in try await Self.insert([show], on: db) }
                results.append(times[show.key].map { .success($0) } ?? .failure(StoreError.notFound))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// Each row shown now unless it was shown before (then its first time stands); only rows of
    /// attempts that exist are written, so a deleted assignment's late show fails alone.
    private static func insert(_ shows: [Show], on db: any SQLDatabase) async throws -> [Key: Date] {
        let rows: [SQLQueryString] = shows.map {
            "(\(bind: $0.attemptId), \(bind: $0.position), \(bind: $0.questionId), \(bind: $0.at))"
        }
        var times: [Key: Date] = [:]
        for row in try await db.raw("""
            INSERT INTO assignment_answers (attempt_id, position, question_id, shown_at, correct, marks)
            SELECT v.column1, v.column2, v.column3, v.column4, \(bind: false), 0 FROM (VALUES \(rows.joined(separator: ", "))) AS v
            WHERE EXISTS (SELECT 1 FROM assignment_attempts t WHERE t.id = v.column1)
            ON CONFLICT DO NOTHING
            RETURNING attempt_id, position, shown_at
            """).all() {
            times[Key(attemptId: try row.int64("attempt_id"), position: try row.int("position"))] = try row.date("shown_at")
        }
        let missing = Set(shows.map(\.key)).subtracting(times.keys)
        guard !missing.isEmpty else { return times }
        // Shown before (or twice in this batch): the time it was first shown.
        let ids = Set(missing.map(\.attemptId)).sorted().map { $0 as any Encodable & Sendable }
        for row in try await db.raw("""
            SELECT attempt_id, position, shown_at FROM assignment_answers WHERE attempt_id IN (\(binds: ids))
            """).all() {
            let key = Key(attemptId: try row.int64("attempt_id"), position: try row.int("position"))
            if missing.contains(key) { times[key] = try row.date("shown_at") }
        }
        return times
    }

    // MARK: Answers

    private func store(_ answers: [NewAnswer]) async -> [Result<AssignmentAnswerOutcome, any Error>] {
        guard !answers.isEmpty else { return [] }
        if answers.count > 1, let outcomes = await batch("answers", { db in try await Self.update(answers, on: db) }) {
            return outcomes
        }
        var results: [Result<AssignmentAnswerOutcome, any Error>] = []
        for answer in answers {
            do {
                results.append(try await database.write { db in try await Self.update([answer], on: db) }[0])
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// One `UPDATE`, so each row is atomic without a transaction: the window and the attempt are
    /// checked in the same statement as the write (an answer racing a close early or a finish is
    /// either in before it or refused), and the attempt's running marks follow by trigger
    /// (migration 25). Keys are distinct (the batcher sees to it). Throws only when the `UPDATE`
    /// fails (then nothing was written); a failed read of why a row was refused fails that row.
    private static func update(_ answers: [NewAnswer], on db: any SQLDatabase) async throws -> [Result<AssignmentAnswerOutcome, any Error>] {
        let rows: [SQLQueryString] = answers.map {
            "(\(bind: $0.attemptId), \(bind: $0.position), \(bind: $0.answer), \(bind: $0.correct), \(bind: $0.marks), \(bind: $0.at))"
        }
        var recorded = Set<Key>()
        for row in try await db.raw("""
            UPDATE assignment_answers AS a SET answer = v.column3, correct = v.column4, marks = v.column5, answered_at = v.column6
            FROM (VALUES \(rows.joined(separator: ", "))) AS v
            WHERE a.attempt_id = v.column1 AND a.position = v.column2 AND a.answer IS NULL
              AND EXISTS (SELECT 1 FROM assignment_attempts t JOIN assignments s ON s.id = t.assignment_id
                          WHERE t.id = v.column1 AND t.finished_at IS NULL AND s.opens_at <= v.column6 AND s.closes_at > v.column6)
            RETURNING attempt_id, position
            """).all() {
            recorded.insert(Key(attemptId: try row.int64("attempt_id"), position: try row.int("position")))
        }
        var outcomes: [Result<AssignmentAnswerOutcome, any Error>] = []
        for answer in answers {
            if recorded.contains(answer.key) { outcomes.append(.success(.recorded)); continue }
            do {
                outcomes.append(.success(try await refusal(of: answer, on: db)))
            } catch {
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }

    /// Why an answer was not written, read on the writer so it sees the write that beat it.
    private static func refusal(of answer: NewAnswer, on db: any SQLDatabase) async throws -> AssignmentAnswerOutcome {
        let open = try await db.raw("""
            SELECT t.id FROM assignment_attempts t JOIN assignments s ON s.id = t.assignment_id
            WHERE t.id = \(bind: answer.attemptId) AND t.finished_at IS NULL AND s.opens_at <= \(bind: answer.at) AND s.closes_at > \(bind: answer.at)
            """).first() != nil
        guard open else { return .refused }
        guard let row = try await db.raw("""
            SELECT answer FROM assignment_answers WHERE attempt_id = \(bind: answer.attemptId) AND position = \(bind: answer.position)
            """).first() else { return .notShown }
        return try row.decodeNil(column: "answer") ? .refused : .alreadyAnswered
    }
}
