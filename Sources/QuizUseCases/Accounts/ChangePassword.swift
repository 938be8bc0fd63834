import Foundation
import QuizCore
import QuizStore

/// Changing (or, for an account made through a provider, setting) one's password.
package struct ChangePassword: Sendable {
    package enum Failure: Error, Equatable {
        case tooManyChanges
        /// Every mistake at once, each for its field.
        case invalid(Problems)
    }

    /// What is wrong with each field; nil where nothing is.
    package struct Problems: Equatable, Sendable {
        package var current: String?
        package var new: String?
        /// The new password was typed twice, differently.
        package var confirmation: String?

        package init(current: String? = nil, new: String? = nil, confirmation: String? = nil) {
            self.current = current
            self.new = new
            self.confirmation = confirmation
        }

        var isEmpty: Bool { current == nil && new == nil && confirmation == nil }
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
        var problems = Problems()
        if let existing {
            let right = current.utf8.count <= 1024 ? try await hasher.verify(current, hash: existing, lane: .changePassword) : false
            if !right { problems.current = "Your current password is not right." }
        }
        do {
            try Registration.validatePassword(new, minimumLength: minimumPasswordLength)
        } catch {
            problems.new = error.message
        }
        if !confirmed { problems.confirmation = "The two new passwords differ." }
        guard problems.isEmpty else { throw Failure.invalid(problems) }
        try await store.setPasswordHash(try await hasher.hash(new, lane: .changePassword), userId: userId)
        try await sessions.endOthers(userId: userId, keeping: keepingToken)
        return existing == nil ? .set : .changed
    }

    /// Whether the account has a password to ask for.
    package func hasPassword(userId: Int64) async throws -> Bool {
        try await store.passwordHash(userId: userId) != nil
    }
}
