import Foundation
import QuizCore
import QuizStore

/// Changing (or, for an account made through a provider, setting) one's password.
package struct ChangePassword: Sendable {
    package enum Failure: Error, Equatable {
        case tooManyChanges
        case wrongCurrentPassword
        /// The new password was typed twice, differently.
        case confirmationDiffers
        case invalidNewPassword(message: String)
    }

    package enum Outcome: Sendable, Equatable {
        case changed
        /// The account had no password (made through a provider): now it has one.
        case set
    }

    let store: any UserStore
    let sessions: Sessions
    let hasher: PasswordHasher
    let limiter: RateLimiter
    let minimumPasswordLength: Int

    package init(store: any UserStore, sessions: Sessions, hasher: PasswordHasher, limiter: RateLimiter, minimumPasswordLength: Int) {
        self.store = store
        self.sessions = sessions
        self.hasher = hasher
        self.limiter = limiter
        self.minimumPasswordLength = minimumPasswordLength
    }

    package static var retryAfter: Int { 900 }

    /// An account without a password sets its first one without `current`: the person is signed
    /// in, which is what the current password would prove. Every other session of the user ends;
    /// the one holding `keepingToken` stays signed in.
    package func callAsFunction(userId: Int64, current: String, new: String, confirmed: Bool = true,
                                keepingToken: String?) async throws -> Outcome {
        guard try await limiter.allow([.init(key: "password-change:\(userId)", limit: 5, window: 15 * 60)]) else {
            throw Failure.tooManyChanges
        }
        let existing = try await store.passwordHash(userId: userId)
        if let existing {
            guard current.utf8.count <= 1024, try await hasher.verify(current, hash: existing, lane: .changePassword) else {
                throw Failure.wrongCurrentPassword
            }
        }
        guard confirmed else { throw Failure.confirmationDiffers }
        do {
            try Registration.validatePassword(new, minimumLength: minimumPasswordLength)
        } catch {
            throw Failure.invalidNewPassword(message: error.message)
        }
        try await store.setPasswordHash(try await hasher.hash(new, lane: .changePassword), userId: userId)
        try await sessions.endOthers(userId: userId, keeping: keepingToken)
        return existing == nil ? .set : .changed
    }

    /// Whether the account has a password to ask for.
    package func hasPassword(userId: Int64) async throws -> Bool {
        try await store.passwordHash(userId: userId) != nil
    }
}
