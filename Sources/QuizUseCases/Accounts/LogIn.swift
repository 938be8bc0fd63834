import Foundation
import QuizCore
import QuizStore

/// Log-in as one use case, for the API and the pages: the limits, the bcrypt work that hides
/// unknown usernames, and the new session.
///
/// The limits are per client address (any accounts) and per address and account, so nobody can
/// lock an account for everyone. When an account collects many failures from anywhere, each
/// address gets only a few tries at it per quarter hour: guessing slows to a crawl while its
/// owner, from an address that has not failed, still gets in.
package struct LogIn: Sendable {
    package enum Failure: Error, Equatable {
        case missingFields, refused, tooManyAttempts
    }

    let store: any UserStore
    let sessions: Sessions
    let hasher: PasswordHasher
    let limiter: RateLimiter
    /// Attempts per minute from one address, whatever the accounts (a classroom shares one).
    let perAddressPerMinute: Int

    package init(store: any UserStore, sessions: Sessions, hasher: PasswordHasher, limiter: RateLimiter, perAddressPerMinute: Int) {
        self.store = store
        self.sessions = sessions
        self.hasher = hasher
        self.limiter = limiter
        self.perAddressPerMinute = perAddressPerMinute
    }

    /// Seconds a client refused for too many attempts should wait.
    package static var retryAfter: Int { 60 }

    /// Failures on one account (from anywhere, per quarter hour) that start its back-off.
    package var backOffAfter: Int { limiter.limit * 5 }
    package static var backOffTries: Int { 3 }
    package static var backOffWindow: TimeInterval { 15 * 60 }

    package func callAsFunction(username: String, password: String, address: String) async throws -> Sessions.Grant {
        guard !username.isEmpty, !password.isEmpty else { throw Failure.missingFields }
        // Past these lengths nothing can match: refused before any counter keeps the name.
        guard username.utf8.count <= 64, password.utf8.count <= 1024 else { throw Failure.refused }
        let account = Registration.usernameKey(username)
        let client = AddressKey.of(address)
        var checks = [
            RateLimiter.Check(key: "login-ip:" + client, limit: perAddressPerMinute, window: 60),
            RateLimiter.Check(key: "login:\(client)|\(account)", limit: limiter.limit, window: limiter.window),
        ]
        if try await limiter.hits("login-fail:" + account) >= backOffAfter {
            checks.append(.init(key: "login-backoff:\(client)|\(account)", limit: Self.backOffTries, window: Self.backOffWindow))
        }
        guard try await limiter.allow(checks) else { throw Failure.tooManyAttempts }

        guard let (user, storedHash) = try await store.credentials(username: username), let hash = storedHash else {
            // An unknown user, or one without a password (signed up through a provider): the same
            // answer, after the same bcrypt work, so neither can be told from a wrong password.
            try await hasher.verifyAgainstDummy(password, lane: .logIn)
            try await recordFailure(account)
            throw Failure.refused
        }
        guard try await hasher.verify(password, hash: hash, lane: .logIn) else {
            try await recordFailure(account)
            throw Failure.refused
        }
        return try await sessions.start(for: user)
    }

    private func recordFailure(_ account: String) async throws {
        _ = try await limiter.allow([.init(key: "login-fail:" + account, limit: .max, window: Self.backOffWindow)])
    }
}
