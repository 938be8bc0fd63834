import ArgumentParser
import Logging
import QuizServer
import Foundation
import QuizCore
import QuizFormats
import QuizStore

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a question bank: Quizbox CSV (.csv) or a Quizbox bundle (.json). All or nothing."
    )

    @Argument(help: "The file to import.")
    var file: String

    @Option(help: "Subject for rows without a subject column (CSV).")
    var subject: String = "Imported"

    @Option(help: "Topic for rows without a topic column (CSV).")
    var topic: String = "Imported"

    @Option(help: "Title of the quiz the rows become (CSV; default: the file's name).")
    var quizTitle: String?

    @Flag(help: "Check the file and show what would be imported, without storing anything.")
    var dryRun = false

    @OptionGroup var db: DatabaseOptions

    static let maxBytes = 20 << 20

    func run() async throws {
        let url = URL(fileURLWithPath: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        guard let size else { throw CLIError("quizbox import: cannot read \(file): no such file.") }
        guard size <= Self.maxBytes else { throw CLIError("quizbox import: \(file) is larger than 20 MiB.") }
        let data = try Data(contentsOf: url)
        let bank: Bank
        do {
            bank = try read(data, name: url.deletingPathExtension().lastPathComponent, extension: url.pathExtension.lowercased())
        } catch let error as ImportError {
            let lines = error.problems.map { "\(file):\($0.description)" }
            throw CLIError((lines + ["quizbox import: nothing was imported (\(error.problems.count) problem(s))."]).joined(separator: "\n"))
        }
        if dryRun {
            print("\(file): \(bank.questionCount) question(s) in \(bank.subjects.count) subject(s) would be imported (dry run, nothing stored).")
            return
        }
        try await db.withStore { store, config in
            let summary = try await store.importBank(bank, at: Date())
            print("Imported \(summary.questions) question(s) into \(summary.quizzes) quiz(zes) from \(file) into \(config.database).")
        }
    }

    private func read(_ data: Data, name: String, extension ext: String) throws -> Bank {
        switch ext {
        case "json":
            return try BundleCodec(maxBytes: Self.maxBytes).read(data)
        default:
            let options = CSVReader.Options(
                defaultSubject: subject, defaultTopic: topic, quizTitle: quizTitle ?? name, maxBytes: Self.maxBytes)
            return try CSVReader(options: options).read(data)
        }
    }
}
