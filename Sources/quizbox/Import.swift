import ArgumentParser
import Foundation
import Logging
import QuizCore
import QuizFormats
import QuizServer
import QuizStore
import QuizUseCases

extension BankFormat: ExpressibleByArgument {}
extension CSVReader.AnswerColumn: ExpressibleByArgument {}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a question bank: CSV, GIFT, Moodle XML, Aiken, Open Trivia DB JSON, a remote question payload, or a Quizbox bundle. All or nothing unless --skip-invalid.",
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

    @Flag(help: "Import the valid questions and list the others, instead of importing nothing when one is wrong.")
    var skipInvalid = false

    @OptionGroup var db: DatabaseOptions

    static let maxBytes = 20 << 20
    /// A local CSV file is stored while it is read (`importCSV`), so it may be far larger.
    static let maxCSVBytes = 1 << 30

    func run() async throws {
        if let remote = URL(string: file), ["http", "https"].contains(remote.scheme?.lowercased() ?? "") {
            return try await importRemote(remote)
        }
        let url = URL(fileURLWithPath: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        guard let size else { throw CLIError("quizbox import: cannot read \(file): no such file.") }
        guard size <= Self.maxCSVBytes else { throw CLIError("quizbox import: \(file) is larger than 1 GiB.") }
        // Mapped, not copied: the pages are read as the parser reaches them.
        let data = try Data(contentsOf: url, options: .alwaysMapped)
        let format = format ?? BankFormat.detect(fileName: file, data: data)
        guard format == .csv || size <= Self.maxBytes else {
            throw CLIError("quizbox import: \(file) is larger than 20 MiB (only CSV files may be larger, up to 1 GiB).")
        }
        let defaults = ImportDefaults(subject: subject, topic: topic,
                                      quizTitle: quizTitle ?? url.deletingPathExtension().lastPathComponent, maxBytes: Self.maxBytes,
                                      csvAnswerColumn: answerColumn, skipInvalid: skipInvalid)
        // A CSV naming pictures is read whole: its pictures are downloaded before anything is stored.
        if format == .csv && !CSVReader.namesPictures(data) { return try await importCSV(data, defaults: defaults) }
        guard size <= Self.maxBytes else {
            throw CLIError("quizbox import: \(file) names pictures in an image column and is larger than 20 MiB: split it, or leave the pictures out.")
        }
        let result: ReadResult
        do {
            result = try format.read(data, defaults: defaults)
        } catch {
            throw failure(error, source: file, format: format)
        }
        try await store(result, source: file, format: format)
    }

    /// Every problem as `FILE:line N, column C: message`, then that nothing was stored.
    func failure(_ error: ImportError, source: String, format: BankFormat) -> CLIError {
        let lines = error.problems.map { "\(source):\($0.description)" }
            + (error.omittedCount > 0 ? ["\(source): …and \(error.omittedCount) more problems"] : [])
        return CLIError((lines + ["quizbox import: nothing was imported (\(error.problems.count + error.omittedCount) problem(s), read as \(format.rawValue))."])
            .joined(separator: "\n"))
    }

    /// With --skip-invalid: what was left out, where, and why.
    func printSkipped(_ problems: [FormatProblem], omitted: Int, source: String) {
        guard !problems.isEmpty else { return }
        for problem in problems { print("\(source):\(problem.description) (skipped)") }
        if omitted > 0 { print("\(source): …and \(omitted) more problems (skipped)") }
        print("Skipped the questions with these \(problems.count + omitted) problem(s); the others are imported.")
    }

    static let batchSize = 5_000

    /// A CSV file is read and stored a batch at a time inside one transaction, so memory stays
    /// flat however large it is; a problem anywhere still rolls back everything (unless skipping).
    func importCSV(_ data: Data, defaults: ImportDefaults) async throws {
        let options = CSVReader.Options(defaultSubject: defaults.subject, defaultTopic: defaults.topic, quizTitle: defaults.quizTitle,
                                        maxBytes: Self.maxCSVBytes, answerColumn: answerColumn, skipInvalid: skipInvalid)
        var reader = CSVBatchReader(data: data, options: options)
        do {
            if dryRun {
                var count = 0
                while let batch = try reader.next(limit: Self.batchSize) { count += batch.count }
                printSkipped(reader.skippedProblems, omitted: reader.skippedOmittedCount, source: file)
                print("\(file) (csv): \(count) question(s) would be imported: \(count) singleChoice. Dry run: nothing stored.")
                return
            }
            try await db.withStore { store, config in
                let summary = try await store.importBatches(quizTitle: defaults.quizTitle, at: Date()) {
                    try reader.next(limit: Self.batchSize)
                }
                printSkipped(reader.skippedProblems, omitted: reader.skippedOmittedCount, source: file)
                print("Imported \(summary.questions) question(s) (\(summary.questions) singleChoice) into \(summary.quizzes) quiz(zes) from \(file) (csv) into \(config.database).")
            }
        } catch let error as ImportError {
            throw failure(error, source: file, format: .csv)
        }
    }

    /// Downloads with the loader's limits (connect 5 s, total 30 s, 20 MiB, 5 redirects).
    func importRemote(_ url: URL) async throws {
        let defaults = ImportDefaults(subject: subject, topic: topic,
                                      quizTitle: quizTitle ?? url.deletingPathExtension().lastPathComponent, maxBytes: Self.maxBytes,
                                      csvAnswerColumn: answerColumn, skipInvalid: skipInvalid)
        let loaded: RemoteBankLoader.Loaded
        do {
            // The operator can reach their own network anyway: no SSRF to guard against here.
            var limits = RemoteBankLoader.Limits()
            limits.allowPrivateAddresses = true
            loaded = try await RemoteBankLoader(limits: limits).load(url, format: format, defaults: defaults)
        } catch {
            throw CLIError("quizbox import: \(error.description)\nquizbox import: nothing was imported.")
        }
        try await store(loaded.result, source: url.absoluteString, format: loaded.format)
    }

    func store(_ result: ReadResult, source: String, format: BankFormat) async throws {
        var result = result
        do {
            // The operator can reach their own network anyway: no SSRF to guard against here.
            var limits = RemoteBankLoader.Limits()
            limits.allowPrivateAddresses = true
            let pictures = try await PictureDownloads(downloader: RemoteBankLoader(limits: limits))(result.bank, skipInvalid: skipInvalid)
            result.bank = pictures.bank
            result.skipped += pictures.skipped
        } catch {
            throw failure(error, source: source, format: format)
        }
        for warning in result.warnings { print("\(source):\(warning.description) (not imported)") }
        printSkipped(result.skipped, omitted: result.skippedOmittedCount, source: source)
        let counts = Self.counts(result.bank)
        if dryRun {
            print("\(source) (\(format.rawValue)): \(result.bank.questionCount) question(s) would be imported: \(counts). Dry run: nothing stored.")
            return
        }
        try await db.withStore { store, config in
            // Pictures go where the server looks for them: the configured data directory.
            let bank = BankPictures.hashed(result.bank)
            try BankPictures(images: ImageFiles(dataDirectory: config.dataDirectory)).store(bank)
            let summary = try await store.importBank(bank, at: Date())
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
        var lost: [FormatProblem] = []
        let bank: Bank = try await db.withStore { store, config in
            do {
                let bank = try await store.exportBank(scope)
                guard format.holdsPictures else { return bank }
                let attached = BankPictures(images: ImageFiles(dataDirectory: config.dataDirectory)).attached(bank)
                lost = attached.lost
                return attached.bank
            } catch StoreError.notFound {
                throw CLIError("quizbox export: no \(quiz != nil ? "quiz" : "topic") with id \(quiz ?? topic ?? 0).")
            }
        }
        guard let (data, written) = format.write(bank) else { return }
        let skipped = written + lost
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
