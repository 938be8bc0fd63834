import Foundation
import Synchronization

/// Every figure the players and hosts measure, from the client side.
final class BenchRecorder: Sendable {
    struct Samples {
        /// Nanoseconds from a host's start/next to a player's question.
        var broadcast: [UInt64] = []
        /// Nanoseconds from sending an answer to its ack.
        var ack: [UInt64] = []
        /// Milliseconds from a question's deadline (server clock) to the player's result.
        var result: [Int64] = []
        /// The same, by the question's kind.
        var resultByKind: [String: [Int64]] = [:]
        /// Nanoseconds from a host's next to a player's leaderboard.
        var leaderboard: [UInt64] = []
        /// Nanoseconds from opening the socket to `joined`.
        var join: [UInt64] = []
        var refusals: [String: Int] = [:]
        var joinFailures: [String: Int] = [:]
        var dropped = 0
        /// Messages a player read only after the host's next command (the client fell behind): not timed.
        var overtaken = 0
        var sent = 0
        var acked = 0
        /// Question messages that carried a correct answer (must stay 0).
        var leaks = 0
        /// Results whose `answered` disagreed with the ack the player got.
        var resultMismatches = 0
    }

    private let samples = Mutex(Samples())

    func update(_ body: (inout Samples) -> Void) { samples.withLock { body(&$0) } }
    func read() -> Samples { samples.withLock { $0 } }
}

/// p50, p99 and max of a set of figures, in milliseconds.
struct Spread: CustomStringConvertible {
    var count: Int
    var p50: Double
    var p99: Double
    var max: Double

    init(nanoseconds values: [UInt64]) {
        self.init(milliseconds: values.map { Double($0) / 1e6 })
    }

    init(milliseconds values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        func at(_ fraction: Double) -> Double {
            sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
        }
        p50 = at(0.50)
        p99 = at(0.99)
        max = sorted.last ?? .nan
    }

    var description: String {
        String(format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms (n=%d)", p50, p99, max, count)
    }
}

/// CPU time and memory of the server process, from /proc.
struct ServerProcess {
    let pid: Int32

    /// utime + stime, in seconds.
    func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14, stime 15 (1-based over the whole line).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A `Vm…` line of /proc/PID/status, in KiB: VmRSS now, VmHWM the peak.
    func memory(_ key: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}
