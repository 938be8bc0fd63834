import Foundation
import Logging
import QuizServer
import QuizStore
import QuizText
import QuizUseCases

extension ServerConfig {
    /// Where the server keeps pictures: what a backup carries along with the database.
    var picturesFolder: URL { ImageFiles(dataDirectory: dataDirectory).directory }
}

extension DatabaseOptions {
    /// Opens the configured database, migrated, for one command; closes it whatever happens.
    func withStore<T>(_ body: (CachedStore, ServerConfig) async throws -> T) async throws -> T {
        try await withDatabase { database, config in try await body(CachedStore(SQLStore(database: database)), config) }
    }

    /// Opens the configured database for one command, brought to the current schema unless
    /// `migrate` is false (a backup copies what is there and changes nothing); closes it whatever happens.
    func withDatabase<T>(migrate: Bool = true, _ body: (QuizDatabase, ServerConfig) async throws -> T) async throws -> T {
        let config = try await serverConfig()
        let database: QuizDatabase
        do {
            database = try await QuizDatabase.open(config.database, poolSize: 1, logger: makeLogger(level: .warning))
        } catch {
            throw CLIError("quizbox: " + t(String(describing: error)))
        }
        do {
            if migrate { try await Migrations.run(on: database) }
            let result = try await body(database, config)
            try await database.close()
            return result
        } catch {
            try? await database.close()
            throw error
        }
    }
}
