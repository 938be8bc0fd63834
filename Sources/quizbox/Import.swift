import ArgumentParser
import Foundation
import Logging
import QuizCore
import QuizFormats
import QuizServer
import QuizStore

extension BankFormat: ExpressibleByArgument {}
extension CSVReader.AnswerColumn: ExpressibleByArgument {}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a question bank: CSV, GIFT, Moodle XML, Aiken, Open Trivia DB JSON, a remote question payload, or a Quizbox bundle. All or nothing.",
        discussion: "The format is recognised from the file's extension and content unless --format says it."
    )

    @Argument(help: "The file to import, or an http(s) address to load it from.")
    var file: String

    @Option(help: "csv, gift, moodle-xml, aiken, opentdb, remote or bundle (default: detected).")
    var format: BankFormat?

    @Option(help: "Subject for questions without a category of their own.")
    var subject: String = "Imported"

    @Option(help: "Topic for questions without a category of their own.")
    var topic: String = "Imported"

    @Option(help: "Title of the quiz each topic's questions become (default: the file's name).")
    var quizTitle: String?

    @Option(help: "CSV: the answer column holds the option's text, its index (1-4) or its letter (A-D).")
    var answerColumn: CSVReader.AnswerColumn = .text

    @Flag(help: "Check the file and show what would be imported, without storing anything.")
    var dryRun = false

    @OptionGroup var db: DatabaseOptions

    static let maxBytes = 20 << 20

    func run() async throws {
        if let remote = URL(string: file), ["http", "https"].contains(remote.scheme?.lowercased() ?? "") {
            return try await importRemote(remote)
        }
        let url = URL(fileURLWithPath: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        guard let size else { throw CLIError("quizbox import: cannot read \(file): no such file.") }
        guard size <= Self.maxBytes else { throw CLIError("quizbox import: \(file) is larger than 20 MiB.") }
        let data = try Data(contentsOf: url)
        let format = format ?? BankFormat.detect(fileName: file, data: data)
        let defaults = ImportDefaults(subject: subject, topic: topic,
                                      quizTitle: quizTitle ?? url.deletingPathExtension().lastPathComponent, maxBytes: Self.maxBytes,
                                      csvAnswerColumn: answerColumn)
        let result: ReadResult
        do {
            result = try format.read(data, defaults: defaults)
        } catch {
            let lines = error.problems.map { "\(file):\($0.description)" }
            throw CLIError((lines + ["quizbox import: nothing was imported (\(error.problems.count) problem(s), read as \(format.rawValue))."])
                .joined(separator: "\n"))
        }
        try await store(result, source: file, format: format)
    }

    /// Downloads with the loader's limits (connect 5 s, total 30 s, 20 MiB, 5 redirects).
    func importRemote(_ url: URL) async throws {
        let defaults = ImportDefaults(subject: subject, topic: topic,
                                      quizTitle: quizTitle ?? url.deletingPathExtension().lastPathComponent, maxBytes: Self.maxBytes,
                                      csvAnswerColumn: answerColumn)
        let loaded: RemoteBankLoader.Loaded
        do {
            loaded = try await RemoteBankLoader().load(url, format: format, defaults: defaults)
        } catch {
            throw CLIError("quizbox import: \(error.description)\nquizbox import: nothing was imported.")
        }
        try await store(loaded.result, source: url.absoluteString, format: loaded.format)
    }

    func store(_ result: ReadResult, source: String, format: BankFormat) async throws {
        for warning in result.warnings { print("\(source):\(warning.description) (not imported)") }
        let counts = Self.counts(result.bank)
        if dryRun {
            print("\(source) (\(format.rawValue)): \(result.bank.questionCount) question(s) would be imported: \(counts). Dry run: nothing stored.")
            return
        }
        try await db.withStore { store, config in
            let summary = try await store.importBank(result.bank, at: Date())
            print("Imported \(summary.questions) question(s) (\(counts)) into \(summary.quizzes) quiz(zes) from \(source) (\(format.rawValue)) into \(config.databaseDescription).")
        }
    }

    /// "12 singleChoice, 3 trueFalse": what a person checks before confirming.
    static func counts(_ bank: Bank) -> String {
        var counts: [QuestionKind: Int] = [:]
        for subject in bank.subjects {
            for topic in subject.topics {
                for question in topic.questions + topic.quizzes.flatMap(\.questions) { counts[question.kind, default: 0] += 1 }
            }
        }
        return QuestionKind.allCases.compactMap { kind in counts[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ")
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export questions as CSV, GIFT, Moodle XML, Aiken or a Quizbox bundle: one quiz, one topic, or everything."
    )

    @Option(help: "csv, gift, moodle-xml, aiken or bundle.")
    var format: BankFormat = .bundle

    @Option(help: "Export only this quiz (its id).")
    var quiz: Int64?

    @Option(help: "Export only this topic (its id).")
    var topic: Int64?

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    @OptionGroup var db: DatabaseOptions

    func validate() throws {
        guard format.canWrite else { throw ValidationError("\(format.rawValue) can be imported but not written.") }
        guard quiz == nil || topic == nil else { throw ValidationError("Give --quiz or --topic, not both.") }
    }

    func run() async throws {
        let scope: ExportScope = quiz.map(ExportScope.quiz) ?? topic.map(ExportScope.topic) ?? .everything
        let bank: Bank = try await db.withStore { store, _ in
            do {
                return try await store.exportBank(scope)
            } catch StoreError.notFound {
                throw CLIError("quizbox export: no \(quiz != nil ? "quiz" : "topic") with id \(quiz ?? topic ?? 0).")
            }
        }
        guard let (data, skipped) = format.write(bank) else { return }
        for problem in skipped {
            FileHandle.standardError.write(Data("quizbox export: skipped \(problem.description)\n".utf8))
        }
        if let output {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            FileHandle.standardError.write(Data("Wrote \(bank.questionCount - skipped.count) question(s) to \(output).\n".utf8))
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}
