import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// bcrypt off the event loops: a cost-12 hash takes a quarter of a second.
final class PasswordHasher: Sendable {
    let cost: Int
    private let dummyHash = Mutex<String?>(nil)

    init(cost: Int) {
        self.cost = cost
    }

    func hash(_ password: String) async throws -> String {
        let cost = UInt8(clamping: cost)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// Checks a password against a throwaway hash of the same cost, so an unknown username
    /// takes as long to refuse as a wrong password.
    func verifyAgainstDummy(_ password: String) async throws {
        let existing = dummyHash.withLock { $0 }
        let dummy: String
        if let existing {
            dummy = existing
        } else {
            dummy = try await hash("quizbox-dummy-password")
            dummyHash.withLock { $0 = dummy }
        }
        _ = try await verify(password, hash: dummy)
    }
}
