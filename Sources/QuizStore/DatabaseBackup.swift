import Foundation
import SQLKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Consistent copies of a running instance, and bringing them back.
///
/// SQLite: `VACUUM INTO` a new file, which reads one snapshot while the server goes on writing
/// (WAL mode) and gives a plain database file that `quizbox serve --database` opens as it is.
/// PostgreSQL: the dump `export-db` writes, read in one `REPEATABLE READ READ ONLY` transaction,
/// so every table is of the same moment and no writer waits. Either file is written under a
/// temporary name and renamed when complete, so a backup that fails leaves no half file behind.
public enum DatabaseBackup {
    public enum Format: Sendable, Equatable {
        /// A SQLite database file.
        case sqlite
        /// JSON lines from `DatabaseDump` (export-db).
        case dump
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case sameFile
        case schemaBehind(found: Int, expected: Int)
        case notABackup(String)
        case cannotWrite(String)

        public var description: String {
            switch self {
            case .sameFile: "the output is the database itself; choose another file"
            case .schemaBehind(let found, let expected):
                "the database is at schema version \(found) and this quizbox writes version \(expected); back it up with the quizbox that serves it, or run quizbox migrate first"
            case .notABackup(let path): "\(path) is neither a SQLite database nor a Quizbox database dump"
            case .cannotWrite(let reason): "cannot write the backup: \(reason)"
            }
        }
    }

    /// Writes a consistent copy of `database` to `output`, replacing any file there once the
    /// copy is complete. `databasePath` is the SQLite file `database` was opened from.
    @discardableResult
    public static func write(_ database: QuizDatabase, databasePath: String, to output: String) async throws -> Format {
        let target = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath()
        if database.dialect == .sqlite {
            let source = URL(fileURLWithPath: databasePath).standardizedFileURL.resolvingSymlinksInPath()
            guard ![source.path, source.path + "-wal", source.path + "-shm"].contains(target.path) else { throw Failure.sameFile }
        }
        let partial = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).partial")
        defer { try? FileManager.default.removeItem(at: partial) }
        switch database.dialect {
        case .sqlite:
            // Outside any transaction, as VACUUM must be; the path is a bound value.
            try await database.read { db in try await db.raw("VACUUM INTO \(bind: partial.path)").run() }
        case .postgres:
            let applied = try await Migrations.appliedVersions(on: database).last ?? 0
            guard applied == Migrations.latestVersion else { throw Failure.schemaBehind(found: applied, expected: Migrations.latestVersion) }
            guard FileManager.default.createFile(atPath: partial.path, contents: nil), let handle = try? FileHandle(forWritingTo: partial) else {
                throw Failure.cannotWrite("cannot create a file in \(target.deletingLastPathComponent().path)")
            }
            defer { try? handle.close() }
            try await DatabaseDump.export(database) { try handle.write(contentsOf: $0) }
            try handle.synchronize()
        }
        // rename(2) replaces the target in one step.
        guard rename(partial.path, target.path) == 0 else { throw Failure.cannotWrite(String(cString: strerror(errno))) }
        return database.dialect == .sqlite ? .sqlite : .dump
    }

    /// What the file at `path` holds, judged from its first bytes.
    public static func format(of path: String) throws -> Format {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure.notABackup(path) }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        if head == Data("SQLite format 3\0".utf8) { return .sqlite }
        if head.first == UInt8(ascii: "{") { return .dump }
        throw Failure.notABackup(path)
    }

    /// Loads a backup (either format) into `target`, which must hold no users or questions, in
    /// one transaction. A SQLite backup is copied aside and brought to the current schema first,
    /// so the file given is never changed. Returns the rows per table.
    @discardableResult
    public static func restore(from path: String, into target: QuizDatabase) async throws -> [String: Int] {
        switch try format(of: path) {
        case .dump:
            guard let data = FileManager.default.contents(atPath: path) else { throw Failure.notABackup(path) }
            let text = String(decoding: data, as: UTF8.self)
            return try await DatabaseDump.import(text.split(separator: "\n", omittingEmptySubsequences: false), into: target)
        case .sqlite:
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-restore-\(UUID().uuidString).sqlite")
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) } }
            try FileManager.default.copyItem(atPath: path, toPath: copy.path)
            let source = try await QuizDatabase.sqlite(path: copy.path, poolSize: 1)
            do {
                try await Migrations.run(on: source)
                let counts = try await DatabaseDump.copy(from: source, into: target)
                try await source.close()
                return counts
            } catch {
                try? await source.close()
                throw error
            }
        }
    }
}
