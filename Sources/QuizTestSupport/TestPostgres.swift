import Foundation
import Logging
import QuizStore
import SQLKit

/// A PostgreSQL server for tests, named by `QUIZBOX_TEST_POSTGRES_URL` (scripts/test starts a
/// throwaway one). Each test gets a database of its own, dropped afterwards.
public enum TestPostgres {
    /// The server's URL (any database on it that the user can connect to), or nil without one.
    public static var serverURL: String? {
        guard let url = ProcessInfo.processInfo.environment["QUIZBOX_TEST_POSTGRES_URL"], !url.isEmpty else { return nil }
        return url
    }

    /// Why PostgreSQL cases are skipped, shown in the test report.
    /// The store contract's PostgreSQL arguments are left out then, so the message says so.
    public static let unavailable = """
        PostgreSQL is not available, so this and the PostgreSQL cases of the store contract tests do not run: \
        set QUIZBOX_TEST_POSTGRES_URL (./scripts/test starts a throwaway server)
        """

    public struct NotConfigured: Error, CustomStringConvertible {
        public var description: String { TestPostgres.unavailable }
    }

    /// Creates an empty database, runs `body` with its URL, and drops the database whatever happens.
    public static func withFreshDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
        guard let serverURL, var components = URLComponents(string: serverURL) else { throw NotConfigured() }
        // Only lowercase hex in the name, so splicing it into the statement is safe.
        let name = "quizbox_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await administer(serverURL, "CREATE DATABASE \(name)")
        components.path = "/" + name
        let url = components.string ?? serverURL
        do {
            let result = try await body(url)
            try await administer(serverURL, "DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            try? await administer(serverURL, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    /// Runs `body` while the database at `url` (one `withFreshDatabase` made) is out of reach, as
    /// when its server goes away: new connections are refused and the open ones are cut. Connections
    /// are let in again afterwards, whatever happens. Only that database is touched, so tests
    /// running beside this one on the same server carry on.
    public static func whileUnreachable<T>(_ url: String, _ body: () async throws -> T) async throws -> T {
        guard let serverURL, let path = URLComponents(string: url)?.path.dropFirst(),
              path.hasPrefix("quizbox_test_"), path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { throw NotConfigured() }
        let name = String(path)
        try await administer(serverURL, "ALTER DATABASE \(name) ALLOW_CONNECTIONS false")
        do {
            try await administer(serverURL, """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)' AND pid <> pg_backend_pid()
                """)
            let result = try await body()
            try await administer(serverURL, "ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
            return result
        } catch {
            try? await administer(serverURL, "ALTER DATABASE \(name) ALLOW_CONNECTIONS true")
            throw error
        }
    }

    /// CREATE and DROP DATABASE cannot run in a transaction: one statement on a connection of its own.
    private static func administer(_ serverURL: String, _ statement: String) async throws {
        var logger = Logger(label: "quizbox-test-postgres")
        logger.logLevel = .warning
        let server = try await QuizDatabase.postgres(url: serverURL, poolSize: 1, logger: logger)
        do {
            try await server.write { try await $0.raw(SQLQueryString(statement)).run() }
            try await server.close()
        } catch {
            try? await server.close()
            throw error
        }
    }
}
