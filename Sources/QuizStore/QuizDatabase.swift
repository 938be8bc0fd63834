import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLKit
import SQLiteKit

/// Connections to the one database Quizbox stores into.
///
/// SQLite: a pool of readers and one writer. SQLite runs in WAL mode so readers never wait for
/// the writer. All writes of this process go through the single writer connection, so they queue
/// in memory instead of in SQLite's busy handler (which sleeps); transactions are `BEGIN IMMEDIATE`,
/// so a writer in another process (`quizbox import`) waits on the busy timeout instead of deadlocking.
///
/// PostgreSQL: one pool for reads and writes; the server handles concurrent writers itself.
public final class QuizDatabase: Sendable {
    public enum Dialect: Sendable { case sqlite, postgres }

    public enum Error: Swift.Error, CustomStringConvertible {
        case cannotOpen(String)
        public var description: String {
            switch self {
            case .cannotOpen(let reason): "cannot open the database: \(reason)"
            }
        }
    }

    public let dialect: Dialect
    let logger: Logger
    private let readers: PoolBox
    private let writer: PoolBox

    /// True for a `postgres://` or `postgresql://` URL; anything else names a SQLite file.
    public static func isPostgresURL(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// `location` without its password, fit for logs and messages.
    public static func redacted(_ location: String) -> String {
        guard isPostgresURL(location), var parts = URLComponents(string: location), parts.password != nil else { return location }
        parts.password = "***"
        return parts.string ?? location
    }

    /// PostgreSQL for a `postgres://` URL, otherwise the SQLite file at `location`.
    public static func open(_ location: String, poolSize: Int = 4, logger: Logger = Logger(label: "quizbox.db")) async throws -> QuizDatabase {
        isPostgresURL(location)
            ? try await postgres(url: location, poolSize: poolSize, logger: logger)
            : try await sqlite(path: location, poolSize: poolSize, logger: logger)
    }

    /// Connects to PostgreSQL at `url` (`postgres://user:pass@host:port/db`, `?sslmode=` as libpq).
    /// Fails with `cannotOpen` when the server cannot be reached or refuses the login.
    public static func postgres(url: String, poolSize: Int = 4, logger: Logger = Logger(label: "quizbox.db")) async throws -> QuizDatabase {
        let shown = redacted(url)
        let configuration: SQLPostgresConfiguration
        do {
            configuration = try SQLPostgresConfiguration(url: url)
        } catch {
            throw Error.cannotOpen("\(shown) is not a usable PostgreSQL URL (expected postgres://user:password@host:port/database)")
        }
        let pool = PoolBox(EventLoopConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration), maxConnections: max(1, poolSize),
            requestTimeout: .seconds(30), logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()
        )) { $0.sql(queryLogLevel: .trace) }
        // One pool for both: the single writer is a SQLite workaround, PostgreSQL takes concurrent writers.
        let database = QuizDatabase(dialect: .postgres, readers: pool, writer: pool, logger: logger)
        do {
            // Quietly: the pool would log the raw error before the clear message below is shown.
            var quiet = logger
            quiet.logLevel = .critical
            _ = try await pool.withConnection(logger: quiet) { try await $0.raw("SELECT 1").all() }
        } catch {
            try? await database.close()
            throw Error.cannotOpen("cannot connect to PostgreSQL at \(shown): \(describe(error))")
        }
        return database
    }

    /// A PostgreSQL error in words: the server's own message, or why the connection failed.
    /// (`PSQLError`'s description is deliberately generic.)
    static func describe(_ error: any Swift.Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] { return message }
        switch error.underlying {
        case let failure as NIOConnectionError:
            if failure.dnsAError != nil || failure.dnsAAAAError != nil, failure.connectionErrors.isEmpty { return "unknown host" }
            if let io = failure.connectionErrors.lazy.compactMap({ $0.error as? IOError }).first {
                return String(cString: strerror(io.errnoCode)).lowercased()
            }
            return String(describing: failure)
        case let failure as ChannelError:
            if case .connectTimeout = failure { return "timed out" }
            return String(describing: failure)
        case let underlying?: return String(describing: underlying)
        case nil: return String(describing: error.code)
        }
    }

    /// Opens (creating if needed) the SQLite file at `path`.
    public static func sqlite(path: String, poolSize: Int = 4, logger: Logger = Logger(label: "quizbox.db")) async throws -> QuizDatabase {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory) else {
            throw Error.cannotOpen("the folder \(directory) does not exist")
        }
        let source = SQLiteSource(base: SQLiteConnectionSource(configuration: .init(storage: .file(path: path))))
        func pool(_ size: Int) -> PoolBox {
            PoolBox(EventLoopConnectionPool(
                source: source, maxConnections: size, requestTimeout: .seconds(30),
                logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()
            )) { $0.sql(queryLogLevel: .trace) }
        }
        let database = QuizDatabase(dialect: .sqlite, readers: pool(max(1, poolSize)), writer: pool(1), logger: logger)
        do {
            // The writer first: it switches the file to WAL before any reader opens it.
            _ = try await database.write { try await $0.raw("SELECT 1").all() }
            _ = try await database.read { try await $0.raw("SELECT 1").all() }
        } catch {
            try? await database.close()
            throw Error.cannotOpen("\(path): \(String(reflecting: error))")
        }
        return database
    }

    init(dialect: Dialect, readers: PoolBox, writer: PoolBox, logger: Logger) {
        self.dialect = dialect
        self.readers = readers
        self.writer = writer
        self.logger = logger
    }

    /// Runs `body` on a reader connection, outside any transaction.
    public func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await readers.withConnection(logger: logger) { try await body($0) }
    }

    /// Runs `body` on the writer connection without a transaction: for single statements,
    /// which are atomic on their own.
    public func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await writer.withConnection(logger: logger) { try await body($0) }
    }

    /// Runs `body` in a transaction on the writer: committed when it returns, rolled back when it throws.
    public func transaction<T: Sendable>(_ body: (any SQLDatabase) async throws -> T) async throws -> T {
        try await writer.withConnection(logger: logger) { db in
            try await db.raw(dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN").run()
            do {
                let result = try await body(db)
                try await db.raw("COMMIT").run()
                return result
            } catch {
                try? await db.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    public func close() async throws {
        try await readers.close()
        if writer !== readers { try await writer.close() }
    }
}

/// Opens SQLite connections with the settings Quizbox relies on.
struct SQLiteSource: ConnectionPoolSource {
    let base: SQLiteConnectionSource

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        base.makeConnection(logger: logger, on: eventLoop).flatMap { conn in
            let pragmas = ["PRAGMA journal_mode = WAL", "PRAGMA busy_timeout = 10000", "PRAGMA synchronous = NORMAL"]
            return pragmas.reduce(eventLoop.makeSucceededVoidFuture()) { future, pragma in
                future.flatMap { conn.query(pragma).map { _ in } }
            }.map { conn }
        }
    }
}

/// Hides the pool's connection type so one `QuizDatabase` can sit on SQLite or PostgreSQL.
final class PoolBox: Sendable {
    private let lease: @Sendable (Logger) async throws -> (any SQLDatabase, @Sendable () -> Void)
    private let shutdown: @Sendable () async throws -> Void

    init<Source: ConnectionPoolSource>(
        _ pool: EventLoopConnectionPool<Source>, sql: @escaping @Sendable (Source.Connection) -> any SQLDatabase
    ) {
        let pool = UncheckedBox(pool)
        lease = { logger in
            let conn = UncheckedBox(try await pool.value.requestConnection(logger: logger).get())
            return (sql(conn.value), { pool.value.releaseConnection(conn.value, logger: logger) })
        }
        shutdown = { try await pool.value.close().get() }
    }

    func withConnection<T: Sendable>(logger: Logger, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        let (db, release) = try await lease(logger)
        defer { release() }
        return try await body(db)
    }

    func close() async throws { try await shutdown() }
}

/// The pool serialises its own state on its event loop.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
