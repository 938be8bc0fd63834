import Foundation
import SQLKit

/// A file an author uploaded for a preview, kept until they confirm the import.
public struct KeptUpload: Sendable, Equatable {
    public var fileName: String
    public var data: Data
}

/// Uploads between preview and import live in the database, so the confirm may reach any
/// instance sharing it.
public protocol UploadStore: Sendable {
    /// Keeps `data` under `tokenHash`, dropping the user's earlier upload and every expired one.
    func keepUpload(tokenHash: String, userId: Int64, fileName: String, data: Data, at now: Date, keptFor lifetime: TimeInterval) async throws
    /// The user's upload while it is kept; nil when unknown, expired or someone else's.
    func keptUpload(tokenHash: String, userId: Int64, at now: Date, keptFor lifetime: TimeInterval) async throws -> KeptUpload?
    func removeUpload(tokenHash: String) async throws
}

extension SQLStore: UploadStore {
    public func keepUpload(tokenHash: String, userId: Int64, fileName: String, data: Data, at now: Date,
                           keptFor lifetime: TimeInterval) async throws {
        let oldest = now.addingTimeInterval(-lifetime).millis
        // Base64 text: the same column type and binding on SQLite and PostgreSQL.
        let encoded = data.base64EncodedString()
        try await database.write { db in
            try await db.raw("DELETE FROM import_uploads WHERE user_id = \(bind: userId) OR kept_at <= \(bind: oldest)").run()
            try await db.raw("""
                INSERT INTO import_uploads (token_hash, user_id, file_name, data, kept_at)
                VALUES (\(bind: tokenHash), \(bind: userId), \(bind: fileName), \(bind: encoded), \(bind: now.millis))
                """).run()
        }
    }

    public func keptUpload(tokenHash: String, userId: Int64, at now: Date, keptFor lifetime: TimeInterval) async throws -> KeptUpload? {
        let oldest = now.addingTimeInterval(-lifetime).millis
        let row = try await database.read { db in
            try await db.raw("""
                SELECT file_name, data FROM import_uploads
                WHERE token_hash = \(bind: tokenHash) AND user_id = \(bind: userId) AND kept_at > \(bind: oldest)
                """).first()
        }
        guard let row, let data = Data(base64Encoded: try row.string("data")) else { return nil }
        return KeptUpload(fileName: try row.string("file_name"), data: data)
    }

    public func removeUpload(tokenHash: String) async throws {
        try await database.write { db in
            try await db.raw("DELETE FROM import_uploads WHERE token_hash = \(bind: tokenHash)").run()
        }
    }
}
