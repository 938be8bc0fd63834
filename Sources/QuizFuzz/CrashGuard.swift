import Foundation
import Synchronization
#if canImport(Glibc)
// ZIPFoundation (under QuizFormats) brings CoreFoundation's `timespec` into view: named here too.
import CoreFoundation
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What survives a crash or a hang: each input is written to `last-input` before it runs (a
/// Swift trap kills the process, so afterwards would be too late), a signal handler says which
/// reader crashed and where its input is, and a watchdog ends an input that never finishes.
///
/// One per process; the state the handler reads is set up before any input runs.
enum CrashGuard {
    /// Monotonic nanoseconds at which the running input started; 0 between inputs.
    private static let started = Atomic<UInt64>(0)
    nonisolated(unsafe) private static var descriptor: Int32 = -1
    /// The message the signal handler and the watchdog write, prepared in advance: neither may allocate.
    nonisolated(unsafe) private static var crashMessage: [CChar] = []
    nonisolated(unsafe) private static var hangMessage: [CChar] = []
    nonisolated(unsafe) private static var previous: [sigaction] = Array(repeating: .init(), count: 65)
    private static let signals = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]

    /// Opens `path` for the inputs and installs the handler and, unless `hangSeconds` is 0, the watchdog.
    static func install(lastInput path: String, hangSeconds: Double) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if descriptor < 0 { fatalError("cannot write \(path): \(String(cString: strerror(errno)))") }
        for signal in signals {
            var action = sigaction()
            action.sa_flags = SA_SIGINFO
            #if canImport(Glibc)
            action.__sigaction_handler.sa_sigaction = { signal, _, _ in CrashGuard.report(signal) }
            #else
            action.__sigaction_u.__sa_sigaction = { signal, _, _ in CrashGuard.report(signal) }
            #endif
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous[Int(signal)] = old
        }
        guard hangSeconds > 0 else { return }
        let limit = UInt64(hangSeconds * 1e9)
        Thread.detachNewThread {
            while true {
                usleep(100_000)
                let start = started.load(ordering: .relaxed)
                if start != 0 && now() - start > limit {
                    hangMessage.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count) }
                    _exit(3)
                }
            }
        }
    }

    /// Says which reader runs from now on, for the messages.
    static func prepare(reader: String, lastInput path: String, reproduce: String) {
        crashMessage = Array("\nQuizFuzz: \(reader) crashed; the input is saved at \(path) (copy it before the next run).\n  Reproduce: \(reproduce)\n".utf8CString.dropLast())
        hangMessage = Array("\nQuizFuzz: \(reader) hung (no answer within the watchdog's limit); the input is saved at \(path).\n  Reproduce: \(reproduce)\n".utf8CString.dropLast())
    }

    /// Runs `body` on `input`, the input written down first; returns the seconds it took.
    static func run(_ input: [UInt8], _ body: () -> Void) -> Double {
        input.withUnsafeBufferPointer { buffer in
            _ = ftruncate(descriptor, 0)
            var offset = 0
            while offset < buffer.count {
                let written = pwrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
                if written <= 0 { break }
                offset += written
            }
        }
        let start = now()
        started.store(start, ordering: .relaxed)
        body()
        started.store(0, ordering: .relaxed)
        return Double(now() - start) / 1e9
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// In the signal handler: the message, then the handler that was there before (the Swift
    /// runtime's backtracer) by putting it back and letting the faulting instruction run again.
    private static func report(_ signal: Int32) {
        crashMessage.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count) }
        // abort() raises SIGABRT again by itself once a handler returns.
        sigaction(signal, &previous[Int(signal)], nil)
    }
}
