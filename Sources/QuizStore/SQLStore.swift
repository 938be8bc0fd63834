import Foundation
import QuizCore
import SQLKit

/// The one store implementation: SQL through SQLKit, for SQLite and PostgreSQL alike. Every read
/// goes to the database and no write tells anyone: `CachedStore` wraps it with the read caches and
/// the change tracking between instances.
public struct SQLStore: Sendable {
    public let database: QuizDatabase
    let answers: AnswerBatcher
    let assignmentWrites: AssignmentWriteBatcher

    public init(database: QuizDatabase) {
        self.init(database: database, answers: AnswerBatcher(database: database))
    }

    private init(database: QuizDatabase, answers: AnswerBatcher, assignmentWrites: AssignmentWriteBatcher? = nil) {
        self.database = database
        self.answers = answers
        self.assignmentWrites = assignmentWrites ?? AssignmentWriteBatcher(database: database)
    }

    /// This store with answers batched by a batcher that runs `committed` after each batch is
    /// stored, before any of its answers returns: once per batch, however many answers it holds.
    func reportingAnswerBatches(to committed: @escaping @Sendable () async throws -> Void) -> SQLStore {
        SQLStore(database: database, answers: AnswerBatcher(database: database, committed: committed), assignmentWrites: assignmentWrites)
    }
}

extension SQLRow {
    func int64(_ column: String) throws -> Int64 { try decode(column: column, as: Int64.self) }
    func int(_ column: String) throws -> Int { try decode(column: column, as: Int.self) }
    func string(_ column: String) throws -> String { try decode(column: column, as: String.self) }
    func date(_ column: String) throws -> Date { Date(millis: try int64(column)) }
    func optionalDate(_ column: String) throws -> Date? {
        try decode(column: column, as: Int64?.self).map(Date.init(millis:))
    }
    func bool(_ column: String) throws -> Bool {
        // SQLite has no boolean type: it stores 0/1 integers.
        if let value = try? decode(column: column, as: Bool.self) { return value }
        return try int(column) != 0
    }
}
