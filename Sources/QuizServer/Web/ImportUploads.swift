import Foundation
import QuizStore
import QuizUseCases

/// Files uploaded on the manage page, kept between the preview and the "Import" click: a browser
/// cannot send the chosen file again without the author choosing it again. Each upload belongs to
/// one user, only their last one is kept, for `lifetime`. They live in the database, so with
/// several instances the confirm may reach another one than the preview; only a hash of the
/// token the form carries is stored.
enum ImportUploads {
    static let lifetime: TimeInterval = 30 * 60

    /// Keeps the file and returns the token the confirm form sends back.
    static func keep(_ data: Data, fileName: String, userId: Int64, now: Date, in store: some UploadStore) async throws -> String {
        let token = SessionTokens.make()
        try await store.keepUpload(tokenHash: SessionTokens.hash(token), userId: userId, fileName: fileName, data: data,
                                   at: now, keptFor: lifetime)
        return token
    }

    static func upload(_ token: String, userId: Int64, now: Date, in store: some UploadStore) async throws -> KeptUpload? {
        guard !token.isEmpty, token.utf8.count <= 64 else { return nil }
        return try await store.keptUpload(tokenHash: SessionTokens.hash(token), userId: userId, at: now, keptFor: lifetime)
    }

    static func remove(_ token: String, in store: some UploadStore) async throws {
        try await store.removeUpload(tokenHash: SessionTokens.hash(token))
    }
}
