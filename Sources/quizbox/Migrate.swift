import ArgumentParser
import Logging
import QuizServer
import QuizStore

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date.")

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        let config = try await db.serverConfig()
        let database = try await QuizDatabase.sqlite(path: config.database, poolSize: 1, logger: makeLogger(level: .warning))
        do {
            let applied = try await Migrations.run(on: database)
            if applied.isEmpty {
                print("\(config.database) is up to date (schema version \(Migrations.latestVersion)).")
            } else {
                print("Applied migrations \(applied.map(String.init).joined(separator: ", ")) to \(config.database).")
            }
            try await database.close()
        } catch {
            try? await database.close()
            throw CLIError("quizbox migrate: \(error)")
        }
    }
}
