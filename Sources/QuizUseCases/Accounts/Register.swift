import Foundation
import QuizCore
import QuizStore

/// Creating an account: for the API, the registration page and `quizbox user create`.
package struct Register: Sendable {
    package enum Failure: Error, Equatable {
        /// Fields break rules, each named by its domain name (`username`, `firstName`, …); never empty.
        case invalid([Registration.Invalid])
        case usernameTaken(String)
        /// Too many accounts made from one address lately.
        case tooManyRegistrations
    }

    let store: any UserStore
    let hasher: PasswordHasher
    let minimumPasswordLength: Int
    let limiter: RateLimiter?
    let perAddressPerHour: Int
    let time: any TimeSource

    /// `limiter` counts registrations per client address; the CLI, which has none, passes nil.
    package init(store: any UserStore, hasher: PasswordHasher, minimumPasswordLength: Int, limiter: RateLimiter?,
                 perAddressPerHour: Int = 20, time: any TimeSource) {
        self.store = store
        self.hasher = hasher
        self.minimumPasswordLength = minimumPasswordLength
        self.limiter = limiter
        self.perAddressPerHour = perAddressPerHour
        self.time = time
    }

    /// Seconds a client refused for too many registrations should wait.
    package static var retryAfter: Int { 600 }

    /// Validates, counts the address (before any bcrypt work), refuses a taken name (a lookup, not
    /// a quarter second of CPU), hashes the password and stores the user.
    package func callAsFunction(_ registration: Registration, role: Role = .player, address: String?) async throws -> User {
        let problems = registration.problems(minimumPasswordLength: minimumPasswordLength)
        guard problems.isEmpty else { throw Failure.invalid(problems) }
        if let limiter, let address {
            let check = RateLimiter.Check(key: "register-ip:" + AddressKey.of(address), limit: perAddressPerHour, window: 3600)
            guard try await limiter.allow([check]) else { throw Failure.tooManyRegistrations }
        }
        if try await store.credentials(username: registration.username) != nil { throw Failure.usernameTaken(registration.username) }
        let hash = try await hasher.hash(registration.password, lane: .register)
        do {
            return try await store.createUser(NewUser(
                username: registration.username,
                firstName: registration.firstName.trimmingCharacters(in: .whitespacesAndNewlines),
                lastName: registration.lastName.trimmingCharacters(in: .whitespacesAndNewlines),
                passwordHash: hash, role: role, createdAt: time.now()
            ))
        } catch StoreError.usernameTaken {
            throw Failure.usernameTaken(registration.username)  // taken between the lookup and the insert
        }
    }
}
