import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for tests that run commands.
///
/// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` and copies each entry's
/// whole 256-byte name, reading past the end of the directory buffer; with the thousands of
/// descriptors a parallel test run holds, that crashed the test process (signal 11 in CI).
/// Here the child closes every inherited descriptor above 2 with one `closefrom` action, and the
/// parent's pipe ends are close-on-exec so children started at the same time never hold them.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    /// Standard output and standard error together, when the caller asked for them.
    public let output: FileHandle?
    /// Standard input, when the caller asked to write to it; close it to send end of file.
    public let input: FileHandle?
    private let status = NSLock()
    private var exitStatus: Int32?

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Where the child's standard output and error go.
    public enum Output {
        /// A pipe the caller reads from `output`.
        case pipe
        /// Files (stdout, stderr), so neither can fill a pipe.
        case files(stdout: String, stderr: String)
        /// The null device.
        case discard
    }

    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil, output: Output = .pipe, input: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }

        func pipePair() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return (fds[0], fds[1])
        }
        func openFile(_ path: String, _ flags: Int32) throws -> Int32 {
            let fd = open(path, flags | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw Failure(description: "\(path): \(String(cString: strerror(errno)))") }
            opened.append(fd)
            return fd
        }

        if input {
            let pair = try pipePair()
            opened.append(pair.read)
            posix_spawn_file_actions_adddup2(&actions, pair.read, 0)
            self.input = FileHandle(fileDescriptor: pair.write, closeOnDealloc: true)
        } else {
            posix_spawn_file_actions_adddup2(&actions, try openFile("/dev/null", O_RDONLY), 0)
            self.input = nil
        }
        switch output {
        case .pipe:
            let pair = try pipePair()
            opened.append(pair.write)
            posix_spawn_file_actions_adddup2(&actions, pair.write, 1)
            posix_spawn_file_actions_adddup2(&actions, pair.write, 2)
            self.output = FileHandle(fileDescriptor: pair.read, closeOnDealloc: true)
        case .files(let stdout, let stderr):
            posix_spawn_file_actions_adddup2(&actions, try openFile(stdout, O_WRONLY | O_CREAT | O_TRUNC), 1)
            posix_spawn_file_actions_adddup2(&actions, try openFile(stderr, O_WRONLY | O_CREAT | O_TRUNC), 2)
            self.output = nil
        case .discard:
            let null = try openFile("/dev/null", O_WRONLY)
            posix_spawn_file_actions_adddup2(&actions, null, 1)
            posix_spawn_file_actions_adddup2(&actions, null, 2)
            self.output = nil
        }
        guard let closeFrom = GNUSpawn.closeFrom, let changeDirectory = GNUSpawn.changeDirectory else {
            throw Failure(description: "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later)")
        }
        _ = closeFrom(&actions, 3)
        if let directory { _ = changeDirectory(&actions, directory) }

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw Failure(description: "\(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    /// Waits for the child to end: its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        status.lock()
        defer { status.unlock() }
        if let exitStatus { return exitStatus }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        let code = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        exitStatus = code
        return code
    }

    public func signal(_ signal: Int32) {
        status.lock()
        defer { status.unlock() }
        if exitStatus == nil { kill(pid, signal) }
    }

    /// Runs a command to completion: its status and everything it wrote to stdout and stderr.
    public static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil,
        directory: String? = nil
    ) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, directory: directory, input: stdin != nil)
        if let stdin, let input = child.input {
            ignoreBrokenPipes()
            try? input.write(contentsOf: Data(stdin.utf8))
            try? input.close()
        }
        let data = child.output?.readDataToEndOfFile() ?? Data()
        return (child.wait(), String(decoding: data, as: UTF8.self))
    }
}

/// glibc's spawn extensions, which Swift's Glibc module does not import (they need _GNU_SOURCE).
private enum GNUSpawn {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let closeFrom: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    static let changeDirectory: ChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<F>(_ name: String) -> F? {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: F.self)
    }
}

/// A child that exits without reading its input must not end the test process with SIGPIPE.
private func ignoreBrokenPipes() {
    _ = signal(SIGPIPE, SIG_IGN)
}
