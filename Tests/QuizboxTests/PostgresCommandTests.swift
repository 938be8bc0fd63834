import Foundation
import QuizTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real binary pointed at PostgreSQL with `--database postgres://…` or `QUIZBOX_DATABASE_URL`.
@Suite(.serialized) struct PostgresCommandTests {
    /// A loopback port nobody listens on: bound to find a free one, then closed again.
    func closedLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func anUnreachableDatabaseStopsEveryCommandWithAClearMessage() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try closedLoopbackPort()
        let url = "postgres://quiz:hunter2@127.0.0.1:\(port)/quizbox"
        let runs = [
            try QuizboxProcess.run(["serve", "--port", "0", "--database", url], in: directory),
            try QuizboxProcess.run(["migrate"], environment: ["QUIZBOX_DATABASE_URL": url], in: directory),
            try QuizboxProcess.run(["user", "set-role", "ada", "admin"], environment: ["QUIZBOX_DATABASE_URL": url], in: directory),
        ]
        for result in runs {
            #expect(result.status != 0, "\(result.output)")
            #expect(result.output.contains("cannot connect to PostgreSQL at postgres://quiz:***@127.0.0.1:\(port)/quizbox"), "\(result.output)")
            #expect(!result.output.contains("hunter2"), "the password is never printed")
            #expect(!result.output.contains("Stack dump") && !result.output.contains("Fatal error"), "\(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("quizbox.sqlite").path),
                "a postgres:// URL is never taken for a SQLite file name")
    }

    @Test func theDatabaseOptionWinsOverTheURLVariable() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let unreachable = "postgres://quiz@127.0.0.1:\(try closedLoopbackPort())/quizbox"
        let result = try QuizboxProcess.run(["migrate", "--database", "chosen.sqlite"],
                                            environment: ["QUIZBOX_DATABASE_URL": unreachable], in: directory)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("chosen.sqlite"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("chosen.sqlite").path))
    }

    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func serveOnPostgreSQLKeepsAccountsAndPointsAcrossARestart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestPostgres.withFreshDatabase { url in
            let environment = ["QUIZBOX_BCRYPT_COST": "4"]
            let server = try RunningServer(arguments: ["--database", url], environment: environment, in: directory)
            let (created, _) = try await server.request("POST", "/api/v1/users", json: [
                "username": "pat", "firstName": "Pat", "lastName": "Doe", "password": "kept in postgres",
            ])
            #expect(created == 201)
            let (_, subjects) = try await server.request("GET", "/api/v1/subjects")
            let subjectCount = (subjects["subjects"] as? [Any])?.count ?? 0
            #expect(subjectCount >= 3, "the starter bank is loaded into PostgreSQL")
            #expect(server.stop().status == 0)

            // The same database through QUIZBOX_DATABASE_URL, as a host would hand it out.
            let migrate = try QuizboxProcess.run(["migrate"], environment: ["QUIZBOX_DATABASE_URL": url], in: directory)
            #expect(migrate.status == 0)
            #expect(migrate.output.contains("is up to date"), "\(migrate.output)")
            let again = try RunningServer(arguments: [], environment: environment.merging(["QUIZBOX_DATABASE_URL": url]) { $1 },
                                          in: directory)
            let (status, session) = try await again.request("POST", "/api/v1/sessions", json: ["username": "pat", "password": "kept in postgres"])
            #expect(status == 200)
            #expect(session["token"] is String)
            let (_, subjectsAgain) = try await again.request("GET", "/api/v1/subjects")
            #expect((subjectsAgain["subjects"] as? [Any])?.count == subjectCount, "the starter bank is not loaded twice")
            #expect(again.stop().status == 0)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("quizbox.sqlite").path))
    }

    /// SQLite → PostgreSQL → SQLite with the real binary: every row survives both moves and the
    /// account still logs in with its password on the copy.
    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func exportDBAndImportDBMoveAnInstanceBetweenSQLiteAndPostgreSQL() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["QUIZBOX_BCRYPT_COST": "4"]
        let server = try RunningServer(arguments: ["--database", "first.sqlite"], environment: environment, in: directory)
        let (created, _) = try await server.request("POST", "/api/v1/users", json: [
            "username": "pat", "firstName": "Pat", "lastName": "Doe", "password": "moved with me",
        ])
        #expect(created == 201)
        #expect(server.stop().status == 0)
        let first = try QuizboxProcess.run(["export-db", "--database", "first.sqlite", "--output", "first.dump"], in: directory)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("Wrote 1 user(s)"), "\(first.output)")
        try await TestPostgres.withFreshDatabase { url in
            let load = try QuizboxProcess.run(["import-db", "first.dump", "--database", url], in: directory)
            #expect(load.status == 0, "\(load.output)")
            #expect(load.output.contains("Loaded 1 user(s)"), "\(load.output)")
            let again = try QuizboxProcess.run(["import-db", "first.dump", "--database", url], in: directory)
            #expect(again.status != 0)
            #expect(again.output.contains("already holds users or questions"), "\(again.output)")
            let second = try QuizboxProcess.run(["export-db", "--database", url, "--output", "second.dump"], in: directory)
            #expect(second.status == 0, "\(second.output)")
        }
        let back = try QuizboxProcess.run(["import-db", "second.dump", "--database", "third.sqlite"], in: directory)
        #expect(back.status == 0, "\(back.output)")
        _ = try QuizboxProcess.run(["export-db", "--database", "third.sqlite", "--output", "third.dump"], in: directory)
        let dumps = try ["first.dump", "second.dump", "third.dump"].map { try Data(contentsOf: directory.appendingPathComponent($0)) }
        #expect(dumps[0] == dumps[1] && dumps[1] == dumps[2], "every row as it was")
        let copy = try RunningServer(arguments: ["--database", "third.sqlite"], environment: environment, in: directory)
        let (status, session) = try await copy.request("POST", "/api/v1/sessions", json: ["username": "pat", "password": "moved with me"])
        #expect(status == 200)
        #expect(session["token"] is String)
        #expect(copy.stop().status == 0)
    }
}
