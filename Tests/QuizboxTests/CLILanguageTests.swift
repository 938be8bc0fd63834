import Foundation
import Testing

/// The real binary speaks the language of its environment: Finnish under `LANG=fi_FI.UTF-8`,
/// English under `LANG=C`. Command and option names, ArgumentParser's own headings and the
/// server's log lines stay English.
@Suite(.serialized) struct CLILanguageTests {
    /// Only `LANG` decides: the variables that would win over it are emptied (empty ones are skipped).
    static func locale(_ lang: String) -> [String: String] {
        ["LANG": lang, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "QUIZBOX_BCRYPT_COST": "4"]
    }

    static let finnish = locale("fi_FI.UTF-8")
    static let english = locale("C")

    @Test func userCommandsAnswerInFinnish() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let env = Self.finnish.merging(["QUIZBOX_DATABASE": "fi.sqlite"]) { $1 }

        let created = try QuizboxProcess.run(["user", "create", "root", "--role", "admin"], input: "s3cret-password\n", environment: env, in: directory)
        #expect(created.status == 0, "\(created.output)")
        #expect(created.output.contains("Luotiin käyttäjä 'root' (rooli: ylläpitäjä"), "\(created.output)")
        #expect(!created.output.contains("Created"))

        let taken = try QuizboxProcess.run(["user", "create", "ROOT"], input: "another-password\n", environment: env, in: directory)
        #expect(taken.status != 0)
        #expect(taken.output.contains("käyttäjätunnus 'ROOT' on jo käytössä"), "\(taken.output)")

        let promoted = try QuizboxProcess.run(["user", "set-role", "root", "author"], environment: env, in: directory)
        #expect(promoted.output.contains("Käyttäjän 'root' rooli on nyt laatija."), "\(promoted.output)")

        let nobody = try QuizboxProcess.run(["user", "set-role", "nobody", "admin"], environment: env, in: directory)
        #expect(nobody.status != 0)
        #expect(nobody.output.contains("quizbox user set-role: käyttäjää 'nobody' ei ole."), "\(nobody.output)")

        let migrated = try QuizboxProcess.run(["migrate"], environment: env, in: directory)
        #expect(migrated.output.contains("fi.sqlite on ajan tasalla"), "\(migrated.output)")
    }

    @Test func importAndExportReportInFinnish() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = "question,option1,option2,option3,option4,answer\r\n\"Largest ocean?\",Pacific,Atlantic,,,Pacific\r\nRed planet?,Venus,Mars,Jupiter,,Mars\r\n"
        try good.write(to: directory.appendingPathComponent("oceans.csv"), atomically: true, encoding: .utf8)
        let imported = try QuizboxProcess.run(["import", "oceans.csv", "--database", "q.sqlite"], environment: Self.finnish, in: directory)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.output.contains("Tuotiin 2 kysymystä (yksi oikea vaihtoehto: 2) 1 visaan lähteestä oceans.csv (csv)"), "\(imported.output)")

        let dryRun = try QuizboxProcess.run(["import", "oceans.csv", "--dry-run"], environment: Self.finnish, in: directory)
        #expect(dryRun.output.contains("Kuivaharjoitus: mitään ei tallennettu."), "\(dryRun.output)")

        let bad = "question,option1,option2,option3,option4,answer\nOK?,Yes,No,,,Yes\nBroken?,One,Two,,,Three\n"
        try bad.write(to: directory.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let refused = try QuizboxProcess.run(["import", "bad.csv", "--database", "q.sqlite"], environment: Self.finnish, in: directory)
        #expect(refused.status != 0)
        #expect(refused.output.contains("quizbox import: mitään ei tuotu (1 ongelma, luettu muodossa csv)."), "\(refused.output)")

        let missing = try QuizboxProcess.run(["import", "nope.csv", "--database", "q.sqlite"], environment: Self.finnish, in: directory)
        #expect(missing.status != 0)
        #expect(missing.output.contains("tiedostoa nope.csv ei voi lukea: tiedostoa ei ole."), "\(missing.output)")

        let noQuiz = try QuizboxProcess.run(["export", "--quiz", "999", "--database", "q.sqlite"], environment: Self.finnish, in: directory)
        #expect(noQuiz.status != 0)
        #expect(noQuiz.output.contains("visaa tunnisteella 999 ei ole."), "\(noQuiz.output)")

        // The file itself is data for programs: the same CSV whatever the language.
        let written = try QuizboxProcess.run(["export", "--format", "csv", "-o", "out.csv", "--database", "q.sqlite"], environment: Self.finnish, in: directory)
        #expect(written.output.contains("Kirjoitettiin 2 kysymystä tiedostoon out.csv."), "\(written.output)")
        let csv = try String(contentsOf: directory.appendingPathComponent("out.csv"), encoding: .utf8)
        #expect(csv.contains("Largest ocean?"))
    }

    @Test func helpShowsFinnishTextsAndArgumentParsersOwnHeadings() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let help = try QuizboxProcess.run(["--help"], environment: Self.finnish, in: directory)
        #expect(help.output.contains("Itse ylläpidettävä visapalvelin."), "\(help.output)")
        #expect(help.output.contains("Hallitse tilejä."))
        #expect(help.output.contains("USAGE:"))  // ArgumentParser's own words stay English

        let importHelp = try QuizboxProcess.run(["import", "--help"], environment: Self.finnish, in: directory)
        #expect(importHelp.output.contains("Tuotava tiedosto tai http(s)-osoite"), "\(importHelp.output)")
        #expect(importHelp.output.contains("--skip-invalid"))  // option names stay as they are
    }

    @Test func theCLocaleKeepsEverythingInEnglish() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let help = try QuizboxProcess.run(["--help"], environment: Self.english, in: directory)
        #expect(help.output.contains("A self-hosted quiz server."), "\(help.output)")
        #expect(!help.output.contains("visapalvelin"))

        let env = Self.english.merging(["QUIZBOX_DATABASE": "en.sqlite"]) { $1 }
        let created = try QuizboxProcess.run(["user", "create", "root", "--role", "admin"], input: "s3cret-password\n", environment: env, in: directory)
        #expect(created.output.contains("Created admin 'root'"), "\(created.output)")
        let nobody = try QuizboxProcess.run(["user", "set-role", "nobody", "admin"], environment: env, in: directory)
        #expect(nobody.output.contains("no user named 'nobody'."), "\(nobody.output)")
    }

    @Test func theTerminalPlayerSpeaksFinnishAndTheServerLogStaysEnglish() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try RunningServer(arguments: [], environment: Self.finnish, in: directory)
        let address = server.baseURL.absoluteString

        // Through a pipe the menu is numbered lines; q leaves at once.
        let left = try QuizboxProcess.run(["play", "--server", address], input: "q\n", environment: Self.finnish, in: directory)
        #expect(left.status == 0, "\(left.output)")
        #expect(left.output.contains("Quizbox palvelimella \(address)"), "\(left.output)")
        #expect(left.output.contains("1. Kirjaudu sisään"))
        #expect(left.output.contains("2. Luo tili"))
        #expect(left.output.contains("Valitse 1–2 (q: lopeta)"))

        // A refusal from the server comes back in the player's language (the client sends Accept-Language).
        let refused = try QuizboxProcess.run(["play", "--server", address], input: "1\nnobody\nwrong-password\nq\n",
                                             environment: Self.finnish, in: directory)
        #expect(refused.output.contains("Käyttäjätunnus: "), "\(refused.output)")
        #expect(!refused.output.contains("Wrong username or password."), "\(refused.output)")

        // A new account, the main menu in Finnish, and the leaderboard.
        let played = try QuizboxProcess.run(["play", "--server", address], input: "2\ntessa\nTessa\nTest\nsalasana123\nsalasana123\n5\nq\n",
                                            environment: Self.finnish, in: directory)
        #expect(played.output.contains("Kirjauduit sisään käyttäjänä tessa."), "\(played.output)")
        #expect(played.output.contains("Mitä seuraavaksi?"))
        #expect(played.output.contains("1. Pelaa visaa"))
        #expect(played.output.contains("Sinä: sija #1, 0 pistettä."))
        #expect(played.output.contains("Heippa!"))

        let (_, log) = server.stop()
        #expect(!log.contains("palvelin"), "the server's log is for operators and stays English")
    }

    @Test func anUnreachableServerIsSaidInFinnish() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failed = try QuizboxProcess.run(["play", "--server", "http://127.0.0.1:1"], environment: Self.finnish, in: directory)
        #expect(failed.status != 0)
        #expect(failed.output.contains("Quizbox-palvelimeen osoitteessa http://127.0.0.1:1 ei saada yhteyttä"), "\(failed.output)")
    }
}
