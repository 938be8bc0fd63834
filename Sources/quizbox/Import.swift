import ArgumentParser
import Foundation
import Logging
import QuizCore
import QuizFormats
import QuizServer
import QuizStore
import QuizText
import QuizUseCases

extension BankFormat: ExpressibleByArgument {}
extension CSVReader.AnswerColumn: ExpressibleByArgument {}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: t("Import a question bank: CSV, GIFT, Moodle XML, Aiken, Open Trivia DB JSON, a remote question payload, or a Quizbox bundle. All or nothing unless --skip-invalid."),
        discussion: t("The format is recognised from the file's extension and content unless --format says it.")
    )

    @Argument(help: ArgumentHelp(t("The file to import, or an http(s) address to load it from.")))
    var file: String

    @Option(help: ArgumentHelp(t("csv, gift, moodle-xml, aiken, xlsx, kahoot, opentdb, remote or bundle (default: detected).")))
    var format: BankFormat?

    @Option(help: ArgumentHelp(t("Subject for questions without a category of their own.")))
    var subject: String = "Imported"

    @Option(help: ArgumentHelp(t("Topic for questions without a category of their own.")))
    var topic: String = "Imported"

    @Option(help: ArgumentHelp(t("Title of the quiz each topic's questions become (default: the file's name).")))
    var quizTitle: String?

    @Option(help: ArgumentHelp(t("CSV: the answer column holds the option's text, its index (1-4) or its letter (A-D).")))
    var answerColumn: CSVReader.AnswerColumn = .text

    @Flag(help: ArgumentHelp(t("Check the file and show what would be imported, without storing anything.")))
    var dryRun = false

    @Flag(help: ArgumentHelp(t("Import the valid questions and list the others, instead of importing nothing when one is wrong.")))
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
        guard let size else { throw CLIError("quizbox import: " + t("cannot read {file}: no such file.", ["file": file])) }
        guard size <= Self.maxCSVBytes else { throw CLIError("quizbox import: " + t("{file} is larger than 1 GiB.", ["file": file])) }
        // Mapped, not copied: the pages are read as the parser reaches them.
        let data = try Data(contentsOf: url, options: .alwaysMapped)
        let format = format ?? BankFormat.detect(fileName: file, data: data)
        guard format == .csv || size <= Self.maxBytes else {
            throw CLIError("quizbox import: " + t("{file} is larger than 20 MiB (only CSV files may be larger, up to 1 GiB).", ["file": file]))
        }
        let defaults = ImportDefaults(subject: subject, topic: topic,
                                      quizTitle: quizTitle ?? url.deletingPathExtension().lastPathComponent, maxBytes: Self.maxBytes,
                                      csvAnswerColumn: answerColumn, skipInvalid: skipInvalid)
        // A CSV naming pictures is read whole: its pictures are downloaded before anything is stored.
        if format == .csv && !CSVReader.namesPictures(data) { return try await importCSV(data, defaults: defaults) }
        guard size <= Self.maxBytes else {
            throw CLIError("quizbox import: " + t("{file} names pictures in an image column and is larger than 20 MiB: split it, or leave the pictures out.", ["file": file]))
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
        let lines = error.problems.map { "\(source):" + $0.description(t) }
            + (error.omittedCount > 0 ? ["\(source): " + Self.more(error.omittedCount)] : [])
        let summary = t("nothing was imported ({problems}, read as {format}).",
                        ["problems": Self.problems(error.problems.count + error.omittedCount), "format": format.rawValue])
        return CLIError((lines + ["quizbox import: " + summary]).joined(separator: "\n"))
    }

    /// With --skip-invalid: what was left out, where, and why.
    func printSkipped(_ problems: [FormatProblem], omitted: Int, source: String) {
        guard !problems.isEmpty else { return }
        for problem in problems { print("\(source):" + t("{problem} (skipped)", ["problem": problem.description(t)])) }
        if omitted > 0 { print("\(source): " + t("{problem} (skipped)", ["problem": Self.more(omitted)])) }
        print(t("Skipped the questions with these {problems}; the others are imported.", ["problems": Self.problems(problems.count + omitted)]))
    }

    /// "3 problem(s)".
    static func problems(_ count: Int) -> String {
        t.count(count, "{n} problem(s)", "{n} problem(s)", ["n": plain(count)])
    }

    /// "…and 12 more problems": those beyond the ones listed.
    static func more(_ count: Int) -> String {
        t.count(count, "…and {n} more problems", "…and {n} more problems", ["n": plain(count)])
    }

    /// "12 question(s)".
    static func questions(_ count: Int) -> String {
        t.count(count, "{n} question(s)", "{n} question(s)", ["n": plain(count)])
    }

    /// "A (csv): 3 question(s) would be imported: 3 singleChoice. Dry run: nothing stored."
    static func dryRun(source: String, format: BankFormat, questions count: Int, kinds: String) -> String {
        t("{source} ({format}): {questions} would be imported: {kinds}. Dry run: nothing stored.",
          ["source": source, "format": format.rawValue, "questions": questions(count), "kinds": kinds])
    }

    /// "Imported 3 question(s) (3 singleChoice) into 1 quiz(zes) from A (csv) into B."
    static func imported(questions count: Int, kinds: String, quizzes: Int, source: String, format: BankFormat, into database: String) -> String {
        t("Imported {questions} ({kinds}) into {quizzes} from {source} ({format}) into {database}.", [
            "questions": questions(count), "kinds": kinds, "quizzes": t.count(quizzes, "{n} quiz(zes)", "{n} quiz(zes)", ["n": plain(quizzes)]),
            "source": source, "format": format.rawValue, "database": database,
        ])
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
                print(Self.dryRun(source: file, format: .csv, questions: count, kinds: Self.kindCount(.singleChoice, count)))
                return
            }
            try await db.withStore { store, config in
                let summary = try await store.importBatches(quizTitle: defaults.quizTitle, at: Date()) {
                    try reader.next(limit: Self.batchSize)
                }
                printSkipped(reader.skippedProblems, omitted: reader.skippedOmittedCount, source: file)
                print(Self.imported(questions: summary.questions, kinds: Self.kindCount(.singleChoice, summary.questions), quizzes: summary.quizzes,
                                   source: file, format: .csv, into: config.database))
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
            throw CLIError("quizbox import: \(Self.describe(error))\nquizbox import: " + t("nothing was imported."))
        }
        try await store(loaded.result, source: url.absoluteString, format: loaded.format)
    }

    static func describe(_ error: RemoteBankLoader.Error) -> String {
        switch error {
        case .connectivity(let reason): t("could not reach the server: {reason}", ["reason": t(reason)])
        case .privateAddress(let reason): t(reason)
        case .invalidData(let reason, let problems): ([t(reason)] + problems.map { $0.description(t) }).joined(separator: "\n")
        }
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
        for warning in result.warnings { print("\(source):" + t("{problem} (not imported)", ["problem": warning.description(t)])) }
        printSkipped(result.skipped, omitted: result.skippedOmittedCount, source: source)
        let counts = Self.counts(result.bank)
        if dryRun {
            print(Self.dryRun(source: source, format: format, questions: result.bank.questionCount, kinds: counts))
            return
        }
        try await db.withStore { store, config in
            // Pictures go where the server looks for them: the configured data directory.
            let bank = BankPictures.hashed(result.bank)
            try BankPictures(images: ImageFiles(dataDirectory: config.dataDirectory)).store(bank)
            let summary = try await store.importBank(bank, at: Date())
            print(Self.imported(questions: summary.questions, kinds: counts, quizzes: summary.quizzes, source: source, format: format,
                                into: config.databaseDescription))
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
        return QuestionKind.allCases.compactMap { kind in counts[kind].map { kindCount(kind, $0) } }.joined(separator: ", ")
    }

    /// "12 singleChoice" in English (the kinds' names in files), the kind in words otherwise.
    static func kindCount(_ kind: QuestionKind, _ count: Int) -> String {
        let n = ["n": plain(count)]
        return switch kind {
        case .singleChoice: t.count(count, "{n} singleChoice", "{n} singleChoice", n)
        case .multipleChoice: t.count(count, "{n} multipleChoice", "{n} multipleChoice", n)
        case .trueFalse: t.count(count, "{n} trueFalse", "{n} trueFalse", n)
        case .typedAnswer: t.count(count, "{n} typedAnswer", "{n} typedAnswer", n)
        case .numeric: t.count(count, "{n} numeric", "{n} numeric", n)
        case .nameAll: t.count(count, "{n} nameAll", "{n} nameAll", n)
        case .ordering: t.count(count, "{n} ordering", "{n} ordering", n)
        case .matching: t.count(count, "{n} matching", "{n} matching", n)
        case .gapFill: t.count(count, "{n} gapFill", "{n} gapFill", n)
        case .poll: t.count(count, "{n} poll", "{n} poll", n)
        case .wordCloud: t.count(count, "{n} wordCloud", "{n} wordCloud", n)
        case .estimate: t.count(count, "{n} estimate", "{n} estimate", n)
        case .slide: t.count(count, "{n} slide", "{n} slide", n)
        }
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: t("Export questions as CSV, GIFT, Moodle XML, Aiken, an Excel sheet, Kahoot's quiz template or a Quizbox bundle: one quiz, one topic, or everything.")
    )

    @Option(help: ArgumentHelp(t("csv, gift, moodle-xml, aiken, xlsx, kahoot or bundle.")))
    var format: BankFormat = .bundle

    @Option(help: ArgumentHelp(t("Export only this quiz (its id).")))
    var quiz: Int64?

    @Option(help: ArgumentHelp(t("Export only this topic (its id).")))
    var topic: Int64?

    @Option(name: .shortAndLong, help: ArgumentHelp(t("Write to this file instead of standard output.")))
    var output: String?

    @OptionGroup var db: DatabaseOptions

    func validate() throws {
        guard format.canWrite else { throw ValidationError(t("{format} can be imported but not written.", ["format": format.rawValue])) }
        guard quiz == nil || topic == nil else { throw ValidationError(t("Give --quiz or --topic, not both.")) }
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
                let id = String(quiz ?? topic ?? 0)
                throw CLIError("quizbox export: " + (quiz != nil ? t("no quiz with id {id}.", ["id": id]) : t("no topic with id {id}.", ["id": id])))
            }
        }
        guard let (data, written) = format.write(bank) else { return }
        let skipped = written + lost
        for problem in skipped {
            FileHandle.standardError.write(Data(("quizbox export: " + t("skipped {problem}", ["problem": problem.description(t)]) + "\n").utf8))
        }
        if let output {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            let wrote = t("Wrote {summary} to {file}.", ["summary": Import.questions(bank.questionCount - skipped.count), "file": output])
            FileHandle.standardError.write(Data((wrote + "\n").utf8))
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}
