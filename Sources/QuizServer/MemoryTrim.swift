import Foundation
import Logging
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// Gives memory back to the system after a burst. glibc keeps what a thread freed in that thread's
/// arena, and gives back only the arena's top: after 10,000 players joined at once (each a page,
/// a handshake, a join), 85 MB was in use but the process held 340 MB, the rest free pieces between
/// long-lived sockets. `malloc_trim` returns those pages. It walks the arenas, so it runs only when
/// the resident size grew by `growth` since it last settled, and again at the next check while the
/// last trim still gave back a good part of that (a trim in the middle of the crowd finds little
/// of what the crowd leaves): a few times after a crowd joins, never while a game just plays on.
struct MemoryTrim: Service {
    var interval: Duration = .seconds(5)
    var growth = 32 << 20
    let logger: Logger

    func run() async throws {
        guard Self.trim != nil else { return }
        var level = Level(settled: Self.residentBytes())
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            // A stopping server stops waiting at once.
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: interval) })) != nil else { return }
            level = step(level)
        }
    }

    struct Level: Equatable {
        /// The resident size after the last trim, or lower since.
        var settled: Int
        /// The last trim gave back at least a quarter of `growth`: trim again at the next check.
        var again = false
    }

    func step(_ level: Level) -> Level {
        let resident = Self.residentBytes()
        guard resident > level.settled + growth || level.again, let trim = Self.trim else {
            return Level(settled: min(level.settled, resident))
        }
        let start = ContinuousClock.now
        _ = trim(0)
        let after = Self.residentBytes()
        logger.debug("memory trimmed", metadata: [
            "before_mb": "\(resident >> 20)", "after_mb": "\(after >> 20)", "took": "\(ContinuousClock.now - start)",
        ])
        return Level(settled: after, again: resident - after >= growth / 4)
    }

    /// glibc's `malloc_trim`, looked up at run time: Swift's Glibc module does not declare it, and
    /// other C libraries (musl, Darwin) have none.
    static let trim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// The process's resident size (the second field of /proc/self/statm, in pages); 0 where there is none.
    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
