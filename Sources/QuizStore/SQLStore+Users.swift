import Foundation
import QuizCore
import SQLKit

extension SQLStore: UserStore {
    static let userColumns = "u.id, u.username, u.first_name, u.last_name, u.role, u.points, u.created_at, u.language"

    /// What `password_hash` holds for an account without a password. Not a bcrypt hash ("$2…"),
    /// so no password can ever match it, and never handed to bcrypt: the store reads it as nil.
    static let noPassword = "!"

    static func passwordHash(stored: String) -> String? {
        stored == noPassword || !stored.hasPrefix("$") ? nil : stored
    }

    static func decodeUser(_ row: any SQLRow) throws -> User {
        User(
            id: try row.int64("id"), username: try row.string("username"),
            firstName: try row.string("first_name"), lastName: try row.string("last_name"),
            role: Role(rawValue: try row.string("role")) ?? .player,
            points: try row.int64("points"), createdAt: try row.date("created_at"),
            language: try row.decodeNil(column: "language") ? nil : try row.string("language")
        )
    }

    public func createUser(_ user: NewUser) async throws -> User {
        try await database.transaction { db in try await Self.insertUser(user, on: db) }
    }

    /// Inserts the user and counts them in the points buckets, inside the caller's transaction.
    static func insertUser(_ user: NewUser, on db: any SQLDatabase) async throws -> User {
        let key = Registration.usernameKey(user.username)
        // The UNIQUE index decides, so two registrations racing (on PostgreSQL, where writers
        // run side by side) end with one account and one `usernameTaken`.
        let row = try await db.raw("""
            INSERT INTO users (username, username_key, first_name, last_name, password_hash, role, points, created_at)
            VALUES (\(bind: user.username), \(bind: key), \(bind: user.firstName), \(bind: user.lastName),
                    \(bind: user.passwordHash ?? noPassword), \(bind: user.role.rawValue), 0, \(bind: user.createdAt.millis))
            ON CONFLICT (username_key) DO NOTHING RETURNING id
            """).first()
        guard let id = try row?.int64("id") else { throw StoreError.usernameTaken }
        try await moveBucket(db, from: nil, to: 0)
        return User(
            id: id, username: user.username, firstName: user.firstName, lastName: user.lastName,
            role: user.role, points: 0, createdAt: Date(millis: user.createdAt.millis)
        )
    }

    public func user(id: Int64) async throws -> User? {
        try await database.read { db in
            try await UserStatement(id: id).rows(on: db).first.map(Self.decodeUser)
        }
    }

    public func credentials(username: String) async throws -> (user: User, passwordHash: String?)? {
        let key = Registration.usernameKey(username)
        return try await database.read { db in
            guard let row = try await db.raw("""
                SELECT \(unsafeRaw: Self.userColumns), u.password_hash FROM users u WHERE u.username_key = \(bind: key)
                """).first() else { return nil }
            return (try Self.decodeUser(row), Self.passwordHash(stored: try row.string("password_hash")))
        }
    }

    public func setPasswordHash(_ hash: String, userId: Int64) async throws {
        try await database.transaction { db in
            try await db.raw("UPDATE users SET password_hash = \(bind: hash) WHERE id = \(bind: userId)").run()
        }
    }

    public func setRole(_ role: Role, username: String) async throws {
        let key = Registration.usernameKey(username)
        try await database.transaction { db in
            let row = try await db.raw("""
                UPDATE users SET role = \(bind: role.rawValue) WHERE username_key = \(bind: key) RETURNING id
                """).first()
            if row == nil { throw StoreError.notFound }
        }
    }

    public func setLanguage(_ language: String?, userId: Int64) async throws {
        try await database.transaction { db in
            try await db.raw("UPDATE users SET language = \(bind: language) WHERE id = \(bind: userId)").run()
        }
    }

    public func passwordHash(userId: Int64) async throws -> String? {
        try await database.read { db in
            try await db.raw("SELECT password_hash FROM users WHERE id = \(bind: userId)").first()
                .flatMap { Self.passwordHash(stored: try $0.string("password_hash")) }
        }
    }

    public func quizzesFinished(userId: Int64) async throws -> Int {
        try await database.read { db in
            try await db.raw("""
                SELECT COUNT(*) AS n FROM attempts WHERE user_id = \(bind: userId) AND finished_at IS NOT NULL
                """).first()?.int("n") ?? 0
        }
    }

    /// On PostgreSQL, makes concurrent transactions that check then write take turns on `lock`
    /// until they end; SQLite's `BEGIN IMMEDIATE` already lets only one write at a time.
    static func serialize(_ db: any SQLDatabase, _ dialect: QuizDatabase.Dialect, on lock: WriteLock) async throws {
        guard dialect == .postgres else { return }
        try await db.raw("SELECT pg_advisory_xact_lock(\(bind: lock.rawValue))").run()
    }

    /// Advisory lock keys, apart from the migrations' one.
    enum WriteLock: Int64 {
        /// Merging subjects and topics by name, and handing out question ids.
        case catalog = 0x5155_495A_0001
    }
}

extension SQLStore: SessionStore {
    public func createSession(tokenHash: String, userId: Int64, createdAt: Date, expiresAt: Date) async throws {
        try await database.transaction { db in
            try await db.raw("""
                INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
                VALUES (\(bind: tokenHash), \(bind: userId), \(bind: createdAt.millis), \(bind: expiresAt.millis))
                """).run()
        }
    }

    public func session(tokenHash: String) async throws -> StoredSession? {
        try await database.read { db in
            guard let row = try await SessionStatement(tokenHash: tokenHash).rows(on: db).first else { return nil }
            return StoredSession(user: try Self.decodeUser(row), expiresAt: try row.date("expires_at"))
        }
    }

    public func deleteSession(tokenHash: String) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM sessions WHERE token_hash = \(bind: tokenHash)").run()
        }
    }

    public func deleteSessions(userId: Int64, keeping tokenHash: String) async throws {
        try await database.transaction { db in
            try await db.raw("DELETE FROM sessions WHERE user_id = \(bind: userId) AND token_hash <> \(bind: tokenHash)").run()
        }
    }

    public func deleteSessions(expiredBefore date: Date) async throws -> Int {
        try await database.transaction { db in
            try await db.raw("DELETE FROM sessions WHERE expires_at < \(bind: date.millis) RETURNING token_hash")
                .all().count
        }
    }
}
