import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
@testable import QuizServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The request log (issue 35): one line per request, StreamLogHandler's format, written through a
/// buffer by a thread of its own, so a stopped output never holds a request.
@Suite struct RequestLogTests {
    /// 2026-11-20 12:00:00 UTC: any time zone still puts it in November 2026.
    static let fixedSecond = 1_795_176_000

    @Test func aRequestEndsInOneLineWithMethodRouteStatusDurationAndId() async throws {
        let output = try LogPipe()
        let sink = LogSink(descriptor: output.writeEnd, seconds: { Self.fixedSecond })
        let logger = Logger(label: "quizbox") { SinkLogHandler(label: $0, sink: sink) }
        let router = Router()
        router.addMiddleware { RequestObserver(metrics: ServerMetrics(enabled: false), logRequests: true, logger: logger) }
        router.get("/things/:id") { _, _ in "thing" }
        let app = Application(router: router, logger: logger)
        try await app.test(.router) { client in
            var headers = HTTPFields()
            headers[HTTPField.Name("X-Request-Id")!] = "req-42"
            try await client.execute(uri: "/things/7", method: .get, headers: headers) { #expect($0.status == .ok) }
            try await client.execute(uri: "/nowhere", method: .post) { #expect($0.status == .notFound) }
        }
        sink.close()
        let lines = output.readAll().split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let first = try #require(lines.first)
        #expect(first.hasPrefix("2026-11-"))
        let pattern = #/^\S{24} info quizbox: duration_ms=\d+\.\d{3} hb\.request\.id=req-42 method=GET route=/things/{id} status=200 \[QuizServer\] request$/#
        #expect(first.wholeMatch(of: pattern) != nil, "\(first)")
        #expect(lines.last?.contains(" method=POST route=unmatched status=404 [QuizServer] request") == true)
    }

    @Test func otherLinesKeepStreamLogHandlersFormat() throws {
        let output = try LogPipe()
        let sink = LogSink(descriptor: output.writeEnd, seconds: { Self.fixedSecond })
        var logger = Logger(label: "quizbox") { SinkLogHandler(label: $0, sink: sink) }
        logger[metadataKey: "b"] = "2"
        logger.warning("careful", metadata: ["a": "1"])
        logger.debug("not shown")
        sink.close()
        let text = output.readAll()
        #expect(text.dropFirst(24) == " warning quizbox: a=1 b=2 [QuizServerTests] careful\n")
    }

    @Test(.timeLimit(.minutes(1))) func aStoppedOutputDropsLinesInsteadOfBlocking() throws {
        let output = try LogPipe()  // nobody reads it until the end: its 64 KiB fill up
        let sink = LogSink(descriptor: output.writeEnd, capacity: 4096, seconds: { Self.fixedSecond })
        let total = 5000  // about 500 KB
        var kept = 0
        for index in 0..<total {
            if sink.append({ line in line.appendLog("line "); line.appendLog(index); line.appendLog(String(repeating: "x", count: 70)) }) { kept += 1 }
        }
        // Some were dropped: how many is checked below, in the notes (the writer may already have
        // taken the count into a note before it stuck on the full pipe, so `dropped` can read 0 here).
        #expect(kept < total)
        // Once the output moves again, what was kept is written, then how many were lost.
        let reader = output.startReading()
        sink.close()
        output.closeWriteEnd()
        let lines = reader.wait().split(separator: "\n")
        // A note follows each stretch of lost lines (the writer can fall behind before the pipe fills).
        let notes = lines.compactMap { $0.wholeMatch(of: #/quizbox: (\d+) log lines dropped: the log's output was too slow/#)?.1 }
        #expect(lines.count - notes.count == kept)
        #expect(notes.compactMap { Int($0) }.reduce(0, +) == total - kept)
        #expect(lines.first?.hasSuffix(" line 0" + String(repeating: "x", count: 70)) == true)
        #expect(lines.last?.hasSuffix("log lines dropped: the log's output was too slow") == true)
    }

    @Test func numbersAreWrittenWithoutFoundation() {
        var bytes: [UInt8] = []
        bytes.appendLog(0); bytes.appendLog(" "); bytes.appendLog(-305); bytes.appendLog(" ")
        bytes.appendLogMilliseconds(nanoseconds: 412_999); bytes.appendLog(" ")
        bytes.appendLogMilliseconds(nanoseconds: 12_005_000_000)
        #expect(String(decoding: bytes, as: UTF8.self) == "0 -305 0.412 12005.000")
    }
}

/// A pipe the sink writes into and the test reads back.
private final class LogPipe: @unchecked Sendable {
    let readEnd: Int32
    private(set) var writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        if writeEnd >= 0 { close(writeEnd) }
    }

    func closeWriteEnd() {
        close(writeEnd)
        writeEnd = -1
    }

    /// Everything written so far; only after the sink is closed and with little in the pipe.
    func readAll() -> String {
        closeWriteEnd()
        return drain()
    }

    /// Reads to the end on a thread of its own, as a log collector would.
    func startReading() -> Reader {
        let reader = Reader()
        let thread = Thread { [self] in reader.finish(drain()) }
        thread.start()
        return reader
    }

    private func drain() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(readEnd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    final class Reader: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var text = ""
        func finish(_ text: String) { self.text = text; done.signal() }
        func wait() -> String { done.wait(); return text }
    }
}
