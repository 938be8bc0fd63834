import Foundation
import QuizCore
import SQLKit

/// The one store implementation: SQL through SQLKit, for SQLite and PostgreSQL alike.
public struct SQLStore: Sendable {
    public let database: QuizDatabase

    public init(database: QuizDatabase) {
        self.database = database
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
