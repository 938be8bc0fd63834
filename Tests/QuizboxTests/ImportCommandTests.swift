import Foundation
import Testing

@Suite struct ImportCommandTests {
    @Test func skipInvalidImportsTheGoodRowsAndPrintsWhereTheBadOnesAre() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = "question,option1,option2,option3,option4,answer\nOK?,Yes,No,,,Yes\nBroken?,One,Two,,,Three\nAlso OK?,A,B,,,B\n"
        try csv.write(to: directory.appendingPathComponent("mixed.csv"), atomically: true, encoding: .utf8)

        let strict = try QuizboxProcess.run(["import", "mixed.csv", "--database", "q.sqlite"], in: directory)
        #expect(strict.status != 0)
        #expect(strict.output.contains("nothing was imported"))

        let skipping = try QuizboxProcess.run(["import", "mixed.csv", "--skip-invalid", "--database", "q.sqlite"], in: directory)
        #expect(skipping.status == 0, "\(skipping.output)")
        #expect(skipping.output.contains(#"mixed.csv:line 3, column 6: answer "Three" is not one of the options (skipped)"#), "\(skipping.output)")
        #expect(skipping.output.contains("Imported 2 question(s)"))

        let gift = "Good? {=yes ~no}\n\nBad? {=a ~b\n"
        try gift.write(to: directory.appendingPathComponent("mixed.gift"), atomically: true, encoding: .utf8)
        let dry = try QuizboxProcess.run(["import", "mixed.gift", "--skip-invalid", "--dry-run", "--database", "q.sqlite"], in: directory)
        #expect(dry.status == 0, "\(dry.output)")
        #expect(dry.output.contains("mixed.gift:line 3"))
        #expect(dry.output.contains("1 question(s) would be imported"))
    }

    @Test func aLargeCSVWithOneBadRowAtTheEndStoresNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // More rows than one batch: the first batches are already stored when the bad row is read.
        var csv = "question,option1,option2,option3,option4,answer,topic\n"
        for i in 0..<12_000 { csv += "Question \(i)?,a\(i),b\(i),,,a\(i),T\(i % 3)\n" }
        try (csv + "Broken?,x,y,,,z,T0\n").write(to: directory.appendingPathComponent("big.csv"), atomically: true, encoding: .utf8)
        let refused = try QuizboxProcess.run(["import", "big.csv", "--database", "q.sqlite"], in: directory)
        #expect(refused.status != 0)
        #expect(refused.output.contains("big.csv:line 12002, column 6"), "\(refused.output)")
        let exported = try QuizboxProcess.run(["export", "--format", "csv", "--database", "q.sqlite"], in: directory)
        #expect(!exported.output.contains("Question 1?"), "the batches stored before the problem were rolled back")

        try csv.write(to: directory.appendingPathComponent("big.csv"), atomically: true, encoding: .utf8)
        let stored = try QuizboxProcess.run(["import", "big.csv", "--database", "q.sqlite"], in: directory)
        #expect(stored.output.contains("Imported 12000 question(s) (12000 singleChoice) into 3 quiz(zes)"), "\(stored.output)")
        let back = try QuizboxProcess.run(["export", "--format", "csv", "--database", "q.sqlite"], in: directory)
        #expect(back.output.contains("Question 11999?"))
    }

    @Test func aQuizGoesOutAsKahootsTemplateAndComesBackTheSame() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = "question,option1,option2,option3,option4,answer,subject,topic\nLargest ocean?,Pacific,Atlantic,Indian,,Pacific,Geo,Seas\n"
            + "Year of Apollo 11?,1969,1970,,,1969,Geo,Seas\n"
        try csv.write(to: directory.appendingPathComponent("seas.csv"), atomically: true, encoding: .utf8)
        #expect(try QuizboxProcess.run(["import", "seas.csv", "--database", "a.sqlite"], in: directory).status == 0)

        let exported = try QuizboxProcess.run(["export", "--format", "kahoot", "--output", "seas.xlsx", "--database", "a.sqlite"], in: directory)
        #expect(exported.status == 0, "\(exported.output)")
        // Named .gift on purpose: a workbook is told by its bytes, not its name.
        try FileManager.default.moveItem(at: directory.appendingPathComponent("seas.xlsx"), to: directory.appendingPathComponent("seas.gift"))
        let imported = try QuizboxProcess.run(["import", "seas.gift", "--subject", "Geo", "--topic", "Seas", "--database", "b.sqlite"],
                                              in: directory)
        #expect(imported.output.contains("Imported 2 question(s) (2 singleChoice) into 1 quiz(zes) from seas.gift (xlsx)"), "\(imported.output)")
        // Kahoot's default 20 s went out and came back as each question's own time, with nothing to warn of.
        #expect(!imported.output.contains("column G"), "\(imported.output)")

        let before = try QuizboxProcess.run(["export", "--format", "csv", "--database", "a.sqlite"], in: directory).output
        let after = try QuizboxProcess.run(["export", "--format", "csv", "--database", "b.sqlite"], in: directory).output
        #expect(before == after)

        let sheet = try QuizboxProcess.run(["export", "--format", "xlsx", "--output", "bank.xlsx", "--database", "a.sqlite"], in: directory)
        #expect(sheet.status == 0, "\(sheet.output)")
        let dry = try QuizboxProcess.run(["import", "bank.xlsx", "--dry-run", "--database", "c.sqlite"], in: directory)
        #expect(dry.output.contains("bank.xlsx (xlsx): 2 question(s) would be imported"), "\(dry.output)")
    }

    @Test func aDamagedOrProtectedWorkbookIsRefusedByName() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("PK\u{3}\u{4}not really a zip".utf8).write(to: directory.appendingPathComponent("damaged.xlsx"))
        let damaged = try QuizboxProcess.run(["import", "damaged.xlsx", "--database", "q.sqlite"], in: directory)
        #expect(damaged.status != 0)
        #expect(damaged.output.contains("damaged.xlsx:the file is not a readable .xlsx workbook"), "\(damaged.output)")
        #expect(damaged.output.contains("read as xlsx"))
        let protected = Data([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 64)
            + "EncryptionInfo".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        try protected.write(to: directory.appendingPathComponent("secret.xlsx"))
        let refused = try QuizboxProcess.run(["import", "secret.xlsx", "--database", "q.sqlite"], in: directory)
        #expect(refused.output.contains("protected with a password"), "\(refused.output)")
    }
}
