import Foundation
import SQLKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Consistent copies of a running instance with its pictures, and bringing them back.
///
/// The backup is one tar file: the database first, then the pictures (`images/<sha256>.<ext>`),
/// which live in the data directory, not in the database. The database part is, on SQLite, a
/// `VACUUM INTO` copy, which reads one snapshot while the server goes on writing (WAL mode); on
/// PostgreSQL, the dump `export-db` writes, read in one `REPEATABLE READ READ ONLY` transaction.
/// Pictures are named by their bytes and written before the rows that name them, and a file is
/// deleted only with the last row naming it: so they are hard-linked aside before the snapshot
/// (a picture deleted during the backup stays in it) and once more after it (a picture stored
/// meanwhile). The file is written under a temporary name and renamed when complete.
public enum DatabaseBackup {
    public enum Format: Sendable, Equatable {
        /// A SQLite database file (a backup from before pictures came along).
        case sqlite
        /// JSON lines from `DatabaseDump` (export-db).
        case dump
        /// A tar with the database (either of the above) and the pictures.
        case archive
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case sameFile
        case schemaBehind(found: Int, expected: Int)
        case notABackup(String)
        case damagedArchive(String)
        case cannotWrite(String)

        public var description: String {
            switch self {
            case .sameFile: "the output is the database itself; choose another file"
            case .schemaBehind(let found, let expected):
                "the database is at schema version \(found) and this quizbox writes version \(expected); back it up with the quizbox that serves it, or run quizbox migrate first"
            case .notABackup(let path): "\(path) is neither a SQLite database nor a Quizbox database dump"
            case .damagedArchive(let path): "\(path) is a damaged backup (cut short or changed); nothing was restored"
            case .cannotWrite(let reason): "cannot write the backup: \(reason)"
            }
        }
    }

    /// What a backup wrote or a restore put back.
    public struct Summary: Sendable, Equatable {
        /// The database part's format: `.sqlite` or `.dump`.
        public var database: Format
        /// Rows per table (restore only).
        public var rows: [String: Int] = [:]
        /// Nil for a file from before backups carried pictures.
        public var pictures: Int?
        /// Questions' sound clips, which travel in the pictures' folder.
        public var sounds = 0
    }

    static let sqliteEntry = "quizbox.sqlite"
    static let dumpEntry = "quizbox.dump"
    static let picturesFolder = "images"

    /// Writes a consistent copy of `database` and of the pictures in `pictures` (the data
    /// directory's `images` folder) to `output`, replacing any file there once the copy is
    /// complete. `databasePath` is the SQLite file `database` was opened from.
    @discardableResult
    public static func write(_ database: QuizDatabase, databasePath: String, pictures: URL, to output: String) async throws -> Summary {
        let target = URL(fileURLWithPath: output).standardizedFileURL.resolvingSymlinksInPath()
        if database.dialect == .sqlite {
            let source = URL(fileURLWithPath: databasePath).standardizedFileURL.resolvingSymlinksInPath()
            guard ![source.path, source.path + "-wal", source.path + "-shm"].contains(target.path) else { throw Failure.sameFile }
        }
        let folder = target.deletingLastPathComponent()
        let stem = ".\(target.lastPathComponent).\(UUID().uuidString)"
        let partial = folder.appendingPathComponent(stem + ".partial")
        let snapshot = folder.appendingPathComponent(stem + ".database")
        let staging = PictureStaging(pictures: pictures)
        defer {
            for file in [partial, snapshot] { try? FileManager.default.removeItem(at: file) }
            staging.remove()
        }
        let archive: FileHandle
        do {
            archive = try PrivateFiles.create(partial.path)
            try PrivateFiles.createEmpty(snapshot.path)
        } catch {
            throw Failure.cannotWrite(String(describing: error))
        }
        defer { try? archive.close() }
        try staging.link()
        switch database.dialect {
        case .sqlite:
            // Outside any transaction, as VACUUM must be; into the empty 0600 file; the path is a bound value.
            try await database.read { db in try await db.raw("VACUUM INTO \(bind: snapshot.path)").run() }
        case .postgres:
            let applied = try await Migrations.appliedVersions(on: database).last ?? 0
            guard applied == Migrations.latestVersion else { throw Failure.schemaBehind(found: applied, expected: Migrations.latestVersion) }
            guard let handle = FileHandle(forWritingAtPath: snapshot.path) else { throw Failure.cannotWrite("cannot write \(snapshot.path)") }
            defer { try? handle.close() }
            try await DatabaseDump.export(database) { try handle.write(contentsOf: $0) }
        }
        try staging.link()
        let writer = BackupArchive.Writer(handle: archive)
        let format: Format = database.dialect == .sqlite ? .sqlite : .dump
        try writer.add(format == .sqlite ? sqliteEntry : dumpEntry, file: snapshot.path)
        try writer.addFolder(picturesFolder + "/")
        for name in staging.names { try writer.add("\(picturesFolder)/\(name)", file: staging.folder.appendingPathComponent(name).path) }
        try writer.finish()
        try archive.synchronize()
        // rename(2) replaces the target in one step.
        guard rename(partial.path, target.path) == 0 else { throw Failure.cannotWrite(String(cString: strerror(errno))) }
        let sounds = staging.names.count(where: { PictureName($0)?.isSound == true })
        return Summary(database: format, pictures: staging.names.count - sounds, sounds: sounds)
    }

    /// What the file at `path` holds, judged from its first bytes.
    public static func format(of path: String) throws -> Format {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure.notABackup(path) }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 512)) ?? Data()
        if head.prefix(16) == Data("SQLite format 3\0".utf8) { return .sqlite }
        if head.first == UInt8(ascii: "{") { return .dump }
        if BackupArchive.isArchive(head) { return .archive }
        throw Failure.notABackup(path)
    }

    /// Loads a backup into `target`, which must hold no users or questions, in one transaction,
    /// after putting its pictures into `pictures` (a picture with no row is harmless: it is named
    /// by its bytes). Old backups, a bare SQLite file or dump, still restore, without pictures. A
    /// SQLite database is copied aside and brought to the current schema first, so the file given
    /// is never changed.
    @discardableResult
    public static func restore(from path: String, into target: QuizDatabase, pictures: URL) async throws -> Summary {
        switch try format(of: path) {
        case .dump:
            return Summary(database: .dump, rows: try await restoreDump(path, into: target))
        case .sqlite:
            return Summary(database: .sqlite, rows: try await restoreSQLite(path, into: target))
        case .archive:
            let extracted = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-restore-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: extracted) }
            var database: (format: Format, path: String)?
            var count = 0, sounds = 0
            try PrivateFiles.createFolder(extracted)
            try BackupArchive.read(path) { name, size, input in
                if database == nil, name == sqliteEntry || name == dumpEntry {
                    let file = extracted.appendingPathComponent(name).path
                    try copy(size, from: input, to: file, archive: path)
                    database = (name == sqliteEntry ? .sqlite : .dump, file)
                } else if name.hasPrefix(picturesFolder + "/"), let picture = PictureName(String(name.dropFirst(picturesFolder.count + 1))) {
                    guard let data = try input.read(upToCount: size), data.count == size else { throw Failure.damagedArchive(path) }
                    guard picture.matches(data) else { throw Failure.damagedArchive(path) }
                    try PrivateFiles.createFolder(pictures)
                    let file = pictures.appendingPathComponent(picture.name)
                    if !FileManager.default.fileExists(atPath: file.path) { try PrivateFiles.write(data, to: file) }
                    if picture.isSound { sounds += 1 } else { count += 1 }
                }
            }
            guard let database else { throw Failure.damagedArchive(path) }
            let rows = database.format == .sqlite ? try await restoreSQLite(database.path, into: target)
                                                  : try await restoreDump(database.path, into: target)
            return Summary(database: database.format, rows: rows, pictures: count, sounds: sounds)
        }
    }

    private static func copy(_ size: Int, from input: FileHandle, to file: String, archive: String) throws {
        let output = try PrivateFiles.create(file)
        defer { try? output.close() }
        var left = size
        while left > 0 {
            guard let chunk = try input.read(upToCount: min(left, 1 << 20)), !chunk.isEmpty else { throw Failure.damagedArchive(archive) }
            try output.write(contentsOf: chunk)
            left -= chunk.count
        }
    }

    private static func restoreDump(_ path: String, into target: QuizDatabase) async throws -> [String: Int] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure.notABackup(path) }
        let text = String(decoding: data, as: UTF8.self)
        return try await DatabaseDump.import(text.split(separator: "\n", omittingEmptySubsequences: false), into: target)
    }

    private static func restoreSQLite(_ path: String, into target: QuizDatabase) async throws -> [String: Int] {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-restore-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) } }
        try PrivateFiles.copy(path, to: copy.path)
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
