import Foundation
import QuizCore

extension CachedStore: UserStore {
    public func createUser(_ user: NewUser) async throws -> User {
        let created = try await sql.createUser(user)
        try await userAdded()
        return created
    }

    /// Cached for the cache lifetime; this process drops the entry whenever it changes the user.
    public func user(id: Int64) async throws -> User? {
        try await refreshCaches()
        return try await caches.users.value(for: id) { [sql] in try await sql.user(id: id) }
    }

    public func credentials(username: String) async throws -> (user: User, passwordHash: String?)? {
        try await sql.credentials(username: username)
    }

    public func setPasswordHash(_ hash: String, userId: Int64) async throws {
        try await sql.setPasswordHash(hash, userId: userId)
    }

    public func setRole(_ role: Role, username: String) async throws {
        try await changing(.accounts) { try await sql.setRole(role, username: username) }
    }

    /// Sessions carry their user, so they are dropped with it (on every instance).
    public func setLanguage(_ language: String?, userId: Int64) async throws {
        try await changing(.accounts) { try await sql.setLanguage(language, userId: userId) }
    }

    public func passwordHash(userId: Int64) async throws -> String? {
        try await sql.passwordHash(userId: userId)
    }

    public func quizzesFinished(userId: Int64) async throws -> Int {
        try await sql.quizzesFinished(userId: userId)
    }
}

extension CachedStore: SessionStore {
    public func createSession(tokenHash: String, userId: Int64, createdAt: Date, expiresAt: Date) async throws {
        try await sql.createSession(tokenHash: tokenHash, userId: userId, createdAt: createdAt, expiresAt: expiresAt)
    }

    public func session(tokenHash: String) async throws -> StoredSession? {
        try await refreshCaches()
        return try await caches.sessions.value(for: tokenHash) { [sql] in try await sql.session(tokenHash: tokenHash) }
    }

    public func deleteSession(tokenHash: String) async throws {
        caches.sessions.remove(tokenHash)
        try await sql.deleteSession(tokenHash: tokenHash)
        // Other instances may hold this session; tell them (this one has dropped it above).
        try await caches.tracker?.publish(.accounts)
    }

    public func deleteSessions(userId: Int64, keeping tokenHash: String) async throws {
        try await changing(.accounts) { try await sql.deleteSessions(userId: userId, keeping: tokenHash) }
    }

    public func deleteSessions(expiredBefore date: Date) async throws -> Int {
        try await sql.deleteSessions(expiredBefore: date)
    }
}

extension CachedStore: ExternalIdentityStore {
    public func savePendingSignIn(_ pending: PendingSignIn) async throws {
        try await sql.savePendingSignIn(pending)
    }

    public func takePendingSignIn(stateHash: String, at now: Date) async throws -> PendingSignIn? {
        try await sql.takePendingSignIn(stateHash: stateHash, at: now)
    }

    @discardableResult
    public func removeExpiredPendingSignIns(at now: Date) async throws -> Int {
        try await sql.removeExpiredPendingSignIns(at: now)
    }

    public func identity(provider: String, subject: String) async throws -> ExternalIdentity? {
        try await sql.identity(provider: provider, subject: subject)
    }

    public func identities(userId: Int64) async throws -> [ExternalIdentity] {
        try await sql.identities(userId: userId)
    }

    public func link(_ identity: ExternalIdentity) async throws {
        try await sql.link(identity)
    }

    public func createUser(_ user: NewUser, linking identity: ExternalIdentity) async throws -> User {
        let created = try await sql.createUser(user, linking: identity)
        try await userAdded()
        return created
    }

    public func unlink(provider: String, userId: Int64) async throws {
        try await sql.unlink(provider: provider, userId: userId)
    }
}

extension CachedStore: UploadStore {
    public func keepUpload(tokenHash: String, userId: Int64, fileName: String, data: Data, at now: Date,
                           keptFor lifetime: TimeInterval) async throws {
        try await sql.keepUpload(tokenHash: tokenHash, userId: userId, fileName: fileName, data: data, at: now, keptFor: lifetime)
    }

    public func keptUpload(tokenHash: String, userId: Int64, at now: Date, keptFor lifetime: TimeInterval) async throws -> KeptUpload? {
        try await sql.keptUpload(tokenHash: tokenHash, userId: userId, at: now, keptFor: lifetime)
    }

    public func removeUpload(tokenHash: String) async throws {
        try await sql.removeUpload(tokenHash: tokenHash)
    }
}

/// Rate limits are counted in the database, never cached (see `SQLStore+RateLimits.swift`).
extension CachedStore {
    public func countAttempts(keys: [String], window: TimeInterval, at now: Date) async throws -> [String: Int] {
        try await sql.countAttempts(keys: keys, window: window, at: now)
    }

    public func removeExpiredRateLimits(at now: Date) async throws {
        try await sql.removeExpiredRateLimits(at: now)
    }

    public func rateLimitHits(key: String, at now: Date) async throws -> Int {
        try await sql.rateLimitHits(key: key, at: now)
    }
}
