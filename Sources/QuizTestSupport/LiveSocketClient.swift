import Foundation
import HTTPTypes
import HummingbirdWSClient
import NIOWebSocket
import Logging
import Synchronization

/// One WebSocket of the live protocol, driven by a test: messages in arrive in `inbox` in order.
public final class LiveSocketClient: Sendable {
    private let outgoing: AsyncStream<String>.Continuation
    private let inbox = Inbox()
    private let task: Task<Void, any Error>

    /// Messages received and not yet read; `take` waits for the next one.
    public final class Inbox: Sendable {
        private struct State {
            var buffer: [String] = []
            var waiter: CheckedContinuation<String?, Never>?
            var finished = false
        }
        private let state = Mutex(State())

        func put(_ text: String?) {
            let waiter: CheckedContinuation<String?, Never>? = state.withLock { state in
                if let waiter = state.waiter {
                    state.waiter = nil
                    if text == nil { state.finished = true }
                    return waiter
                }
                if let text { state.buffer.append(text) } else { state.finished = true }
                return nil
            }
            waiter?.resume(returning: text)
        }

        /// Ends a wait that has gone on too long (a test's safety net, not its clock).
        func expire() {
            let waiter: CheckedContinuation<String?, Never>? = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }

        func take() async -> String? {
            await withCheckedContinuation { continuation in
                let ready: String?? = state.withLock { state in
                    if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    public init(port: Int, host: String = "127.0.0.1", cookie: String? = nil, origin: String? = nil, headers extra: [String: String] = [:]) {
        let (outStream, outgoing) = AsyncStream.makeStream(of: String.self)
        self.outgoing = outgoing
        let inbox = inbox
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        if let origin { headers[.origin] = origin }
        for (name, value) in extra { if let name = HTTPField.Name(name) { headers[name] = value } }
        var logger = Logger(label: "live-test-client")
        logger.logLevel = .critical
        task = Task {
            defer { inbox.put(nil) }
            do { let closed = try await WebSocketClient.connect(url: "ws://\(host):\(port)/live/socket", configuration: .init(additionalHeaders: headers),
                                              logger: logger) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in outStream { try await outbound.write(.text(text)) }
                        // close(): the close handshake, so the server sees the socket go at once.
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        if case .text(let text) = message { inbox.put(text) }
                    }
                    group.cancelAll()
                }
            }
                // Why a socket ended that a test did not close (a failing test's only clue).
                if let closed, closed.closeCode != .normalClosure {
                    FileHandle.standardError.write(Data("live test client: closed by the server with \(closed.closeCode) \(closed.reason ?? "")\n".utf8))
                }
            } catch {
                FileHandle.standardError.write(Data("live test client: \(error)\n".utf8))
            }
        }
    }

    public func send(_ object: [String: Any]) throws {
        var object = object
        if object["v"] == nil { object["v"] = 1 }
        outgoing.yield(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    public func sendRaw(_ text: String) { outgoing.yield(text) }

    /// Every message up to and including the next one of `type`; those before it alone when the
    /// socket closed first.
    public func messages(through type: String) async throws -> [[String: Any]] {
        var seen: [[String: Any]] = []
        while let message = try await next(nil) {
            seen.append(message)
            if message["type"] as? String == type { break }
        }
        return seen
    }

    /// The next message of `type` (of any type when nil), skipping others; nil when the socket closed first.
    public func next(_ type: String?) async throws -> [String: Any]? {
        let watchdog = Task { [inbox] in
            // Long enough for a fully loaded test run on two cores; a message that never comes still ends the wait.
            try await Task.sleep(for: .seconds(30))
            inbox.expire()
        }
        defer { watchdog.cancel() }
        while let text = await inbox.take() {
            guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], object["v"] as? Int == 1 else {
                throw NotAMessage(text: text)
            }
            if type == nil || object["type"] as? String == type { return object }
            if ProcessInfo.processInfo.environment["LIVE_DEBUG"] != nil { print("skipped while waiting for \(type ?? "any"): \(text)") }
        }
        return nil
    }

    /// Closes with the close handshake (the reading ends when the server answers it).
    public func close() {
        outgoing.finish()
    }

    /// The server sent something that is not a message of the live protocol's version 1.
    public struct NotAMessage: Error, CustomStringConvertible {
        public var text: String
        public var description: String { "not a live message: \(text)" }
    }
}

