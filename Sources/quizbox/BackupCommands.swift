import ArgumentParser
import Foundation
import QuizServer
import QuizStore
import QuizText

/// `quizbox backup`: a consistent copy of the database while the server keeps running.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: t("Copy the database and its pictures while the server runs, into one tar file: the database of one moment (SQLite: VACUUM INTO; PostgreSQL: an export-db dump) and the data directory's pictures."),
        discussion: t("The copy is written under a temporary name and renamed when complete, readable by its owner only. Bring it back with quizbox restore.")
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
        let summary = try await db.withDatabase(migrate: false) { database, config in
            do {
                return try await DatabaseBackup.write(database, databasePath: config.database, pictures: config.picturesFolder, to: output)
            } catch {
                throw CLIError("quizbox backup: " + t(String(describing: error)))
            }
        }
        let kind = summary.database == .sqlite ? t("a SQLite database file") : t("a database dump")
        let pictures = t.count(summary.pictures ?? 0, "{n} picture", "{n} pictures", ["n": plain(summary.pictures ?? 0)])
        let done = t("Backed up {database} to {file} ({kind} and {pictures}).",
                     ["database": config.databaseDescription, "file": output, "kind": kind, "pictures": pictures])
        FileHandle.standardError.write(Data((done + "\n").utf8))
        if summary.sounds > 0 {
            let sounds = t.count(summary.sounds, "Questions' sound clips went with them: {n} clip.", "Questions' sound clips went with them: {n} clips.",
                                 ["n": plain(summary.sounds)])
            FileHandle.standardError.write(Data((sounds + "\n").utf8))
        }
    }
}

/// `quizbox restore`: a backup (or an export-db dump) into an empty database of either kind.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: t("Load a file from quizbox backup or export-db into an empty database (SQLite or PostgreSQL), all or nothing, and its pictures into the data directory."),
        discussion: t("Backups from before pictures travelled with them (a SQLite file or an export-db dump) restore too, without pictures.")
    )

    @Option(name: .shortAndLong, help: ArgumentHelp(t("The file quizbox backup or export-db wrote.")))
    var input: String

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        guard FileManager.default.isReadableFile(atPath: input) else { throw CLIError("quizbox restore: " + t("cannot read {file}", ["file": input])) }
        let (summary, config) = try await db.withDatabase { database, config in
            do {
                return (try await DatabaseBackup.restore(from: input, into: database, pictures: config.picturesFolder), config)
            } catch {
                throw CLIError("quizbox restore: \(input): " + t(String(describing: error)))
            }
        }
        print(t("Restored {summary}.", ["summary": DatabaseDumpSummary.describe(summary.rows)]))
        let folder = config.picturesFolder.path
        if let pictures = summary.pictures {
            print(t.count(pictures, "Put back {n} picture in {folder}.", "Put back {n} pictures in {folder}.", ["n": plain(pictures), "folder": folder]))
        } else {
            print(t("This file holds no pictures: copy the images folder of the old data directory to {folder}.", ["folder": folder]))
        }
        if summary.sounds > 0 {
            print(t.count(summary.sounds, "Put back {n} sound clip in {folder}.", "Put back {n} sound clips in {folder}.",
                          ["n": plain(summary.sounds), "folder": folder]))
        }
    }
}
