import ArgumentParser
import Foundation
import QuizServer
import QuizStore

/// `quizbox export-db`: the whole instance as JSON lines, to load into another database.
struct ExportDB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-db",
        abstract: "Write the whole database (users, sessions, catalog, attempts, games, points) to a file for import-db."
    )

    @Option(name: .shortAndLong, help: "The file to write.")
    var output: String

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        let url = URL(fileURLWithPath: output)
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let handle = try? FileHandle(forWritingTo: url) else {
            throw CLIError("quizbox export-db: cannot write \(output)")
        }
        defer { try? handle.close() }
        let counts = try await db.withStore { store, _ in
            do {
                return try await DatabaseDump.export(store.database) { try handle.write(contentsOf: $0) }
            } catch {
                throw CLIError("quizbox export-db: \(error)")
            }
        }
        FileHandle.standardError.write(Data("Wrote \(DatabaseDumpSummary.describe(counts)) to \(output).\n".utf8))
    }
}

/// `quizbox import-db`: loads a file from export-db into an empty database, all or nothing.
struct ImportDB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-db",
        abstract: "Load a file written by export-db into an empty database (SQLite or PostgreSQL)."
    )

    @Argument(help: "The file export-db wrote.")
    var file: String

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("quizbox import-db: cannot read \(file)") }
        let text = String(decoding: data, as: UTF8.self)
        let counts = try await db.withStore { store, _ in
            do {
                return try await DatabaseDump.import(text.split(separator: "\n", omittingEmptySubsequences: false), into: store.database)
            } catch {
                throw CLIError("quizbox import-db: \(file): \(error)")
            }
        }
        print("Loaded \(DatabaseDumpSummary.describe(counts)).")
    }
}

enum DatabaseDumpSummary {
    static func describe(_ counts: [String: Int]) -> String {
        "\(counts["users"] ?? 0) user(s), \(counts["questions"] ?? 0) question(s), \(counts["attempts"] ?? 0) attempt(s), "
            + "\(counts["games"] ?? 0) game(s), \(counts.values.reduce(0, +)) row(s) in all"
    }
}
