import ArgumentParser
import Logging
import QuizServer
import QuizStore
import QuizText

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: t("Bring the database schema up to date."))

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        let config = try await db.serverConfig()
        let database: QuizDatabase
        do {
            database = try await QuizDatabase.open(config.database, poolSize: 1, logger: makeLogger(level: .warning))
        } catch {
            throw CLIError("quizbox migrate: " + t(String(describing: error)))
        }
        do {
            let applied = try await Migrations.run(on: database)
            if applied.isEmpty {
                print(t("{database} is up to date (schema version {version}).", ["database": config.databaseDescription, "version": String(Migrations.latestVersion)]))
            } else {
                print(t("Applied migrations {versions} to {database}.",
                        ["versions": applied.map(String.init).joined(separator: ", "), "database": config.databaseDescription]))
            }
            try await database.close()
        } catch {
            try? await database.close()
            throw CLIError("quizbox migrate: " + t(String(describing: error)))
        }
    }
}
