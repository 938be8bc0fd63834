import Foundation
import QuizCore
import QuizStore

/// Account creation as one use case, shared by the API and the `quizbox user create` command.
public struct Accounts<Store: UserStore>: Sendable {
    let store: Store
    let hasher: PasswordHasher
    let minimumPasswordLength: Int
    let time: any TimeSource

    public init(store: Store, config: ServerConfig, time: any TimeSource = SystemTimeSource()) {
        self.init(store: store, hasher: PasswordHasher(cost: config.bcryptCost),
                  minimumPasswordLength: config.minimumPasswordLength, time: time)
    }

    init(store: Store, hasher: PasswordHasher, minimumPasswordLength: Int, time: any TimeSource) {
        self.store = store
        self.hasher = hasher
        self.minimumPasswordLength = minimumPasswordLength
        self.time = time
    }

    /// Too many accounts made from one address lately.
    public struct TooManyRegistrations: Error {}
    static var tooManyMessage: String { "Too many accounts were made from this address lately. Try again later." }

    /// Registration from outside (the API and the page): at most `limit` new accounts per hour
    /// from one client address, counted before any bcrypt work.
    func register(_ registration: Registration, address: String, limiter: LoginRateLimiter, limit: Int) async throws -> User {
        try registration.validate(minimumPasswordLength: minimumPasswordLength)
        guard try await limiter.allow([.init(key: "register-ip:" + AddressKey.of(address), limit: limit, window: 3600)]) else {
            throw TooManyRegistrations()
        }
        return try await register(registration)
    }

    /// Validates, hashes the password and stores the user. A taken name is refused before the
    /// bcrypt work, so trying one costs the server a lookup, not a quarter second of CPU.
    /// Throws `Registration.Invalid` for a bad field and `StoreError.usernameTaken`.
    public func register(_ registration: Registration, role: Role = .player) async throws -> User {
        try registration.validate(minimumPasswordLength: minimumPasswordLength)
        if try await store.credentials(username: registration.username) != nil { throw StoreError.usernameTaken }
        let hash = try await hasher.hash(registration.password, lane: .register)
        return try await store.createUser(NewUser(
            username: registration.username,
            firstName: registration.firstName.trimmingCharacters(in: .whitespacesAndNewlines),
            lastName: registration.lastName.trimmingCharacters(in: .whitespacesAndNewlines),
            passwordHash: hash, role: role, createdAt: time.now()
        ))
    }
}
