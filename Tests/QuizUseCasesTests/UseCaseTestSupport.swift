import Foundation
import QuizCore
import QuizStore
import QuizTestSupport
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
    return try await withMigrated(try await QuizDatabase.open(path, poolSize: 2), body)
}

/// `withUseCases` on a fresh PostgreSQL database (for what runs across instances); the caller's
/// suite is enabled only when `TestPostgres.serverURL` is set.
func withPostgresUseCases<T>(_ body: (UseCaseEnvironment) async throws -> T) async throws -> T {
    try await TestPostgres.withFreshDatabase { url in try await withMigrated(try await QuizDatabase.open(url, poolSize: 4), body) }
}

/// Migrates `database`, runs `body` on it, and closes it whatever happens.
private func withMigrated<T>(_ database: QuizDatabase, _ body: (UseCaseEnvironment) async throws -> T) async throws -> T {
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
