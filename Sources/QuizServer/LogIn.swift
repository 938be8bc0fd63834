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
struct LogIn<Store: UserStore & SessionStore>: Sendable {
    enum Failure: Error, Equatable {
        case missingFields, refused, tooManyAttempts
    }

    let store: Store
    let hasher: PasswordHasher
    let limiter: LoginRateLimiter
    let time: any TimeSource
    let sessionLifetime: TimeInterval
    /// Attempts per minute from one address, whatever the accounts (a classroom shares one).
    let perAddressPerMinute: Int

    /// Failures on one account (from anywhere, per quarter hour) that start its back-off.
    var backOffAfter: Int { limiter.limit * 5 }
    static var backOffTries: Int { 3 }
    static var backOffWindow: TimeInterval { 15 * 60 }

    struct Session: Sendable {
        var user: User
        var token: String
        var expiresAt: Date
    }

    func callAsFunction(username: String, password: String, address: String) async throws -> Session {
        guard !username.isEmpty, !password.isEmpty else { throw Failure.missingFields }
        // Past these lengths nothing can match: refused before any counter keeps the name.
        guard username.utf8.count <= 64, password.utf8.count <= 1024 else { throw Failure.refused }
        let account = Registration.usernameKey(username)
        let client = AddressKey.of(address)
        var checks = [
            LoginRateLimiter.Check(key: "login-ip:" + client, limit: perAddressPerMinute, window: 60),
            LoginRateLimiter.Check(key: "login:\(client)|\(account)", limit: limiter.limit, window: limiter.window),
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
        let token = SessionTokens.make()
        let now = time.now()
        let expires = now.addingTimeInterval(sessionLifetime)
        try await store.createSession(tokenHash: SessionTokens.hash(token), userId: user.id, createdAt: now, expiresAt: expires)
        return Session(user: user, token: token, expiresAt: expires)
    }

    private func recordFailure(_ account: String) async throws {
        _ = try await limiter.allow([.init(key: "login-fail:" + account, limit: .max, window: Self.backOffWindow)])
    }
}
