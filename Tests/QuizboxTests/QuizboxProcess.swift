import Foundation
import Synchronization
import Testing
import QuizTestSupport
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Runs the built `quizbox` executable, as a user would.
struct QuizboxProcess {
    static var executable: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for folder in [besideTests, besideTests.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("quizbox")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/quizbox")
    }

    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs one command to completion with `input` on standard input.
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:], in directory: URL) throws -> Result {
        let (status, output) = try ChildProcess.run(
            executable.path, arguments, stdin: input,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, directory: directory.path)
        return Result(status: status, output: output)
    }
}

/// A running `quizbox serve`, stopped with SIGTERM.
final class RunningServer: @unchecked Sendable {
    let process: ChildProcess
    let baseURL: URL
    /// The log after the ready line, read as it comes: a pipe nobody reads fills up (64 KB, a few
    /// hundred request log lines) and then the server blocks on its next log write.
    private let log = Log()
    private let drained = DispatchSemaphore(value: 0)

    private final class Log: Sendable {
        let data = Mutex<Data>(Data())
    }

    init(arguments: [String], environment: [String: String] = [:], in directory: URL) throws {
        process = try ChildProcess(
            QuizboxProcess.executable.path, ["serve", "--port", "0"] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, directory: directory.path)
        let handle = process.output!
        // Blocks on the pipe until the server logs its address: no polling, no sleeping.
        var seen = ""
        var url: URL?
        while url == nil {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            if let range = seen.range(of: #"ready at (http://[0-9.]+:[0-9]+)"#, options: .regularExpression) {
                url = URL(string: String(seen[range].dropFirst("ready at ".count)))
            }
        }
        guard let url else {
            process.signal(SIGTERM)
            process.wait()
            throw ServerDidNotStart(output: seen)
        }
        baseURL = url
        log.data.withLock { $0.append(Data(seen.utf8)) }
        // The reader holds the log, not the server, so a server no test stopped still deinits.
        Thread.detachNewThread { [log, drained] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                log.data.withLock { $0.append(chunk) }
            }
            drained.signal()
        }
    }

    /// A test that throws before `stop()` must not leave a server running after the test run.
    deinit {
        process.signal(SIGKILL)
        process.wait()
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        var output: String
        var description: String { "quizbox serve did not start:\n\(output)" }
    }

    /// Sends SIGTERM and waits for a clean exit; returns the rest of the log.
    func stop() -> (status: Int32, log: String) {
        process.signal(SIGTERM)
        drained.wait()
        drained.signal()  // a second stop() returns too
        return (process.wait(), String(decoding: log.data.withLock { $0 }, as: UTF8.self))
    }

    func request(_ method: String, _ path: String, token: String? = nil, json: Any? = nil) async throws -> (Int, [String: Any]) {
        var headers = HTTPHeaders()
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        var body: Data?
        if let json {
            body = try JSONSerialization.data(withJSONObject: json)
            headers.add(name: "Content-Type", value: "application/json")
        }
        let (status, data) = try await send(method, path, headers: headers, body: body)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, object)
    }

    /// One request through AsyncHTTPClient: URLSession on Linux (libcurl) reused connections the
    /// server had closed and failed with "Empty reply from server" under load.
    func send(_ method: String, _ path: String, headers: HTTPHeaders = [:], body: Data? = nil) async throws -> (Int, Data) {
        var request = HTTPClientRequest(url: baseURL.appendingPathComponent(path).absoluteString)
        request.method = HTTPMethod(rawValue: method)
        request.headers = headers
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), Data(bytes.readableBytesView))
    }
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
