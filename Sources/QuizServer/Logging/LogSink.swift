#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation  // NSCondition and Thread only: the writer thread; lines are formatted without it

/// Log lines kept in a buffer and written to a file descriptor (stderr) by a thread of their own, so
/// a request never waits on a slow or stopped terminal, pipe or journal. A line is formatted straight
/// into the buffer under one short lock. When the reader falls behind by more than `capacity` bytes,
/// new lines are dropped and counted, and the count is written once the output moves again.
public final class LogSink: @unchecked Sendable {
    /// Bytes waiting for the writer; beyond this, lines are dropped rather than memory grown.
    public let capacity: Int
    private static let batchBytes = 64 * 1024
    private static let batchMicroseconds: UInt32 = 1000
    private let descriptor: Int32
    private let seconds: @Sendable () -> Int
    // Everything below is read and changed only with `condition` locked.
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var droppedLines = 0
    private var closing = false
    private var writerDone = false
    private var stampSecond = Int.min
    private var stamp: [UInt8] = []

    /// - Parameters:
    ///   - descriptor: where lines go; not closed by the sink.
    ///   - seconds: the wall clock, in seconds since 1970 (tests give a fixed one).
    public init(descriptor: Int32 = 2, capacity: Int = 1 << 20, seconds: @escaping @Sendable () -> Int = { Int(time(nil)) }) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.seconds = seconds
        pending.reserveCapacity(min(capacity, 64 * 1024))
        let thread = Thread { [unowned self] in self.runWriter() }
        thread.name = "quizbox-log"
        thread.start()
    }

    /// Appends one line: `build` writes it (without the newline) after the timestamp and a space.
    /// Returns false when the line was dropped because the output is too far behind.
    @discardableResult
    public func append(_ build: (inout [UInt8]) -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closing, pending.count < capacity else {
            droppedLines += 1
            return false
        }
        let wasEmpty = pending.isEmpty
        appendTimestamp()
        pending.append(UInt8(ascii: " "))
        build(&pending)
        pending.append(UInt8(ascii: "\n"))
        if wasEmpty { condition.signal() }
        return true
    }

    /// Writes what is buffered, then stops the writer; lines appended afterwards are dropped.
    public func close() {
        condition.lock()
        closing = true
        condition.broadcast()
        while !writerDone { condition.wait() }
        condition.unlock()
    }

    /// Lines dropped since the last time the count was written out.
    public var dropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedLines
    }

    // strftime once a second, as StreamLogHandler formats it: 2026-11-24T14:30:00+0000.
    private func appendTimestamp() {
        let now = seconds()
        if now != stampSecond {
            var clock = time_t(now)
            var parts = tm()
            var text = [Int8](repeating: 0, count: 64)
            localtime_r(&clock, &parts)
            let length = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
            stamp = text.prefix(length).map { UInt8(bitPattern: $0) }
            stampSecond = now
        }
        pending.append(contentsOf: stamp)
    }

    private func runWriter() {
        var writing: [UInt8] = []
        writing.reserveCapacity(pending.capacity)
        while true {
            condition.lock()
            while pending.isEmpty && droppedLines == 0 && !closing { condition.wait() }
            if pending.isEmpty && droppedLines == 0 && closing {
                writerDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            if !closing && pending.count < Self.batchBytes {
                // Let a burst gather: a write (and a wake-up) a millisecond at most, not one a request.
                condition.unlock()
                usleep(Self.batchMicroseconds)
                condition.lock()
            }
            swap(&pending, &writing)
            let lost = droppedLines
            droppedLines = 0
            condition.unlock()
            if lost > 0 {
                writing.append(contentsOf: "quizbox: \(lost) log lines dropped: the log's output was too slow\n".utf8)
            }
            writeAll(writing)
            writing.removeAll(keepingCapacity: true)
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return  // a closed or broken output: the lines are lost, the server goes on
                }
            }
        }
    }
}

/// Formatting into a log buffer without Foundation or String interpolation.
extension [UInt8] {
    mutating func appendLog(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    mutating func appendLog(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = endIndex
        repeat {
            append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        self[start...].reverse()
    }

    /// Nanoseconds as milliseconds with three decimals (microseconds, rounded down): 0.412.
    mutating func appendLogMilliseconds(nanoseconds: UInt64) {
        let microseconds = Int(nanoseconds / 1000)
        appendLog(microseconds / 1000)
        append(UInt8(ascii: "."))
        let fraction = microseconds % 1000
        if fraction < 100 { append(UInt8(ascii: "0")) }
        if fraction < 10 { append(UInt8(ascii: "0")) }
        appendLog(fraction)
    }
}
