import Foundation
import QuizCore
import SQLKit

extension SQLStore {
    /// Stores questions a batch at a time, all in one transaction, so a file too large to hold
    /// whole as a `Bank` is stored while it is read. Each topic's questions join one new quiz
    /// titled `quizTitle`, as `importBank` does with a reader's bank. When `next` throws, the
    /// transaction rolls back and nothing is stored.
    public func importBatches(
        quizTitle: String, at date: Date, _ next: () async throws -> [BankEntry]?
    ) async throws -> ImportSummary {
        return try await database.transaction { db in
            var summary = ImportSummary()
            var subjects: [String: Int64] = [:]
            var quizzes: [TopicKey: (quizId: Int64, topicId: Int64, count: Int)] = [:]
            while let batch = try await next() {
                // Grouped by topic, so rows that alternate between topics still go in many to a statement.
                var groups: [TopicKey: [Question]] = [:]
                var order: [TopicKey] = []
                for entry in batch {
                    let key = TopicKey(subject: entry.subject, topic: entry.topic)
                    if groups[key] == nil { order.append(key) }
                    groups[key, default: []].append(entry.question)
                }
                for key in order {
                    var quiz: (quizId: Int64, topicId: Int64, count: Int)
                    if let known = quizzes[key] {
                        quiz = known
                    } else {
                        let subjectId: Int64
                        if let known = subjects[key.subject] {
                            subjectId = known
                        } else {
                            let (id, new) = try await Self.findOrInsert(db, table: "subjects", parent: nil, name: key.subject, description: "")
                            if new { summary.subjects += 1 }
                            subjects[key.subject] = id
                            subjectId = id
                        }
                        let (topicId, newTopic) = try await Self.findOrInsert(
                            db, table: "topics", parent: ("subject_id", subjectId), name: key.topic, description: "")
                        if newTopic { summary.topics += 1 }
                        quiz = (try await Self.insertQuiz(db, topicId: topicId, title: quizTitle, description: ""), topicId, 0)
                        summary.quizzes += 1
                    }
                    let questions = groups[key] ?? []
                    let ids = try await insertQuestions(db, questions, topicId: quiz.topicId, at: date)
                    let inQuiz = Self.quizQuestionIds(ids, of: questions)
                    try await Self.addToQuiz(db, quizId: quiz.quizId, questionIds: inQuiz, after: quiz.count)
                    quiz.count += inQuiz.count
                    quizzes[key] = quiz
                    summary.questions += ids.count
                }
            }
            return summary
        }
    }

    private struct TopicKey: Hashable {
        var subject: String
        var topic: String
    }

    /// A new quiz at the end of its topic.
    static func insertQuiz(_ db: any SQLDatabase, topicId: Int64, title: String, description: String) async throws -> Int64 {
        let position = try await db.raw("""
            SELECT COALESCE(MAX(position), 0) + 1 AS p FROM quizzes WHERE topic_id = \(bind: topicId)
            """).first()?.int("p") ?? 1
        guard let quizId = try await db.raw("""
            INSERT INTO quizzes (topic_id, title, description, position)
            VALUES (\(bind: topicId), \(bind: title), \(bind: description), \(bind: position))
            RETURNING id
            """).first()?.int64("id") else { throw StoreError.notFound }
        return quizId
    }

    /// Of questions just stored (`ids` in the same order), those a quiz may hold: a name-them-all
    /// question stays in its topic's bank, where the Games page plays it.
    static func quizQuestionIds(_ ids: [Int64], of questions: [Question]) -> [Int64] {
        zip(ids, questions).filter { $0.1.kind != .nameAll }.map(\.0)
    }

    /// Puts questions into a quiz in order, after the `count` it already holds.
    static func addToQuiz(_ db: any SQLDatabase, quizId: Int64, questionIds ids: [Int64], after count: Int) async throws {
        for start in stride(from: 0, to: ids.count, by: Self.rowsPerInsert) {
            let rows: [SQLQueryString] = (start..<min(start + Self.rowsPerInsert, ids.count)).map {
                "(\(bind: quizId), \(bind: ids[$0]), \(bind: count + $0 + 1))"
            }
            try await db.raw("""
                INSERT INTO quiz_questions (quiz_id, question_id, position) VALUES \(rows.joined(separator: ", "))
                """).run()
        }
    }
}
