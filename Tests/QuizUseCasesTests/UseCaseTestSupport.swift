import Foundation
import QuizCore
import QuizStore
import QuizUseCases

/// A fresh, migrated SQLite database in a temporary file, an uncached store over it, and a
/// manual clock: use cases run directly against real SQL, without HTTP.
struct UseCaseEnvironment: Sendable {
    let store: SQLStore
    let time: ManualTimeSource
    /// bcrypt at its lowest cost: the rules are under test, not the hash's strength.
    let hasher = PasswordHasher(cost: 4)

    var sessions: Sessions { Sessions(store: store, time: time, lifetime: 3600) }

    func register(_ username: String, password: String = "password123", role: Role = .player) async throws -> User {
        try await Register(store: store, hasher: hasher, minimumPasswordLength: 8, limiter: nil, time: time)(
            Registration(username: username, firstName: username, lastName: username, password: password), role: role, address: nil)
    }
}

func withUseCases<T>(_ body: (UseCaseEnvironment) async throws -> T) async throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-usecase-\(UUID().uuidString).sqlite").path
    defer {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let database = try await QuizDatabase.open(path, poolSize: 2)
    do {
        try await Migrations.run(on: database)
        let result = try await body(UseCaseEnvironment(store: SQLStore(database: database), time: ManualTimeSource()))
        try await database.close()
        return result
    } catch {
        try? await database.close()
        throw error
    }
}
