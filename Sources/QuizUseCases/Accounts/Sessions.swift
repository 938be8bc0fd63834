import Foundation
import QuizCore
import QuizStore

/// Sessions: what a token proves, starting one after a sign-in, ending one or all the others.
package struct Sessions: Sendable {
    package enum Failure: Error, Equatable {
        /// No credential was sent.
        case missing
        /// Not a token of ours, or a session that was ended.
        case invalid
        case expired
    }

    /// A new session: the token goes to the client, only its hash is stored.
    package struct Grant: Sendable, Equatable {
        package var user: User
        package var token: String
        package var expiresAt: Date
    }

    let store: any SessionStore
    let time: any TimeSource
    /// Seconds a new session lasts.
    package let lifetime: TimeInterval

    package init(store: any SessionStore, time: any TimeSource, lifetime: TimeInterval) {
        self.store = store
        self.time = time
        self.lifetime = lifetime
    }

    /// The signed-in user `token` stands for. The copy may be a moment old (sessions are cached):
    /// read the user afresh for current points.
    package func user(token: String?) async throws -> User {
        guard let token else { throw Failure.missing }
        // A token of the wrong shape cannot be one of ours: skip the lookup.
        guard token.utf8.count == SessionTokens.length else { throw Failure.invalid }
        guard let session = try await store.session(tokenHash: SessionTokens.hash(token)) else { throw Failure.invalid }
        guard session.expiresAt > time.now() else { throw Failure.expired }
        return session.user
    }

    package func start(for user: User) async throws -> Grant {
        let token = SessionTokens.make()
        let now = time.now()
        let expires = now.addingTimeInterval(lifetime)
        try await store.createSession(tokenHash: SessionTokens.hash(token), userId: user.id, createdAt: now, expiresAt: expires)
        return Grant(user: user, token: token, expiresAt: expires)
    }

    /// Logging out: the session ends; a token that was no session is no error.
    package func end(token: String) async throws {
        try await store.deleteSession(tokenHash: SessionTokens.hash(token))
    }

    /// Logs the user out everywhere but the session `token` belongs to.
    package func endOthers(userId: Int64, keeping token: String?) async throws {
        try await store.deleteSessions(userId: userId, keeping: token.map(SessionTokens.hash) ?? "")
    }
}
