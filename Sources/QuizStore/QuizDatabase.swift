import AsyncKit
import CoreMetrics
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import PostgresNIO
import SQLiteKit
import SQLKit
import Synchronization

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
        /// The database did not answer (down, restarting, refusing connections, or the connection
        /// dropped mid-request). Nothing of the failed transaction was kept; the pool opens new
        /// connections on later requests, so it passes once the database is back.
        case unavailable(String)
        public var description: String {
            switch self {
            case .cannotOpen(let reason): "cannot open the database: \(reason)"
            case .unavailable(let reason): "the database is unavailable: \(reason)"
            }
        }
    }

    public let dialect: Dialect
    let logger: Logger
    private let readers: PoolBox
    private let writer: PoolBox
    /// PostgreSQL: how to open a connection of its own, for LISTEN (`LiveNotifications`).
    let listenConfiguration: PostgresConnection.Configuration?

    /// True for a `postgres://` or `postgresql://` URL (also `+tcp`, and `+uds` for a Unix socket);
    /// anything else names a SQLite file.
    public static func isPostgresURL(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return ["postgres", "postgresql"].contains { scheme in
            ["://", "+tcp://", "+uds://"].contains { lowered.hasPrefix(scheme + $0) }
        }
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
            configuration = try postgresConfiguration(url: url)
        } catch {
            throw Error.cannotOpen("""
                \(shown) is not a usable PostgreSQL URL (expected postgres://user:password@host:port/database, \
                postgres://user@/database?host=/socket/folder or postgres+uds://user@/socket/file#database)
                """)
        }
        let pool = PoolBox(EventLoopConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration), maxConnections: max(1, poolSize),
            requestTimeout: .seconds(30), logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()
        ), size: max(1, poolSize)) { PostgresConnectionDatabase($0) }
        // One pool for both: the single writer is a SQLite workaround, PostgreSQL takes concurrent writers.
        let database = QuizDatabase(dialect: .postgres, readers: pool, writer: pool, logger: logger,
                                    listenConfiguration: configuration.coreConfiguration)
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

    /// postgres-kit reads TCP URLs and `postgres+uds://user:password@/path/to/.s.PGSQL.5432#database`;
    /// this adds libpq's way to reach a server through its Unix socket: a `host` parameter naming
    /// the socket's folder, `postgres://user@/database?host=/var/run/postgresql` (the port, 5432
    /// unless given in the URL or as `port=`, names the socket file in it, as libpq does; the user
    /// may be given as `user=`).
    static func postgresConfiguration(url: String) throws -> SQLPostgresConfiguration {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql",
              let folder = parts.queryItems?.last(where: { $0.name == "host" })?.value, folder.hasPrefix("/")
        else { return try SQLPostgresConfiguration(url: url) }
        func query(_ name: String) -> String? { parts.queryItems?.last { $0.name == name }?.value }
        guard let user = parts.user ?? query("user"), !user.isEmpty, parts.host?.isEmpty ?? true else { throw URLError(.badURL) }
        let database = parts.path.split(separator: "/").first.map(String.init)
        let port = parts.port ?? query("port").flatMap(Int.init) ?? 5432
        let socket = (folder.hasSuffix("/") ? String(folder.dropLast()) : folder) + "/.s.PGSQL.\(port)"
        var core = PostgresConnection.Configuration(unixSocketPath: socket, username: user, password: parts.password, database: database)
        core.tls = .disable  // a local socket: nothing to encrypt
        return SQLPostgresConfiguration(coreConfiguration: core)
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
        // SQLite would create it 0644, and its -wal and -shm files take the database's mode.
        if path != ":memory:", !path.hasPrefix("file:") {
            do { try PrivateFiles.createEmpty(path) } catch { throw Error.cannotOpen(String(describing: error)) }
        }
        let source = SQLiteSource(base: SQLiteConnectionSource(configuration: .init(storage: .file(path: path))))
        func pool(_ size: Int) -> PoolBox {
            PoolBox(EventLoopConnectionPool(
                source: source, maxConnections: size, requestTimeout: .seconds(30),
                logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()
            ), size: size) { $0.connection.sql(queryLogLevel: .trace) }
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

    init(dialect: Dialect, readers: PoolBox, writer: PoolBox, logger: Logger, listenConfiguration: PostgresConnection.Configuration? = nil) {
        self.listenConfiguration = listenConfiguration
        self.dialect = dialect
        self.readers = readers
        self.writer = writer
        self.logger = logger
    }

    /// Runs `body` on a reader connection, outside any transaction.
    public func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await reportingUnavailable { try await readers.withConnection(logger: logger) { try await body($0) } }
    }

    /// Runs `body` on the writer connection without a transaction: for single statements,
    /// which are atomic on their own.
    public func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await reportingUnavailable { try await writer.withConnection(logger: logger) { try await body($0) } }
    }

    /// Runs `body` in a read-only transaction that sees the database as it was at one moment,
    /// without holding writers back: on SQLite a deferred `BEGIN` on a reader (in WAL mode its
    /// first read fixes what it sees while writers carry on), on PostgreSQL `REPEATABLE READ READ
    /// ONLY` (one snapshot for every statement). For dumps and backups of a running server.
    public func snapshot<T: Sendable>(_ body: (any SQLDatabase) async throws -> T) async throws -> T {
        try await reportingUnavailable {
            try await readers.withConnection(logger: logger) { db in
                try await Self.inTransaction(db, begin: dialect == .sqlite ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
            }
        }
    }

    /// How many times a PostgreSQL transaction is run again after the server chose it as the
    /// victim of a deadlock or a serialization failure (each try rolled back in full first).
    static let retries = 3

    /// Runs `body` in a transaction on the writer: committed when it returns, rolled back when it throws.
    /// On PostgreSQL a transaction the server aborted to break a deadlock or a serialization
    /// conflict (40P01, 40001) is run again from the start, up to `retries` times: nothing of the
    /// failed try was kept, and `body` only talks to the database.
    public func transaction<T: Sendable>(_ body: (any SQLDatabase) async throws -> T) async throws -> T {
        var tries = 0
        while true {
            do {
                return try await reportingUnavailable {
                    try await writer.withConnection(logger: logger) { db in
                        try await Self.inTransaction(db, begin: dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN", body)
                    }
                }
            } catch where tries < Self.retries && Self.isConflict(error) {
                tries += 1
                logger.debug("transaction retried after a conflict", metadata: ["try": "\(tries)", "error": "\(Self.describe(error))"])
            }
        }
    }

    /// `begin`, then `body`, then COMMIT; ROLLBACK when `body` throws.
    private static func inTransaction<T: Sendable>(_ db: any SQLDatabase, begin: String, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        try await db.raw(SQLQueryString(begin)).run()
        do {
            let result = try await body(db)
            try await db.raw("COMMIT").run()
            return result
        } catch let failure {
            do {
                try await db.raw("ROLLBACK").run()
            } catch {
                // Still inside the transaction, perhaps: the next user would commit its
                // half-written rows along with theirs. The pool closes it instead.
                throw PoisonedConnection(cause: failure)
            }
            throw failure
        }
    }

    /// A deadlock or serialization failure: PostgreSQL rolled the transaction back and it may simply be run again.
    static func isConflict(_ error: any Swift.Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40P01" || state == "40001"
    }

    /// Whether `error` says the database could not be reached, rather than that a statement failed.
    static func isUnavailable(_ error: any Swift.Error) -> Bool {
        switch error {
        case is ConnectionPoolTimeoutError, is ConnectionPoolError, is NIOConnectionError, is ChannelError, is IOError:
            return true
        case let error as PSQLError:
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
                return true
            case .server:
                // Class 08: connection exceptions; 57P01–57P03: shutting down, crashed, starting up;
                // 53300: too many connections.
                let state = error.serverInfo?[.sqlState] ?? ""
                return state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state)
            default:
                return false
            }
        default:
            return false
        }
    }

    private func reportingUnavailable<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch where Self.isUnavailable(error) {
            throw Error.unavailable(Self.describe(error))
        }
    }

    /// Reports each pool's use and wait from now on (`main` when one pool serves reads and writes).
    public func instrument(_ metrics: StoreMetrics) {
        if writer === readers {
            readers.instrument(metrics.pool("main", size: readers.size))
        } else {
            readers.instrument(metrics.pool("readers", size: readers.size))
            writer.instrument(metrics.pool("writer", size: writer.size))
        }
    }

    public func close() async throws {
        try await readers.close()
        if writer !== readers { try await writer.close() }
    }
}

/// Hides the pool's connection type so one `QuizDatabase` can sit on SQLite or PostgreSQL.
/// Thrown from inside `PoolBox.withConnection` when the connection must not be used again: the
/// pool closes it and `cause` is thrown on.
struct PoisonedConnection: Error {
    var cause: any Error
}

final class PoolBox: Sendable {
    let size: Int
    /// Set once the server has a metrics factory; read once per lease.
    private let metrics = Mutex<PoolMetrics?>(nil)
    private let lease: @Sendable (Logger) async throws -> (any SQLDatabase, release: @Sendable () -> Void, close: @Sendable () async -> Void)
    private let shutdown: @Sendable () async throws -> Void

    init<Source: ConnectionPoolSource>(
        _ pool: EventLoopConnectionPool<Source>, size: Int, sql: @escaping @Sendable (Source.Connection) -> any SQLDatabase
    ) {
        self.size = size
        let pool = UncheckedBox(pool)
        lease = { logger in
            let conn = UncheckedBox(try await pool.value.requestConnection(logger: logger).get())
            return (sql(conn.value), { pool.value.releaseConnection(conn.value, logger: logger) }, { try? await conn.value.close().get() })
        }
        shutdown = { try await pool.value.close().get() }
    }

    func instrument(_ metrics: PoolMetrics) {
        metrics.size.set(size)
        self.metrics.withLock { $0 = metrics }
    }

    func withConnection<T: Sendable>(logger: Logger, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        let db: any SQLDatabase
        let release: @Sendable () -> Void
        let close: @Sendable () async -> Void
        let observed = metrics.withLock { $0 }
        let asked = observed == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        observed?.waiting.increment()
        do {
            (db, release, close) = try await lease(logger)
            observed?.waiting.decrement()
        } catch {
            observed?.waiting.decrement()
            // No connection to be had (refused, timed out, the database not accepting any): whatever
            // the reason, the database is out of reach, not the request at fault.
            throw QuizDatabase.Error.unavailable(QuizDatabase.describe(error))
        }
        let leased = observed == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        if let observed {
            observed.wait.recordNanoseconds(leased - asked)
            observed.inUse.increment()
        }
        defer {
            release()
            if let observed {
                observed.inUse.decrement()
                observed.held.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - leased)
            }
        }
        do {
            return try await body(db)
        } catch let poisoned as PoisonedConnection {
            // Closed before it goes back: the pool drops closed connections instead of lending them.
            await close()
            throw poisoned.cause
        }
    }

    func close() async throws { try await shutdown() }
}

/// The pool serialises its own state on its event loop.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
