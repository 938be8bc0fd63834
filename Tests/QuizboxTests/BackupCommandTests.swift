import Foundation
import QuizStore
import QuizTestSupport
import SQLKit
import Synchronization
import Testing

/// `quizbox backup` while a running server takes answers, and `quizbox restore` of what it wrote:
/// the copy is of one moment (every user's points match their finished attempts, no answer
/// without its attempt), lies between what was stored before and after it, and serves again.
@Suite(.serialized) struct BackupCommandTests {
    static let environment = ["QUIZBOX_BCRYPT_COST": "4", "QUIZBOX_REGISTRATIONS_PER_ADDRESS_PER_HOUR": "100000",
                              "QUIZBOX_LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE": "100000"]

    /// Players who keep playing the first quiz's true/false questions until told to stop.
    final class WriteLoad: Sendable {
        let server: RunningServer
        let stopped = Atomic<Bool>(false)
        let finishes = Atomic<Int>(0)
        let tokens = Mutex<[String]>([])

        init(server: RunningServer) { self.server = server }

        /// Each round a new player signs up and plays once, so every round adds a user, an attempt,
        /// answers and points: a copy read table by table at different moments would hold attempts
        /// of users it lacks, answers of attempts it lacks, or totals that miss a finish.
        func play(player: Int, quizId: Int, questionIds: [Int], started: AsyncStream<Void>.Continuation) async throws {
            var round = 0
            while !stopped.load(ordering: .relaxed) {
                round += 1
                let name = "p\(player)r\(round)"
                let (created, _) = try await server.request("POST", "/api/v1/users", json: [
                    "username": name, "firstName": "P", "lastName": "\(player)", "password": "backups matter",
                ])
                #expect(created == 201)
                let (_, session) = try await server.request("POST", "/api/v1/sessions", json: ["username": name, "password": "backups matter"])
                let token = try #require(session["token"] as? String)
                tokens.withLock { $0.append(token) }
                let (_, attempt) = try await server.request("POST", "/api/v1/quizzes/\(quizId)/attempts", token: token)
                let attemptId = try #require(attempt["id"] as? Int)
                for id in questionIds {
                    _ = try await server.request("POST", "/api/v1/attempts/\(attemptId)/answers", token: token,
                                                 json: ["questionId": id, "answer": ["value": (round + id) % 2 == 0]])
                }
                let (status, _) = try await server.request("POST", "/api/v1/attempts/\(attemptId)/finish", token: token)
                #expect(status == 200)
                if finishes.add(1, ordering: .relaxed).newValue == 6 { started.yield() }
            }
        }
    }

    /// The first quiz of the starter bank and its true/false questions.
    static func quiz(on server: RunningServer) async throws -> (id: Int, trueFalse: [Int]) {
        let (_, subjects) = try await server.request("GET", "/api/v1/subjects")
        let subjectId = try #require((subjects["subjects"] as? [[String: Any]])?.first?["id"] as? Int)
        let (_, topics) = try await server.request("GET", "/api/v1/subjects/\(subjectId)/topics")
        let topicId = try #require((topics["topics"] as? [[String: Any]])?.first?["id"] as? Int)
        let (_, quizzes) = try await server.request("GET", "/api/v1/topics/\(topicId)/quizzes")
        let quizId = try #require((quizzes["quizzes"] as? [[String: Any]])?.first?["id"] as? Int)
        let (_, list) = try await server.request("GET", "/api/v1/quizzes/\(quizId)/questions")
        let ids = (list["questions"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "trueFalse" }.compactMap { $0["id"] as? Int }
        try #require(!ids.isEmpty)
        return (quizId, ids)
    }

    static func finishedAttempts(_ location: String) async throws -> Int {
        let database = try await QuizDatabase.open(location, poolSize: 1)
        let count = try? await database.read { db in
            try await db.raw("SELECT COUNT(*) AS n FROM attempts WHERE finished_at IS NOT NULL").first()?.decode(column: "n", as: Int.self)
        }
        try await database.close()
        return try #require(count ?? nil)
    }

    /// Backs up `location` while players write to a server on it; returns the finished attempts
    /// counted just before and just after the backup, and the players' tokens.
    static func backUpUnderLoad(_ location: String, to output: URL, in directory: URL) async throws -> (before: Int, after: Int, tokens: [String]) {
        // 20,000 more questions: a copy that read its tables one after another would take long
        // enough between users and attempts for the players' writes to tear it.
        let bulk = directory.appendingPathComponent("bulk.csv")
        let rows = (1...20_000).map { "Bulk question \($0)?,Yes,No,Yes,Bulk,Many" }
        try (["question,option1,option2,answer,subject,topic"] + rows).joined(separator: "\n").write(to: bulk, atomically: true, encoding: .utf8)
        let server = try RunningServer(arguments: ["--database", location], environment: environment, in: directory)
        let imported = try QuizboxProcess.run(["import", bulk.path, "--database", location], in: directory)
        #expect(imported.status == 0, "\(imported.output)")
        let quiz = try await quiz(on: server)
        let load = WriteLoad(server: server)
        let (started, signal) = AsyncStream<Void>.makeStream()
        let players = (1...3).map { player in
            Task {
                do {
                    try await load.play(player: player, quizId: quiz.id, questionIds: quiz.trueFalse, started: signal)
                } catch {
                    signal.finish()  // so the wait below ends and the error is reported
                    throw error
                }
            }
        }
        // Waits for the players to be well under way: no sleeping.
        for await _ in started { break }
        let before = try await finishedAttempts(location)
        let backup = try QuizboxProcess.run(["backup", "--output", output.path, "--database", location], in: directory)
        // The players were under way before the backup; that they are still writing after it is
        // what "under load" means. A fast backup on a loaded machine may end before their next
        // finish: read again until it comes (the count bounds the restored copy from above).
        var after = try await finishedAttempts(location)
        for _ in 0..<500 where after <= before { after = try await finishedAttempts(location) }
        load.stopped.store(true, ordering: .relaxed)
        for player in players { try await player.value }
        #expect(backup.status == 0, "\(backup.output)")
        #expect(backup.output.contains("Backed up"), "\(backup.output)")
        #expect(after > before, "the players kept writing while the backup ran")
        #expect(server.stop().status == 0)
        return (before, after, load.tokens.withLock { $0 })
    }

    /// What a copy of one moment holds, checked in SQL on the restored database.
    static func expectConsistent(_ location: String, between before: Int, and after: Int) async throws {
        let database = try await QuizDatabase.open(location, poolSize: 1)
        do {
            try await database.read { db in
                func count(_ sql: String) async throws -> Int {
                    try await db.raw(SQLQueryString(sql)).first()?.decode(column: "n", as: Int.self) ?? -1
                }
                let finished = try await count("SELECT COUNT(*) AS n FROM attempts WHERE finished_at IS NOT NULL")
                #expect((before...after).contains(finished), "\(finished) finished attempts, expected \(before)…\(after)")
                #expect(try await count("""
                    SELECT COUNT(*) AS n FROM users u
                    WHERE u.points <> (SELECT COALESCE(SUM(a.points_added), 0) FROM attempts a WHERE a.user_id = u.id AND a.finished_at IS NOT NULL)
                    """) == 0, "every total is the sum of its finished attempts")
                #expect(try await count("SELECT COUNT(*) AS n FROM answers x WHERE NOT EXISTS (SELECT 1 FROM attempts a WHERE a.id = x.attempt_id)") == 0)
                #expect(try await count("SELECT COUNT(*) AS n FROM attempts a WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = a.user_id)") == 0)
                #expect(try await count("SELECT CAST(COALESCE(SUM(users), 0) AS BIGINT) AS n FROM point_buckets WHERE points > 0")
                        == count("SELECT COUNT(*) AS n FROM users WHERE points > 0"), "the rank buckets match the totals")
                if database.dialect == .sqlite {
                    #expect(try await db.raw("PRAGMA foreign_key_check").all().isEmpty)
                    #expect(try await db.raw("PRAGMA integrity_check").first()?.decode(column: "integrity_check", as: String.self) == "ok")
                }
            }
            try await database.close()
        } catch {
            try? await database.close()
            throw error
        }
    }

    /// A server on the restored database knows the players and their points.
    static func expectServes(_ location: String, tokens: [String], in directory: URL) async throws {
        let server = try RunningServer(arguments: ["--database", location], environment: environment, in: directory)
        let (status, me) = try await server.request("GET", "/api/v1/me", token: tokens[0])
        #expect(status == 200)
        #expect(me["username"] as? String != nil)
        #expect(server.stop().status == 0)
    }

    @Test func aSQLiteBackupUnderWriteLoadIsOneMomentAndRestores() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = directory.appendingPathComponent("live.sqlite").path
        let backup = directory.appendingPathComponent("backup.sqlite")
        let (before, after, tokens) = try await Self.backUpUnderLoad(live, to: backup, in: directory)
        #expect(try DatabaseBackup.format(of: backup.path) == .archive)
        // An ordinary tar: what it holds is a database the server opens.
        let extracted = directory.appendingPathComponent("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        let tar = try ChildProcess.run("tar", ["-xf", backup.path, "-C", extracted.path])
        #expect(tar.status == 0, "\(tar.output)")
        try await Self.expectConsistent(extracted.appendingPathComponent("quizbox.sqlite").path, between: before, and: after)

        let restored = directory.appendingPathComponent("restored.sqlite").path
        let result = try QuizboxProcess.run(["restore", "--input", backup.path, "--database", restored], in: directory)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Restored"), "\(result.output)")
        try await Self.expectConsistent(restored, between: before, and: after)
        try await Self.expectServes(restored, tokens: tokens, in: directory)

        let again = try QuizboxProcess.run(["restore", "--input", backup.path, "--database", restored], in: directory)
        #expect(again.status != 0)
        #expect(again.output.contains("already holds users or questions"), "\(again.output)")
    }

    @Test func badOutputsAndInputsAreClearErrors() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try QuizboxProcess.run(["migrate", "--database", "q.sqlite"], in: directory).status == 0)
        let same = try QuizboxProcess.run(["backup", "--output", "q.sqlite", "--database", "q.sqlite"], in: directory)
        #expect(same.status != 0)
        #expect(same.output.contains("the output is the database itself"), "\(same.output)")
        let missing = try QuizboxProcess.run(["backup", "--output", "b.sqlite", "--database", "nothing.sqlite"], in: directory)
        #expect(missing.status != 0 && missing.output.contains("there is no database at nothing.sqlite"), "\(missing.output)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("nothing.sqlite").path))
        let noFolder = try QuizboxProcess.run(["backup", "--output", "/no/such/folder/b.sqlite", "--database", "q.sqlite"], in: directory)
        #expect(noFolder.status != 0 && !noFolder.output.contains("Fatal error"), "\(noFolder.output)")
        try Data("not a backup".utf8).write(to: directory.appendingPathComponent("junk.txt"))
        let junk = try QuizboxProcess.run(["restore", "--input", "junk.txt", "--database", "new.sqlite"], in: directory)
        #expect(junk.status != 0 && junk.output.contains("neither a SQLite database nor a Quizbox database dump"), "\(junk.output)")
        let absent = try QuizboxProcess.run(["restore", "--input", "absent.sqlite", "--database", "new.sqlite"], in: directory)
        #expect(absent.status != 0 && absent.output.contains("cannot read absent.sqlite"), "\(absent.output)")
    }

    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func aPostgreSQLBackupUnderWriteLoadIsOneSnapshotAndRestoresToEitherDatabase() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let backup = directory.appendingPathComponent("backup.jsonl")
        try await TestPostgres.withFreshDatabase { live in
            let (before, after, tokens) = try await Self.backUpUnderLoad(live, to: backup, in: directory)
            #expect(try DatabaseBackup.format(of: backup.path) == .archive)
            try await TestPostgres.withFreshDatabase { restored in
                let result = try QuizboxProcess.run(["restore", "--input", backup.path, "--database", restored], in: directory)
                #expect(result.status == 0, "\(result.output)")
                try await Self.expectConsistent(restored, between: before, and: after)
                try await Self.expectServes(restored, tokens: tokens, in: directory)
            }
            let sqlite = directory.appendingPathComponent("from-postgres.sqlite").path
            let result = try QuizboxProcess.run(["restore", "--input", backup.path, "--database", sqlite], in: directory)
            #expect(result.status == 0, "\(result.output)")
            try await Self.expectConsistent(sqlite, between: before, and: after)
        }
    }

    /// A database with one question whose picture (a PNG the size of its header) and sound clip
    /// (a short WAV) live in `data/images/`, as an import leaves them; returns the picture's bytes
    /// and file name.
    static func databaseWithAPicture(_ location: String, data: URL, in directory: URL) throws -> (bytes: Data, name: String) {
        let bytes = PictureBytes.png(width: 64, height: 48)
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz>
              <question type="truefalse">
                <name><text>Saturn</text></name>
                <questiontext format="html">
                  <text><![CDATA[<p>Is this Saturn? <img src="@@PLUGINFILE@@/planet.png" alt="A ringed planet"></p><audio controls="true" title="A hum"><source src="@@PLUGINFILE@@/hum.wav"></audio>]]></text>
                  <file name="planet.png" path="/" encoding="base64">\(bytes.base64EncodedString())</file>
                  <file name="hum.wav" path="/" encoding="base64">\(soundBytes.base64EncodedString())</file>
                </questiontext>
                <answer fraction="100"><text>true</text></answer>
                <answer fraction="0"><text>false</text></answer>
              </question>
            </quiz>
            """
        let file = directory.appendingPathComponent("planets.xml")
        try Data(xml.utf8).write(to: file)
        let imported = try QuizboxProcess.run(["import", file.path, "--subject", "Space", "--topic", "Planets", "--database", location],
                                              environment: ["QUIZBOX_DATA_DIRECTORY": data.path], in: directory)
        #expect(imported.status == 0, "\(imported.output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("images").path)
        return (bytes, try #require(names.first { $0.hasSuffix(".png") }))
    }

    static let soundBytes = SoundBytes.wav(seconds: 0.25)

    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Pictures live in the data directory, not in the database: the backup carries them, and a
    /// restore into another data directory serves the question with its picture again.
    @Test func aBackupCarriesThePicturesAndARestoredServerServesThem() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = directory.appendingPathComponent("live.sqlite").path
        let picture = try Self.databaseWithAPicture(live, data: directory.appendingPathComponent("data"), in: directory)
        let backup = directory.appendingPathComponent("quizbox.backup").path
        let made = try QuizboxProcess.run(["backup", "--output", backup, "--database", live],
                                          environment: ["QUIZBOX_DATA_DIRECTORY": directory.appendingPathComponent("data").path], in: directory)
        #expect(made.status == 0, "\(made.output)")
        #expect(made.output.contains("1 picture"), "\(made.output)")
        #expect(made.output.contains("Questions' sound clips went with them: 1 clip."), "\(made.output)")

        // Another machine: nothing of the old data directory is there.
        let elsewhere = directory.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let environment = Self.environment.merging(["QUIZBOX_DATA_DIRECTORY": elsewhere.appendingPathComponent("data").path]) { $1 }
        let restored = elsewhere.appendingPathComponent("restored.sqlite").path
        let result = try QuizboxProcess.run(["restore", "--input", backup, "--database", restored], environment: environment, in: elsewhere)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 picture"), "\(result.output)")
        #expect(result.output.contains("Put back 1 sound clip in"), "\(result.output)")
        let server = try RunningServer(arguments: ["--database", restored], environment: environment, in: elsewhere)
        let (status, served) = try await server.send("GET", "/images/\(picture.name)")
        #expect(status == 200)
        #expect(served == picture.bytes)
        let clip = try #require(try FileManager.default.contentsOfDirectory(atPath: elsewhere.appendingPathComponent("data/images").path)
            .first { $0.hasSuffix(".wav") })
        let (soundStatus, sound) = try await server.send("GET", "/sounds/\(clip)")
        #expect(soundStatus == 200 && sound == Self.soundBytes)
        #expect(server.stop().status == 0)
    }

    /// What the data directory, the backup and the restore write is readable by the owner alone:
    /// the database holds password hashes and sessions.
    @Test func databaseBackupAndPictureFilesAreTheOwnersOnly() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let live = directory.appendingPathComponent("live.sqlite").path
        let picture = try Self.databaseWithAPicture(live, data: data, in: directory)
        #expect(Self.mode(live) == 0o600)
        #expect(Self.mode(data.path) == 0o700 && Self.mode(data.appendingPathComponent("images").path) == 0o700)
        #expect(Self.mode(data.appendingPathComponent("images/\(picture.name)").path) == 0o600)

        // The write-ahead log and its index, while a server holds the database open.
        let server = try RunningServer(arguments: ["--database", live], environment: Self.environment, in: directory)
        for suffix in ["-wal", "-shm"] { #expect(Self.mode(live + suffix) == 0o600, "\(suffix)") }
        #expect(server.stop().status == 0)

        let backup = directory.appendingPathComponent("quizbox.backup").path
        let made = try QuizboxProcess.run(["backup", "--output", backup, "--database", live],
                                          environment: ["QUIZBOX_DATA_DIRECTORY": data.path], in: directory)
        #expect(made.status == 0, "\(made.output)")
        #expect(Self.mode(backup) == 0o600)
        let dump = directory.appendingPathComponent("quizbox.dump").path
        #expect(try QuizboxProcess.run(["export-db", "--output", dump, "--database", live], in: directory).status == 0)
        #expect(Self.mode(dump) == 0o600)

        let other = directory.appendingPathComponent("other-data")
        let restored = directory.appendingPathComponent("restored.sqlite").path
        let result = try QuizboxProcess.run(["restore", "--input", backup, "--database", restored],
                                            environment: ["QUIZBOX_DATA_DIRECTORY": other.path], in: directory)
        #expect(result.status == 0, "\(result.output)")
        #expect(Self.mode(restored) == 0o600)
        #expect(Self.mode(other.path) == 0o700 && Self.mode(other.appendingPathComponent("images").path) == 0o700)
        #expect(Self.mode(other.appendingPathComponent("images/\(picture.name)").path) == 0o600)
    }

    /// Backups written before pictures travelled with them (a SQLite file, an export-db dump)
    /// still restore.
    @Test func aDatabaseOnlyBackupStillRestores() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = directory.appendingPathComponent("live.sqlite").path
        _ = try Self.databaseWithAPicture(live, data: directory.appendingPathComponent("data"), in: directory)
        #expect(try QuizboxProcess.run(["user", "create", "ada", "--database", live], input: "backups matter\n",
                                       environment: Self.environment, in: directory).status == 0)
        let dump = directory.appendingPathComponent("old.dump").path
        #expect(try QuizboxProcess.run(["export-db", "--output", dump, "--database", live], in: directory).status == 0)
        let plainCopy = directory.appendingPathComponent("old.sqlite").path
        try FileManager.default.copyItem(atPath: live, toPath: plainCopy)
        for (index, old) in [dump, plainCopy].enumerated() {
            let target = directory.appendingPathComponent("restored-\(index).sqlite").path
            let result = try QuizboxProcess.run(["restore", "--input", old, "--database", target],
                                                environment: ["QUIZBOX_DATA_DIRECTORY": directory.appendingPathComponent("new-data").path],
                                                in: directory)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("Restored"), "\(result.output)")
        }
    }
}
