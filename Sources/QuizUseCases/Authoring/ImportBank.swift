import CoreMetrics
import Foundation
import QuizCore
import QuizFormats
import QuizStore

/// Fetches the file at an address for an import. The server's implementation keeps every
/// protection (time and size limits, each redirect's address checked, no private networks).
package protocol BankDownloader: Sendable {
    func downloadBank(_ url: URL) async throws(ImportBank.DownloadFailure) -> Data
    /// A picture a bank names by address, with the same checks and a picture's size limit.
    func downloadPicture(_ url: URL) async throws(ImportBank.DownloadFailure) -> Data
}

/// Importing a question bank from a file, a paste or an address: a preview says what it holds
/// and stores nothing; the import stores all of it in one transaction, or with `skipInvalid`
/// the valid questions while listing the others.
///
/// The import page cannot send a chosen file twice, so an `upload` is kept (in the database, for
/// every instance; for its author only, `keptFor`, one import) and the import names it by token.
package struct ImportBank: Sendable {
    package enum Source: Sendable, Equatable {
        /// A file sent whole (the API); its name, possibly empty, names the quiz and hints the format.
        case file(Data, name: String)
        /// A file chosen on the import page: checked, then kept for the import after its preview.
        case upload(Data, name: String)
        case pasted(String)
        /// An http(s) address, as typed.
        case address(String)
        /// A file kept at its preview.
        case kept(token: String)
    }

    package struct Options: Sendable, Equatable {
        /// nil: recognised from the file's name and first bytes.
        package var format: BankFormat?
        /// For questions without a category of their own; empty means "Imported".
        package var subject: String
        package var topic: String
        /// Empty: named after the file, or "Imported questions".
        package var quizTitle: String
        package var skipInvalid: Bool

        package init(format: BankFormat? = nil, subject: String = "", topic: String = "", quizTitle: String = "", skipInvalid: Bool = false) {
            self.format = format
            self.subject = subject
            self.topic = topic
            self.quizTitle = quizTitle
            self.skipInvalid = skipInvalid
        }
    }

    package enum DownloadFailure: Error, Equatable {
        /// The server could not be reached, or took too long.
        case unreachable(String)
        /// It answered, but not with a file to import (not 200, too large, redirects in a loop, not http).
        case unusable(String)
        /// The address is on this machine or a private network.
        case privateAddress(String)
    }

    package struct KeptFile: Sendable, Equatable {
        package var token: String
        package var name: String
    }

    /// A file that is not a bank in `format`; nothing was stored. With `skipInvalid`, its problems
    /// concern the whole file or left no valid question.
    package struct Unreadable: Sendable, Equatable {
        package var format: BankFormat
        package var problems: [FormatProblem]
        package var omitted: Int
        /// Where it was loaded from, for a file from an address.
        package var address: String?
        /// The upload stays kept: the author may try other options without choosing it again.
        package var kept: KeptFile?
        /// How many questions skipping the invalid ones would import: 0 when the problems are the
        /// whole file's (or skipping was asked for already), so skipping is no advice to give.
        package var importableBySkipping = 0
    }

    package enum Failure: Error, Equatable {
        case notAuthor
        case emptyFile(name: String)
        case tooLarge(name: String, limit: Int)
        /// The kept file expired, was imported already, or is someone else's.
        case keptFileGone
        case notAnAddress
        case download(address: String, DownloadFailure)
        case unreadable(Unreadable)
    }

    /// What the bank holds; `imported` says what was stored (nil for a preview).
    package struct Report: Sendable {
        package var format: BankFormat
        package var bank: Bank
        /// Questions left out because Quizbox has no such kind (an essay), each where it was.
        package var warnings: [FormatProblem]
        package var skipped: [FormatProblem]
        package var skippedOmitted: Int
        package var imported: ImportSummary?
        package var kept: KeptFile?

        package var questionCount: Int { bank.questionCount }

        package var kinds: [QuestionKind: Int] {
            var kinds: [QuestionKind: Int] = [:]
            for topic in bank.subjects.flatMap(\.topics) {
                for question in topic.questions + topic.quizzes.flatMap(\.questions) { kinds[question.kind, default: 0] += 1 }
            }
            return kinds
        }
    }

    package static var maxFileBytes: Int { 20 << 20 }
    package static var keptFor: TimeInterval { 30 * 60 }

    package typealias Storage = CatalogStore & UploadStore
    let store: any Storage
    let downloader: any BankDownloader
    let time: any TimeSource
    let metrics: ActivityMetrics
    let pictures: BankPictures

    package init(store: any Storage, downloader: any BankDownloader, time: any TimeSource, images: ImageFiles,
                 metrics: ActivityMetrics = .off) {
        self.store = store
        self.downloader = downloader
        self.time = time
        self.metrics = metrics
        pictures = BankPictures(images: images)
    }

    /// Reads the source and stores nothing; an `upload` is kept for the import (`Report.kept`).
    package func preview(_ source: Source, _ options: Options, by user: User) async throws -> Report {
        try await read(source, options, by: user, keeping: true)
    }

    /// Reads and stores the bank in one transaction; a kept file is then let go, so resending
    /// the form cannot import it twice.
    package func callAsFunction(_ source: Source, _ options: Options, by user: User) async throws -> Report {
        var report: Report
        do {
            report = try await read(source, options, by: user, keeping: false)
            try pictures.store(report.bank)
            report.imported = try await store.importBank(report.bank, at: time.now())
        } catch {
            metrics.importsFailed.increment()
            throw error
        }
        metrics.importsSucceeded.increment()
        if let kept = report.kept { try await store.removeUpload(tokenHash: SessionTokens.hash(kept.token)) }
        return report
    }

    private struct Fetched {
        var data: Data
        var name: String
        var title: String
        var address: String?
        var kept: KeptFile?
    }

    private func read(_ source: Source, _ options: Options, by user: User, keeping: Bool) async throws -> Report {
        guard user.role.canAuthor else { throw Failure.notAuthor }
        let file = try await fetch(source, by: user, keeping: keeping)
        let format = options.format ?? BankFormat.detect(fileName: file.name, data: file.data)
        let title = String((options.quizTitle.isEmpty ? file.title : options.quizTitle).prefix(CatalogText.maxNameLength))
        let defaults = ImportDefaults(subject: options.subject.isEmpty ? "Imported" : options.subject,
                                      topic: options.topic.isEmpty ? "Imported" : options.topic,
                                      quizTitle: title.isEmpty ? "Imported questions" : title,
                                      maxBytes: Self.maxFileBytes, skipInvalid: options.skipInvalid)
        var result: ReadResult
        do {
            result = try format.read(file.data, defaults: defaults)
        } catch {
            var skipping = defaults
            skipping.skipInvalid = true
            // Read once more, skipping: a file whose questions are wrong may still hold good ones.
            let importable = options.skipInvalid ? 0 : ((try? format.read(file.data, defaults: skipping))?.bank.questionCount ?? 0)
            throw Failure.unreadable(Unreadable(format: format, problems: error.problems, omitted: error.omittedCount,
                                                address: file.address, kept: file.kept, importableBySkipping: importable))
        }
        do {
            let pictures = try await PictureDownloads(downloader: downloader)(result.bank, skipInvalid: options.skipInvalid)
            result.bank = pictures.bank
            result.skipped += pictures.skipped
        } catch {
            // One problem per question whose picture failed; a problem of no question is the whole file's.
            let failed = error.problems.allSatisfy { $0.question != nil } ? error.problems.count + error.omittedCount : result.bank.questionCount
            throw Failure.unreadable(Unreadable(format: format, problems: error.problems, omitted: error.omittedCount,
                                                address: file.address, kept: file.kept,
                                                importableBySkipping: options.skipInvalid ? 0 : result.bank.questionCount - failed))
        }
        return Report(format: format, bank: Self.distinguishingQuizTitles(BankPictures.hashed(result.bank)), warnings: result.warnings,
                      skipped: result.skipped, skippedOmitted: result.skippedOmittedCount, kept: file.kept)
    }

    /// A file's topics each become a quiz with the one title the form (or the file's name) gave:
    /// two quizzes of the same name that nothing tells apart. Each such quiz gets its topic's name
    /// after the title.
    static func distinguishingQuizTitles(_ bank: Bank) -> Bank {
        var uses: [String: Int] = [:]
        for topic in bank.subjects.flatMap(\.topics) { for quiz in topic.quizzes { uses[quiz.title, default: 0] += 1 } }
        guard uses.values.contains(where: { $0 > 1 }) else { return bank }
        var bank = bank
        for s in bank.subjects.indices {
            for t in bank.subjects[s].topics.indices {
                let topic = bank.subjects[s].topics[t].name
                for q in bank.subjects[s].topics[t].quizzes.indices where uses[bank.subjects[s].topics[t].quizzes[q].title, default: 0] > 1 {
                    let title = bank.subjects[s].topics[t].quizzes[q].title
                    bank.subjects[s].topics[t].quizzes[q].title = String("\(title) (\(topic))".prefix(CatalogText.maxNameLength))
                }
            }
        }
        return bank
    }

    private func fetch(_ source: Source, by user: User, keeping: Bool) async throws -> Fetched {
        switch source {
        case .file(let data, let name):
            return Fetched(data: data, name: name, title: Self.baseName(name))
        case .pasted(let text):
            return Fetched(data: Data(text.utf8), name: "", title: "")
        case .upload(let data, let name):
            guard !data.isEmpty else { throw Failure.emptyFile(name: name) }
            guard data.count <= Self.maxFileBytes else { throw Failure.tooLarge(name: name, limit: Self.maxFileBytes) }
            var kept: KeptFile?
            if keeping {
                let token = SessionTokens.make()
                try await store.keepUpload(tokenHash: SessionTokens.hash(token), userId: user.id, fileName: name, data: data,
                                           at: time.now(), keptFor: Self.keptFor)
                kept = KeptFile(token: token, name: name)
            }
            return Fetched(data: data, name: name, title: Self.baseName(name), kept: kept)
        case .kept(let token):
            guard !token.isEmpty, token.utf8.count <= 64,
                  let upload = try await store.keptUpload(tokenHash: SessionTokens.hash(token), userId: user.id,
                                                          at: time.now(), keptFor: Self.keptFor)
            else { throw Failure.keptFileGone }
            return Fetched(data: upload.data, name: upload.fileName, title: Self.baseName(upload.fileName),
                           kept: KeptFile(token: token, name: upload.fileName))
        case .address(let text):
            guard let url = URL(string: text) else { throw Failure.notAnAddress }
            let data: Data
            do {
                data = try await downloader.downloadBank(url)
            } catch {
                throw Failure.download(address: url.absoluteString, error)
            }
            return Fetched(data: data, name: url.lastPathComponent, title: url.deletingPathExtension().lastPathComponent,
                           address: url.absoluteString)
        }
    }

    /// "rome.gift" → "rome": what a quiz from the file is called unless the author says otherwise.
    private static func baseName(_ name: String) -> String {
        (name as NSString).deletingPathExtension
    }
}
