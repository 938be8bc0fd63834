import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

/// Importing and exporting question banks (`ImportBank`, `ExportBank`): authors and admins only.
struct BankAPI: Sendable {
    let bankImport: ImportBank
    let bankExport: ExportBank

    func importBank(_ input: Operations.ImportBank.Input, by caller: AuthorCaller) async throws -> Operations.ImportBank.Output {
        let body: HTTPBody
        switch input.body {
        case .binary(let file): body = file
        case .applicationVnd_openxmlformatsOfficedocument_spreadsheetml_sheet(let file): body = file
        }
        let data = try await Data(collecting: body, upTo: ImportBank.maxFileBytes)
        let query = input.query
        let options = ImportBank.Options(format: query.format.flatMap { BankFormat(rawValue: $0.rawValue) }, subject: query.subject ?? "",
                                         topic: query.topic ?? "", quizTitle: query.quizTitle ?? "", skipInvalid: query.skipInvalid ?? false)
        let report = try await importing(.file(data, name: query.fileName ?? ""), options, by: caller.user, dryRun: query.dryRun ?? false)
        return .ok(.init(body: .json(report)))
    }

    func importRemoteBank(_ input: Operations.ImportRemoteBank.Input, by caller: AuthorCaller) async throws -> Operations.ImportRemoteBank.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let options = ImportBank.Options(format: body.format.flatMap { BankFormat(rawValue: $0.rawValue) }, subject: body.subject ?? "",
                                         topic: body.topic ?? "", quizTitle: body.quizTitle ?? "", skipInvalid: body.skipInvalid ?? false)
        return .ok(.init(body: .json(try await importing(.address(body.url), options, by: caller.user, dryRun: body.dryRun ?? false))))
    }

    /// A dry run previews; otherwise the bank is stored. Either way the report says what it holds.
    private func importing(_ source: ImportBank.Source, _ options: ImportBank.Options, by user: User,
                           dryRun: Bool) async throws -> Components.Schemas.ImportReport {
        do {
            let report = dryRun ? try await bankImport.preview(source, options, by: user)
                : try await bankImport(source, options, by: user)
            return .init(report, dryRun: dryRun)
        } catch let failure as ImportBank.Failure {
            throw APIError(failure)
        }
    }

    func exportQuiz(_ input: Operations.ExportQuiz.Input, by caller: AuthorCaller) async throws -> Operations.ExportQuiz.Output {
        let exported = try await export(.quiz(input.path.quizId), what: "quiz", format: input.query.format, by: caller)
        // The generated JSON case would encode the bytes as one string: they go out as they are,
        // typed by setDownloadHeaders.
        let file = HTTPBody(exported.data)
        let body: Operations.ExportQuiz.Output.Ok.Body = switch exported.mediaType {
        case .xml: .xml(file)
        case .spreadsheet: .applicationVnd_openxmlformatsOfficedocument_spreadsheetml_sheet(file)
        case .json, .text: .plainText(file)
        }
        return .ok(.init(body: body))
    }

    func exportTopic(_ input: Operations.ExportTopic.Input, by caller: AuthorCaller) async throws -> Operations.ExportTopic.Output {
        let exported = try await export(.topic(input.path.topicId), what: "topic", format: input.query.format, by: caller)
        let file = HTTPBody(exported.data)
        let body: Operations.ExportTopic.Output.Ok.Body = switch exported.mediaType {
        case .xml: .xml(file)
        case .spreadsheet: .applicationVnd_openxmlformatsOfficedocument_spreadsheetml_sheet(file)
        case .json, .text: .plainText(file)
        }
        return .ok(.init(body: body))
    }

    /// The file, with the headers that make it a named download.
    private func export(_ scope: ExportScope, what: String, format wire: Components.Schemas.WritableBankFormat?,
                        by caller: AuthorCaller) async throws -> ExportBank.Exported {
        let format = BankFormat(rawValue: (wire ?? .bundle).rawValue) ?? .bundle
        do {
            let exported = try await bankExport(scope, as: format, by: caller.user)
            ResponseCookies.setHeader(.contentDisposition, exported.contentDisposition)
            ResponseCookies.setHeader(.contentType, exported.contentType)
            return exported
        } catch let failure as ExportBank.Failure {
            throw APIError(failure, what: what)
        }
    }
}

extension ExportBank.Exported {
    /// What a download is served as (the spec lists them), text in a type a browser shows as text.
    enum MediaType: String {
        case json = "application/json", xml = "application/xml", text = "text/plain"
        case spreadsheet = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    }

    var mediaType: MediaType {
        format.isSpreadsheet ? .spreadsheet : fileName.hasSuffix(".json") ? .json : fileName.hasSuffix(".xml") ? .xml : .text
    }

    var contentType: String { mediaType == .spreadsheet ? mediaType.rawValue : "\(mediaType.rawValue); charset=utf-8" }
    var contentDisposition: String { "attachment; filename=\"\(fileName)\"" }
}

extension Components.Schemas.ImportReport {
    init(_ report: ImportBank.Report, dryRun: Bool) {
        self.init(
            dryRun: dryRun, format: .init(rawValue: report.format.rawValue) ?? .bundle, questionCount: report.questionCount,
            kinds: .init(additionalProperties: Dictionary(uniqueKeysWithValues: report.kinds.map { ($0.key.rawValue, $0.value) })),
            warnings: report.warnings.map(Components.Schemas.FormatProblem.init),
            skipped: report.skipped.map(Components.Schemas.FormatProblem.init),
            skippedOmitted: report.skippedOmitted > 0 ? report.skippedOmitted : nil,
            imported: report.imported.map { .init(subjects: $0.subjects, topics: $0.topics, quizzes: $0.quizzes, questions: $0.questions) }
        )
    }
}

extension Components.Schemas.FormatProblem {
    init(_ problem: FormatProblem) {
        self.init(line: problem.line, column: problem.column, path: problem.path, cell: problem.cell?.reference,
                  question: problem.question, message: problem.message, description: problem.description)
    }
}

extension APIError {
    init(_ failure: ImportBank.Failure) {
        switch failure {
        case .notAuthor:
            self = .needsAuthor
        case .emptyFile:
            self.init(.unprocessableContent, "invalid_bank", "The file is empty; nothing was imported.")
        case .tooLarge(_, let limit):
            self.init(.contentTooLarge, "body_too_large", "The request body is larger than \(limit / 1024) KiB.")
        case .keptFileGone:
            self.init(.unprocessableContent, "upload_gone", "That file is no longer kept: send it again.")
        case .notAnAddress:
            self.init(.unprocessableContent, "invalid_url", "That is not an address.", field: "url")
        case .download(let address, .unreachable(let reason)):
            self.init(.badGateway, "remote_unreachable", "Could not reach \(address): \(reason).", field: "url")
        case .download(_, .unusable(let reason)):
            self.init(.unprocessableContent, "invalid_bank", reason + "; nothing was imported.", field: "url")
        case .download(_, .privateAddress(let reason)):
            self.init(.unprocessableContent, "private_address", reason + ".", field: "url")
        case .unreadable(let file):
            if let address = file.address {
                self.init(.unprocessableContent, "invalid_bank",
                          "\(address) is not a \(file.format.rawValue) question bank Quizbox can import; nothing was imported.",
                          field: "url", problems: file.problems)
            } else {
                self.init(.unprocessableContent, "invalid_bank",
                          "The file has \(file.problems.count) problem(s) as \(file.format.rawValue); nothing was imported.",
                          problems: file.problems)
            }
        }
    }

    init(_ failure: ExportBank.Failure, what: String) {
        switch failure {
        case .notAuthor: self = .needsAuthor
        case .notFound: self = .notFound(what)
        case .notWritable(let format):
            self.init(.unprocessableContent, "not_writable", "\(format.rawValue) can be imported but not written.", field: "format")
        }
    }
}
