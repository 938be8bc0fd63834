import AsyncKit
import Logging
import NIOCore
import SQLiteKit
import Synchronization

/// Opens SQLite connections with the settings Quizbox relies on.
struct SQLiteSource: ConnectionPoolSource {
    let base: SQLiteConnectionSource

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteLease> {
        base.makeConnection(logger: logger, on: eventLoop).flatMap { conn in
            let pragmas = ["PRAGMA journal_mode = WAL", "PRAGMA busy_timeout = 10000", "PRAGMA synchronous = NORMAL"]
            return pragmas.reduce(eventLoop.makeSucceededVoidFuture()) { future, pragma in
                future.flatMap { conn.query(pragma).map { _ in } }
            }.map { SQLiteLease(conn) }
        }
    }
}

/// A SQLite connection that is closed once however many ask. sqlite-nio's `close()` calls into
/// the handle a second time (a crash), and says closed only once its thread pool has run the
/// close: a poisoned lease closed and given back, then closed again by the pool shutting down
/// (a failed start), crashed one start in four.
final class SQLiteLease: ConnectionPoolItem, Sendable {
    let connection: SQLiteConnection
    private let closing = Mutex<EventLoopFuture<Void>?>(nil)

    init(_ connection: SQLiteConnection) { self.connection = connection }

    var eventLoop: any EventLoop { connection.eventLoop }

    /// True from the first `close()` on, before the close has run.
    var isClosed: Bool { closing.withLock { $0 != nil } }

    func close() -> EventLoopFuture<Void> {
        closing.withLock { closing in
            if let closing { return closing }
            let closed = connection.close()
            closing = closed
            return closed
        }
    }
}
