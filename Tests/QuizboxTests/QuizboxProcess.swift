import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}

/// A running `quizbox serve`, stopped with SIGTERM.
final class RunningServer: @unchecked Sendable {
    let process = Process()
    let baseURL: URL
    private let output = Pipe()

    init(arguments: [String], environment: [String: String] = [:], in directory: URL) throws {
        process.executableURL = QuizboxProcess.executable
        process.arguments = ["serve", "--port", "0"] + arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Blocks on the pipe until the server logs its address: no polling, no sleeping.
        var seen = ""
        var url: URL?
        while url == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            if let range = seen.range(of: #"ready at (http://[0-9.]+:[0-9]+)"#, options: .regularExpression) {
                url = URL(string: String(seen[range].dropFirst("ready at ".count)))
            }
        }
        guard let url else {
            process.terminate()
            throw ServerDidNotStart(output: seen)
        }
        baseURL = url
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        var output: String
        var description: String { "quizbox serve did not start:\n\(output)" }
    }

    /// Sends SIGTERM and waits for a clean exit; returns the rest of the log.
    func stop() -> (status: Int32, log: String) {
        process.terminate()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: rest, as: UTF8.self))
    }

    func request(_ method: String, _ path: String, token: String? = nil, json: Any? = nil) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        // A connection per request: under a loaded full run a kept-alive connection that the
        // server had closed (idle timeout) left a request waiting out URLSession's 60 s.
        request.setValue("close", forHTTPHeaderField: "Connection")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
    }
}

func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
