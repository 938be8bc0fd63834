import Foundation
import QuizStore
import QuizTestSupport
import SQLKit
import Testing

/// PostgreSQL through its Unix socket, in libpq's form (`?host=/folder`) and postgres-kit's
/// (`postgres+uds://…/socket#database`), against the test server's own socket.
@Suite(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
struct PostgresSocketTests {
    @Test func bothUnixSocketFormsReachTheSameDatabaseAsTCP() async throws {
        try await TestPostgres.withFreshDatabase { url in
            let tcp = try await QuizDatabase.postgres(url: url, poolSize: 1)
            let (folder, port, user) = try await tcp.read { db in
                let row = try #require(try await db.raw("""
                    SELECT current_setting('unix_socket_directories') AS folders, current_setting('port') AS port, current_user AS who
                    """).first())
                return (try row.decode(column: "folders", as: String.self).split(separator: ",").first
                            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "",
                        try row.decode(column: "port", as: String.self), try row.decode(column: "who", as: String.self))
            }
            try await tcp.close()
            try #require(folder.hasPrefix("/"), "the test server listens on a Unix socket")
            let database = try #require(URLComponents(string: url)?.path.dropFirst()).description
            for location in [
                "postgres://\(user)@/\(database)?host=\(folder)&port=\(port)",
                "postgresql://\(user)@:\(port)/\(database)?host=\(folder)/",
                "postgres+uds://\(user)@\(folder)/.s.PGSQL.\(port)#\(database)",
            ] {
                #expect(QuizDatabase.isPostgresURL(location), "\(location)")
                let socket = try await QuizDatabase.open(location, poolSize: 1)
                let reached = try await socket.read { db in
                    try await db.raw("SELECT current_database() AS name").first()?.decode(column: "name", as: String.self)
                }
                try await socket.close()
                #expect(reached == database, "\(location)")
            }
        }
    }

    @Test func aSocketURLWithoutAUserIsRefusedWithTheFormsThatWork() async throws {
        let error = await #expect(throws: QuizDatabase.Error.self) {
            try await QuizDatabase.postgres(url: "postgres:///quizbox?host=/var/run/postgresql", poolSize: 1)
        }
        #expect("\(error.map(String.init(describing:)) ?? "")".contains("?host=/socket/folder"))
    }
}
