import ArgumentParser
import Foundation
import QuizServer
import QuizStore
import QuizText

/// `quizbox backup`: a consistent copy of the database while the server keeps running.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: t("Copy the database while the server runs: a SQLite file (VACUUM INTO), or on PostgreSQL an export-db dump from one snapshot."),
        discussion: t("The copy is written under a temporary name and renamed when complete. Bring it back with quizbox restore.")
    )

    @Option(name: .shortAndLong, help: ArgumentHelp(t("The file to write (replaced once the copy is complete).")))
    var output: String

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        let config = try await db.serverConfig()
        // Opening a SQLite path that does not exist would create an empty database and back that up.
        if !QuizDatabase.isPostgresURL(config.database), !FileManager.default.fileExists(atPath: config.database) {
            throw CLIError("quizbox backup: " + t("there is no database at {database}", ["database": config.database]))
        }
        let format = try await db.withDatabase(migrate: false) { database, config in
            do {
                return try await DatabaseBackup.write(database, databasePath: config.database, to: output)
            } catch {
                throw CLIError("quizbox backup: " + t(String(describing: error)))
            }
        }
        let kind = format == .sqlite ? t("a SQLite database file") : t("a database dump")
        let done = t("Backed up {database} to {file} ({kind}).", ["database": config.databaseDescription, "file": output, "kind": kind])
        FileHandle.standardError.write(Data((done + "\n").utf8))
    }
}

/// `quizbox restore`: a backup (or an export-db dump) into an empty database of either kind.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: t("Load a file from quizbox backup or export-db into an empty database (SQLite or PostgreSQL), all or nothing."),
        discussion: t("A SQLite backup can also be served as it is: quizbox serve --database FILE.")
    )

    @Option(name: .shortAndLong, help: ArgumentHelp(t("The file quizbox backup or export-db wrote.")))
    var input: String

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        guard FileManager.default.isReadableFile(atPath: input) else { throw CLIError("quizbox restore: " + t("cannot read {file}", ["file": input])) }
        let counts = try await db.withDatabase { database, _ in
            do {
                return try await DatabaseBackup.restore(from: input, into: database)
            } catch {
                throw CLIError("quizbox restore: \(input): " + t(String(describing: error)))
            }
        }
        print(t("Restored {summary}.", ["summary": DatabaseDumpSummary.describe(counts)]))
    }
}
