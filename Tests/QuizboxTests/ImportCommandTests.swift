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
}
