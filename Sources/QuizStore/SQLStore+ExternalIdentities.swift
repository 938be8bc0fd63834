import Foundation
import QuizCore
import SQLKit

extension SQLStore: ExternalIdentityStore {
    public func savePendingSignIn(_ pending: PendingSignIn) async throws {
        try await database.transaction { db in
            try await db.raw("""
                INSERT INTO oauth_pending (state_hash, provider, code_verifier, nonce, link_user_id, next_path, subject, profile,
                  created_at, expires_at)
                VALUES (\(bind: pending.stateHash), \(bind: pending.provider), \(bind: pending.codeVerifier), \(bind: pending.nonce),
                        \(bind: pending.linkUserId), \(bind: pending.next), \(bind: pending.subject), \(bind: pending.profile),
                        \(bind: pending.createdAt.millis), \(bind: pending.expiresAt.millis))
                """).run()
        }
    }

    public func takePendingSignIn(stateHash: String, at now: Date) async throws -> PendingSignIn? {
        // One statement: of two requests with the same state (on any instance) one gets the row.
        let row = try await database.transaction { db in
            try await db.raw("""
                DELETE FROM oauth_pending WHERE state_hash = \(bind: stateHash)
                RETURNING state_hash, provider, code_verifier, nonce, link_user_id, next_path, subject, profile, created_at, expires_at
                """).first()
        }
        guard let row else { return nil }
        let pending = PendingSignIn(
            stateHash: try row.string("state_hash"), provider: try row.string("provider"),
            codeVerifier: try row.string("code_verifier"), nonce: try row.string("nonce"),
            linkUserId: try row.decode(column: "link_user_id", as: Int64?.self), next: try row.string("next_path"),
            subject: try row.decode(column: "subject", as: String?.self), profile: try row.decode(column: "profile", as: String?.self),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"))
        // An expired one is gone all the same: it could never be used again.
        return pending.expiresAt > now ? pending : nil
    }

    @discardableResult
    public func removeExpiredPendingSignIns(at now: Date) async throws -> Int {
        try await database.transaction { db in
            try await db.raw("DELETE FROM oauth_pending WHERE expires_at <= \(bind: now.millis) RETURNING state_hash").all().count
        }
    }

    static let identityColumns = "provider, subject, user_id, provider_username, created_at"

    static func decodeIdentity(_ row: any SQLRow) throws -> ExternalIdentity {
        ExternalIdentity(provider: try row.string("provider"), subject: try row.string("subject"), userId: try row.int64("user_id"),
                         providerUsername: try row.string("provider_username"), createdAt: try row.date("created_at"))
    }

    public func identity(provider: String, subject: String) async throws -> ExternalIdentity? {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.identityColumns) FROM external_identities
                WHERE provider = \(bind: provider) AND subject = \(bind: subject)
                """).first().map(Self.decodeIdentity)
        }
    }

    public func identities(userId: Int64) async throws -> [ExternalIdentity] {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.identityColumns) FROM external_identities WHERE user_id = \(bind: userId) ORDER BY provider
                """).all().map(Self.decodeIdentity)
        }
    }

    public func link(_ identity: ExternalIdentity) async throws {
        try await database.transaction { db in try await Self.insertIdentity(identity, on: db) }
    }

    /// Both unique keys (provider + subject, user + provider) decide, so racing links cannot both win.
    static func insertIdentity(_ identity: ExternalIdentity, on db: any SQLDatabase) async throws {
        let row = try await db.raw("""
            INSERT INTO external_identities (provider, subject, user_id, provider_username, created_at)
            VALUES (\(bind: identity.provider), \(bind: identity.subject), \(bind: identity.userId),
                    \(bind: identity.providerUsername), \(bind: identity.createdAt.millis))
            ON CONFLICT DO NOTHING RETURNING user_id
            """).first()
        if row == nil { throw StoreError.identityTaken }
    }

    public func createUser(_ user: NewUser, linking identity: ExternalIdentity) async throws -> User {
        try await database.transaction { db in
            let created = try await Self.insertUser(user, on: db)
            var linked = identity
            linked.userId = created.id
            try await Self.insertIdentity(linked, on: db)
            return created
        }
    }

    public func unlink(provider: String, userId: Int64) async throws {
        let dialect = database.dialect
        try await database.transaction { db in
            // Two unlinks of the same account take turns, so they cannot both see "one left".
            if dialect == .postgres {
                try await db.raw("SELECT id FROM users WHERE id = \(bind: userId) FOR UPDATE").run()
            }
            guard let hash = try await db.raw("SELECT password_hash FROM users WHERE id = \(bind: userId)").first()?
                .string("password_hash") else { throw StoreError.notFound }
            let linked = try await db.raw("SELECT provider FROM external_identities WHERE user_id = \(bind: userId)").all()
                .map { try $0.string("provider") }
            guard linked.contains(provider) else { throw StoreError.notFound }
            guard Self.passwordHash(stored: hash) != nil || linked.count > 1 else { throw StoreError.lastSignInMethod }
            try await db.raw("""
                DELETE FROM external_identities WHERE user_id = \(bind: userId) AND provider = \(bind: provider)
                """).run()
        }
    }
}
