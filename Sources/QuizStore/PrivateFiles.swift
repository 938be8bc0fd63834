import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database, its backups and the pictures hold password hashes, sessions and pictures of
/// unpublished questions: whatever Quizbox creates is its owner's alone, files 0600 and folders
/// 0700, whatever the umask. Files and folders already there keep their mode.
public enum PrivateFiles {
    public static let fileMode: mode_t = 0o600
    public static let folderMode: mode_t = 0o700

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ action: String, _ path: String) {
            description = "cannot \(action) \(path): \(String(cString: strerror(errno)))"
        }
    }

    /// Creates `folder` and any missing parent, each 0700.
    public static func createFolder(_ folder: URL) throws {
        let path = folder.standardizedFileURL.path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return }
        let parent = folder.standardizedFileURL.deletingLastPathComponent()
        if parent.path != path { try createFolder(parent) }
        // mkdir's mode is masked by the umask, which never adds bits: 0700 stays 0700 or less.
        guard mkdir(path, folderMode) == 0 || errno == EEXIST else { throw Failure("create the folder", path) }
    }

    /// Creates an empty file at `path`, 0600; false when one is already there.
    @discardableResult
    public static func createEmpty(_ path: String) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        if descriptor < 0 {
            if errno == EEXIST { return false }
            throw Failure("create", path)
        }
        close(descriptor)
        return true
    }

    /// A new file at `path` (0600), open for writing; fails if one is there.
    public static func create(_ path: String) throws -> FileHandle {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw Failure("create", path) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Writes `data` under a temporary name in `target`'s folder and renames it into place, so
    /// a reader never sees half a file.
    public static func write(_ data: Data, to target: URL) throws {
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".partial-\(UUID().uuidString)")
        do {
            let handle = try create(temporary.path)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
        }
        guard rename(temporary.path, target.path) == 0 else {
            let failure = Failure("write", target.path)
            unlink(temporary.path)
            throw failure
        }
    }

    /// Copies the file at `source` to a new file at `target` (0600), a block at a time.
    public static func copy(_ source: String, to target: String) throws {
        guard let input = FileHandle(forReadingAtPath: source) else { throw Failure("read", source) }
        defer { try? input.close() }
        let output = try create(target)
        defer { try? output.close() }
        while let block = try input.read(upToCount: 1 << 20), !block.isEmpty { try output.write(contentsOf: block) }
    }
}

extension PrivateFiles {
    /// The file at `path` emptied for writing, created 0600 if it is not there (one that is keeps its mode).
    public static func replace(_ path: String) throws -> FileHandle {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw Failure("write", path) }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
