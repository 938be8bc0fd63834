import HummingbirdBcrypt
import NIOCore
import NIOPosix
import Synchronization

/// bcrypt on threads of its own: a cost-12 hash takes a quarter of a second, and on the shared
/// thread pool a flood of them kept SQLite (which runs there) waiting for seconds.
///
/// Each kind of work has a lane with a bound on how many may be queued or running; past it the
/// caller gets `Busy` (503 with Retry-After) at once, so a registration flood cannot queue up
/// ahead of log-ins, and nothing waits unboundedly.
package final class PasswordHasher: Sendable {
    package enum Lane: Int, Sendable, CaseIterable {
        case logIn, register, changePassword

        package var capacity: Int {
            switch self {
            case .logIn: 32
            case .register: 4
            case .changePassword: 4
            }
        }
    }

    /// Too much bcrypt work is waiting: try again shortly.
    package struct Busy: Error {}

    package let cost: Int
    private let dummyHash = Mutex<String?>(nil)
    private let queued = Mutex<[Int]>(Array(repeating: 0, count: Lane.allCases.count))

    /// Started once for the process, never stopped: its threads sleep when there is no work.
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, System.coreCount))
        pool.start()
        return pool
    }()

    package init(cost: Int) {
        self.cost = cost
    }

    package func hash(_ password: String, lane: Lane = .register) async throws -> String {
        let cost = UInt8(clamping: cost)
        return try await run(lane) { Bcrypt.hash(password, cost: cost) }
    }

    package func verify(_ password: String, hash: String, lane: Lane = .logIn) async throws -> Bool {
        try await run(lane) { Bcrypt.verify(password, hash: hash) }
    }

    /// Checks a password against a throwaway hash of the same cost, so an unknown username
    /// takes as long to refuse as a wrong password.
    package func verifyAgainstDummy(_ password: String, lane: Lane = .logIn) async throws {
        let existing = dummyHash.withLock { $0 }
        let dummy: String
        if let existing {
            dummy = existing
        } else {
            dummy = try await hash("quizbox-dummy-password", lane: lane)
            dummyHash.withLock { $0 = dummy }
        }
        _ = try await verify(password, hash: dummy, lane: lane)
    }

    /// How many are queued or running in a lane (for tests and metrics).
    package func waiting(in lane: Lane) -> Int { queued.withLock { $0[lane.rawValue] } }

    private func run<T: Sendable>(_ lane: Lane, _ work: @escaping @Sendable () -> T) async throws -> T {
        let admitted = queued.withLock { counts in
            guard counts[lane.rawValue] < lane.capacity else { return false }
            counts[lane.rawValue] += 1
            return true
        }
        guard admitted else { throw Busy() }
        defer { queued.withLock { $0[lane.rawValue] -= 1 } }
        return try await Self.pool.runIfActive(work)
    }
}
