import ArgumentParser
import Foundation
import QuizServer
import QuizStore
import QuizText

/// `quizbox export-db`: the whole instance as JSON lines, to load into another database.
struct ExportDB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-db",
        abstract: t("Write the whole database (users, sessions, catalog, attempts, games, points) to a file for import-db.")
    )

    @Option(name: .shortAndLong, help: ArgumentHelp(t("The file to write.")))
    var output: String

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        // Password hashes and sessions: the owner's alone.
        guard let handle = try? PrivateFiles.replace(output) else {
            throw CLIError("quizbox export-db: " + t("cannot write {file}", ["file": output]))
        }
        defer { try? handle.close() }
        let counts = try await db.withStore { store, _ in
            do {
                return try await DatabaseDump.export(store.database) { try handle.write(contentsOf: $0) }
            } catch {
                throw CLIError("quizbox export-db: " + t(String(describing: error)))
            }
        }
        FileHandle.standardError.write(Data((t("Wrote {summary} to {file}.", ["summary": DatabaseDumpSummary.describe(counts), "file": output]) + "\n").utf8))
    }
}

/// `quizbox import-db`: loads a file from export-db into an empty database, all or nothing.
struct ImportDB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-db",
        abstract: t("Load a file written by export-db into an empty database (SQLite or PostgreSQL).")
    )

    @Argument(help: ArgumentHelp(t("The file export-db wrote.")))
    var file: String

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("quizbox import-db: " + t("cannot read {file}", ["file": file])) }
        let text = String(decoding: data, as: UTF8.self)
        let counts = try await db.withStore { store, _ in
            do {
                return try await DatabaseDump.import(text.split(separator: "\n", omittingEmptySubsequences: false), into: store.database)
            } catch {
                throw CLIError("quizbox import-db: \(file): " + t(String(describing: error)))
            }
        }
        print(t("Loaded {summary}.", ["summary": DatabaseDumpSummary.describe(counts)]))
    }
}

enum DatabaseDumpSummary {
    static func describe(_ counts: [String: Int]) -> String {
        let (users, questions, attempts, games) = (counts["users"] ?? 0, counts["questions"] ?? 0, counts["attempts"] ?? 0, counts["games"] ?? 0)
        let rows = counts.values.reduce(0, +)
        return t("{users}, {questions}, {attempts}, {games}, {rows} in all", [
            "users": t.count(users, "{n} user(s)", "{n} user(s)", ["n": plain(users)]),
            "questions": t.count(questions, "{n} question(s)", "{n} question(s)", ["n": plain(questions)]),
            "attempts": t.count(attempts, "{n} attempt(s)", "{n} attempt(s)", ["n": plain(attempts)]),
            "games": t.count(games, "{n} game(s)", "{n} game(s)", ["n": plain(games)]),
            "rows": t.count(rows, "{n} row(s)", "{n} row(s)", ["n": plain(rows)]),
        ])
    }
}
