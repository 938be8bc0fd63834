import Foundation
import SQLKit

/// Group commit for answers. Each SQL statement costs a fixed toll in thread hops on the single
/// writer connection, so answers that arrive while a write is in flight are stored together by
/// the next one: one multi-row `INSERT … SELECT` that still lands only in unfinished attempts and
/// still turns a second answer to a question into nothing.
final class AnswerBatcher: Sendable {
    struct NewAnswer: Sendable {
        var attemptId: Int64
        var questionId: Int64
        var answer: String
        var isCorrect: Bool
        var points: Int
        var answeredAt: Int64

        var key: Key { Key(attemptId: attemptId, questionId: questionId) }
    }

    struct Key: Hashable, Sendable {
        var attemptId: Int64
        var questionId: Int64
    }

    private struct Waiting: Sendable {
        var answer: NewAnswer
        var continuation: CheckedContinuation<Bool, any Error>
    }

    /// SQLite allows 32,766 bound values; six per answer.
    static let maxBatch = 1_000

    private let database: QuizDatabase
    private let queue = FlushQueue<Waiting>()

    private let committed: @Sendable () async throws -> Void

    /// - Parameter committed: runs after each batch is stored, before its answers return.
    init(database: QuizDatabase, committed: @escaping @Sendable () async throws -> Void = {}) {
        self.database = database
        self.committed = committed
    }

    /// True when stored, false when the question had been answered in this attempt.
    /// Throws `StoreError.attemptFinished` or `.notFound` for the attempt.
    func record(_ answer: NewAnswer) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            if queue.add(Waiting(answer: answer, continuation: continuation)) { Task { await self.flush() } }
        }
    }

    private func flush() async {
        while true {
            let batch = queue.next { (Array($0.prefix(Self.maxBatch)), Array($0.dropFirst(Self.maxBatch))) }
            if batch.isEmpty { return }
            do {
                let outcomes = try await store(batch.map(\.answer))
                try await committed()
                for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(with: outcome) }
            } catch {
                for waiting in batch { waiting.continuation.resume(throwing: error) }
            }
        }
    }

    /// One outcome per answer, in order. Within a batch the first answer to a question decides;
    /// any later one to the same question is `false`, as if it had arrived after.
    private func store(_ answers: [NewAnswer]) async throws -> [Result<Bool, any Error>] {
        var firstIndex: [Key: Int] = [:]
        var unique: [NewAnswer] = []
        for (index, answer) in answers.enumerated() where firstIndex[answer.key] == nil {
            firstIndex[answer.key] = index
            unique.append(answer)
        }
        let distinct = unique
        let (inserted, attempts) = try await database.write { db -> (Set<Key>, [Int64: Bool]) in
            let returned: [any SQLRow]
            if let connection = (db as? PostgresConnectionDatabase)?.connection {
                // A finish may run alongside here: the statement shares the attempt's row lock, so the
                // finish waits for these answers (and counts them), or these wait for it (and are refused).
                var batch = AnswerBatchStatement()
                for answer in distinct {
                    batch.attemptIds.append(answer.attemptId)
                    batch.questionIds.append(answer.questionId)
                    batch.answers.append(answer.answer)
                    batch.correct.append(answer.isCorrect)
                    batch.points.append(Int64(answer.points))
                    batch.answeredAt.append(answer.answeredAt)
                }
                returned = try await batch.rows(on: connection)
            } else {
                let rows: [SQLQueryString] = distinct.map {
                    "(\(bind: $0.attemptId), \(bind: $0.questionId), \(bind: $0.answer), \(bind: $0.isCorrect), \(bind: $0.points), \(bind: $0.answeredAt))"
                }
                returned = try await db.raw("""
                    INSERT INTO answers (attempt_id, question_id, answer, correct, points, answered_at)
                    SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6
                    FROM (VALUES \(rows.joined(separator: ", "))) AS v
                    WHERE EXISTS (SELECT 1 FROM attempts a WHERE a.id = v.column1 AND a.finished_at IS NULL)
                    ON CONFLICT (attempt_id, question_id) DO NOTHING RETURNING attempt_id, question_id
                    """).all()
            }
            let inserted = Set(try returned.map { Key(attemptId: try $0.int64("attempt_id"), questionId: try $0.int64("question_id")) })
            // Only refusals need to know why: a finished attempt, or one that does not exist.
            let refused = Set(distinct.filter { !inserted.contains($0.key) }.map(\.attemptId))
            var finished: [Int64: Bool] = [:]
            if !refused.isEmpty {
                let ids = refused.map { $0 as any Encodable & Sendable }
                for row in try await db.raw("SELECT id, finished_at FROM attempts WHERE id IN (\(binds: ids))").all() {
                    finished[try row.int64("id")] = try row.optionalDate("finished_at") != nil
                }
            }
            return (inserted, finished)
        }
        return answers.enumerated().map { index, answer in
            if inserted.contains(answer.key) { return .success(firstIndex[answer.key] == index) }
            switch attempts[answer.attemptId] {
            case nil: return .failure(StoreError.notFound)
            case true?: return .failure(StoreError.attemptFinished)
            case false?: return .success(false)
            }
        }
    }
}
