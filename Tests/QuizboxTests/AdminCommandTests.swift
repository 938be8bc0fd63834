import Foundation
import Testing

@Suite struct AdminCommandTests {
    @Test func migrateReportsWhatItApplied() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try QuizboxProcess.run(["migrate", "--database", "q.sqlite"], in: directory)
        #expect(first.status == 0)
        #expect(first.output.contains("Applied migrations 1"))
        let second = try QuizboxProcess.run(["migrate", "--database", "q.sqlite"], in: directory)
        #expect(second.output.contains("up to date"))
    }

    @Test func settingsComeFromADotEnvFileAndOptionsWin() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "QUIZBOX_DATABASE=from-dotenv.sqlite\n".write(to: directory.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        let fromFile = try QuizboxProcess.run(["migrate"], in: directory)
        #expect(fromFile.output.contains("from-dotenv.sqlite"), "\(fromFile.output)")
        let fromOption = try QuizboxProcess.run(["migrate", "--database", "option.sqlite"], in: directory)
        #expect(fromOption.output.contains("option.sqlite"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("option.sqlite").path))
    }

    @Test func userCreateReadsThePasswordFromStandardInput() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let env = ["QUIZBOX_BCRYPT_COST": "4", "QUIZBOX_DATABASE": "env.sqlite"]
        let created = try QuizboxProcess.run(["user", "create", "root", "--role", "admin"], input: "s3cret-password\n", environment: env, in: directory)
        #expect(created.status == 0, "\(created.output)")
        #expect(created.output.contains("Created admin 'root'"))
        #expect(!created.output.contains("s3cret"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("env.sqlite").path))

        let taken = try QuizboxProcess.run(["user", "create", "ROOT"], input: "another-password\n", environment: env, in: directory)
        #expect(taken.status != 0)
        #expect(taken.output.contains("taken"))
        let short = try QuizboxProcess.run(["user", "create", "shorty"], input: "abc\n", environment: env, in: directory)
        #expect(short.status != 0)
        #expect(short.output.contains("at least 8"))
    }

    @Test func importStoresAGoodCSVAndReportsTheLineOfABadOne() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = "question,option1,option2,option3,option4,answer\r\n\"Largest ocean?\",Pacific,Atlantic,,,Pacific\r\nRed planet?,Venus,Mars,Jupiter,,Mars\r\n"
        try good.write(to: directory.appendingPathComponent("oceans.csv"), atomically: true, encoding: .utf8)
        let imported = try QuizboxProcess.run(["import", "oceans.csv", "--database", "q.sqlite", "--subject", "Geo"], in: directory)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.output.contains("Imported 2 question(s) (2 singleChoice) into 1 quiz"))

        let bad = "question,option1,option2,option3,option4,answer\nOK?,Yes,No,,,Yes\nBroken?,One,Two,,,Three\n"
        try bad.write(to: directory.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let refused = try QuizboxProcess.run(["import", "bad.csv", "--database", "q.sqlite"], in: directory)
        #expect(refused.status != 0)
        #expect(refused.output.contains("bad.csv:line 3"))
        #expect(refused.output.contains("nothing was imported"))

        let missing = try QuizboxProcess.run(["import", "nope.csv", "--database", "q.sqlite"], in: directory)
        #expect(missing.status != 0)
        #expect(missing.output.contains("no such file"))
    }

    @Test func importRecognisesTheFormatAndADryRunStoresNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let gift = """
            $CATEGORY: $course$/Science/Planets

            ::Q1:: The Sun is a star. {T}

            Which planet is largest? {=Jupiter ~Mars ~Venus}
            """
        try gift.write(to: directory.appendingPathComponent("planets.txt"), atomically: true, encoding: .utf8)
        let dry = try QuizboxProcess.run(["import", "planets.txt", "--dry-run", "--database", "q.sqlite"], in: directory)
        #expect(dry.status == 0, "\(dry.output)")
        #expect(dry.output.contains("(gift): 2 question(s) would be imported: 1 singleChoice, 1 trueFalse"))
        let real = try QuizboxProcess.run(["import", "planets.txt", "--database", "q.sqlite"], in: directory)
        #expect(real.output.contains("Imported 2 question(s)"), "\(real.output)")
        let again = try QuizboxProcess.run(["import", "planets.txt", "--dry-run", "--database", "q.sqlite"], in: directory)
        #expect(again.status == 0)
    }

    @Test func exportWritesABankThatImportsBackTheSame() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = "question,option1,option2,option3,option4,answer,subject,topic\nLargest ocean?,Pacific,Atlantic,,,Pacific,Geo,Seas\n"
        try csv.write(to: directory.appendingPathComponent("seas.csv"), atomically: true, encoding: .utf8)
        #expect(try QuizboxProcess.run(["import", "seas.csv", "--database", "a.sqlite"], in: directory).status == 0)
        for format in ["gift", "moodle-xml", "bundle", "csv", "aiken"] {
            let out = "seas-\(format).out"
            let exported = try QuizboxProcess.run(["export", "--format", format, "--quiz", "1", "--output", out, "--database", "a.sqlite"], in: directory)
            #expect(exported.status == 0, "\(format): \(exported.output)")
            let back = try QuizboxProcess.run(["import", out, "--format", format, "--dry-run", "--database", "b.sqlite"], in: directory)
            #expect(back.output.contains("1 question(s) would be imported: 1 singleChoice"), "\(format): \(back.output)")
        }
        let missing = try QuizboxProcess.run(["export", "--quiz", "99", "--database", "a.sqlite"], in: directory)
        #expect(missing.status != 0)
        #expect(missing.output.contains("no quiz with id 99"))
        let readOnly = try QuizboxProcess.run(["export", "--format", "opentdb", "--database", "a.sqlite"], in: directory)
        #expect(readOnly.status != 0)
    }

    @Test func importFromAnAddressThatCannotBeReachedSaysSoAndStoresNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Port 9 on loopback: nothing listens there in a test sandbox.
        let refused = try QuizboxProcess.run(["import", "http://127.0.0.1:9/bank.json", "--database", "q.sqlite"], in: directory)
        #expect(refused.status != 0)
        #expect(refused.output.contains("could not reach the server"))
        #expect(refused.output.contains("nothing was imported"))
        let notWeb = try QuizboxProcess.run(["import", "ftp://127.0.0.1/bank.json", "--database", "q.sqlite"], in: directory)
        #expect(notWeb.status != 0, "ftp is read as a file name, and there is no such file")
    }
}
