import ArgumentParser
import Logging
import QuizServer
import QuizStore

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date.")

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        let config = try await db.serverConfig()
        let database: QuizDatabase
        do {
            database = try await QuizDatabase.open(config.database, poolSize: 1, logger: makeLogger(level: .warning))
        } catch {
            throw CLIError("quizbox migrate: \(error)")
        }
        do {
            let applied = try await Migrations.run(on: database)
            if applied.isEmpty {
                print("\(config.databaseDescription) is up to date (schema version \(Migrations.latestVersion)).")
            } else {
                print("Applied migrations \(applied.map(String.init).joined(separator: ", ")) to \(config.databaseDescription).")
            }
            try await database.close()
        } catch {
            try? await database.close()
            throw CLIError("quizbox migrate: \(error)")
        }
    }
}
