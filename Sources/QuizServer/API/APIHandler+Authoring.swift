import Foundation
import HTTPTypes
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

extension APIHandler {
    /// Authors and admins only; a player is told what it needs.
    func requireAuthor() async throws -> User {
        let user = try await requireUser()
        guard user.role == .author || user.role == .admin else {
            throw APIError(.forbidden, "forbidden", "This needs an author or admin account.")
        }
        return user
    }

    func importBank(_ input: Operations.ImportBank.Input) async throws -> Operations.ImportBank.Output {
        _ = try await requireAuthor()
        guard case .binary(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send the file as application/octet-stream.") }
        let data = try await Data(collecting: body, upTo: BodyLimitMiddleware<AppRequestContext>.importMaxBytes)
        let query = input.query
        let fileName = query.fileName ?? ""
        let format = query.format.flatMap { BankFormat(rawValue: $0.rawValue) } ?? BankFormat.detect(fileName: fileName, data: data)
        let title = fileName.isEmpty ? "Imported questions" : (fileName as NSString).deletingPathExtension
        let defaults = ImportDefaults(subject: query.subject ?? "Imported", topic: query.topic ?? "Imported",
                                      quizTitle: query.quizTitle ?? title, maxBytes: BodyLimitMiddleware<AppRequestContext>.importMaxBytes,
                                      skipInvalid: query.skipInvalid ?? false)
        let result: ReadResult
        do {
            result = try format.read(data, defaults: defaults)
        } catch {
            throw APIError(.unprocessableContent, "invalid_bank",
                           "The file has \(error.problems.count) problem(s) as \(format.rawValue); nothing was imported.", problems: error.problems)
        }
        return .ok(.init(body: .json(try await report(result, format: format, dryRun: query.dryRun ?? false))))
    }

    func importRemoteBank(_ input: Operations.ImportRemoteBank.Input) async throws -> Operations.ImportRemoteBank.Output {
        _ = try await requireAuthor()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard let url = URL(string: body.url) else { throw APIError(.unprocessableContent, "invalid_url", "That is not an address.", field: "url") }
        let defaults = ImportDefaults(subject: body.subject ?? "Imported", topic: body.topic ?? "Imported",
                                      quizTitle: body.quizTitle ?? (url.deletingPathExtension().lastPathComponent.isEmpty
                                          ? "Imported questions" : url.deletingPathExtension().lastPathComponent),
                                      skipInvalid: body.skipInvalid ?? false)
        do {
            let loaded = try await RemoteBankLoader(limits: config.remoteImportLimits).load(url, format: body.format.flatMap { BankFormat(rawValue: $0.rawValue) }, defaults: defaults)
            return .ok(.init(body: .json(try await report(loaded.result, format: loaded.format, dryRun: body.dryRun ?? false))))
        } catch let error as RemoteBankLoader.Error {
            switch error {
            case .connectivity(let reason):
                throw APIError(.badGateway, "remote_unreachable", "Could not reach \(url.absoluteString): \(reason).", field: "url")
            case .invalidData(let reason, let problems):
                throw APIError(.unprocessableContent, "invalid_bank", reason + "; nothing was imported.", field: "url", problems: problems)
            case .privateAddress(let reason):
                throw APIError(.unprocessableContent, "private_address", reason + ".", field: "url")
            }
        }
    }

    /// Stores the bank unless it is a dry run, and says what it holds either way.
    func report(_ result: ReadResult, format: BankFormat, dryRun: Bool) async throws -> Components.Schemas.ImportReport {
        var kinds: [String: Int] = [:]
        for subject in result.bank.subjects {
            for topic in subject.topics {
                for question in topic.questions + topic.quizzes.flatMap(\.questions) { kinds[question.kind.rawValue, default: 0] += 1 }
            }
        }
        var imported: Components.Schemas.ImportReport.ImportedPayload?
        if !dryRun {
            let summary = try await store.importBank(result.bank, at: time.now())
            imported = .init(subjects: summary.subjects, topics: summary.topics, quizzes: summary.quizzes, questions: summary.questions)
        }
        return .init(
            dryRun: dryRun, format: .init(rawValue: format.rawValue) ?? .bundle, questionCount: result.bank.questionCount,
            kinds: .init(additionalProperties: kinds), warnings: result.warnings.map(Components.Schemas.FormatProblem.init),
            skipped: result.skipped.map(Components.Schemas.FormatProblem.init),
            skippedOmitted: result.skippedOmittedCount > 0 ? result.skippedOmittedCount : nil, imported: imported
        )
    }

    func exportQuiz(_ input: Operations.ExportQuiz.Input) async throws -> Operations.ExportQuiz.Output {
        let (data, name) = try await export(.quiz(input.path.quizId), what: "quiz", format: input.query.format)
        // The generated JSON case would encode the bytes as one string: they go out as they are,
        // typed by setDownloadHeaders.
        let body: Operations.ExportQuiz.Output.Ok.Body = DownloadType(name) == .xml ? .xml(HTTPBody(data)) : .plainText(HTTPBody(data))
        return .ok(.init(body: body), name: name)
    }

    func exportTopic(_ input: Operations.ExportTopic.Input) async throws -> Operations.ExportTopic.Output {
        let (data, name) = try await export(.topic(input.path.topicId), what: "topic", format: input.query.format)
        // The generated JSON case would encode the bytes as one string: they go out as they are,
        // typed by setDownloadHeaders.
        let body: Operations.ExportTopic.Output.Ok.Body = DownloadType(name) == .xml ? .xml(HTTPBody(data)) : .plainText(HTTPBody(data))
        return .ok(.init(body: body), name: name)
    }

    private func export(_ scope: ExportScope, what: String, format wire: Components.Schemas.WritableBankFormat?) async throws -> (Data, String) {
        _ = try await requireAuthor()
        let format = BankFormat(rawValue: (wire ?? .bundle).rawValue) ?? .bundle
        let bank: Bank
        do {
            bank = try await store.exportBank(scope)
        } catch StoreError.notFound {
            throw APIError.notFound(what)
        }
        guard let (data, _) = format.write(bank) else {
            throw APIError(.unprocessableContent, "not_writable", "\(format.rawValue) can be imported but not written.", field: "format")
        }
        let id: Int64 = switch scope {
        case .quiz(let id), .topic(let id): id
        case .everything: 0
        }
        return (data, "\(what)-\(id).\(format.fileExtension)")
    }
}

private extension Operations.ExportQuiz.Output {
    static func ok(_ ok: Ok, name: String) -> Self { setDownloadHeaders(name); return .ok(ok) }
}

private extension Operations.ExportTopic.Output {
    static func ok(_ ok: Ok, name: String) -> Self { setDownloadHeaders(name); return .ok(ok) }
}

/// A download, named, in a type a browser shows as text.
/// What a downloaded file is served as, from its extension (the spec lists the three).
private enum DownloadType: String {
    case json = "application/json", xml = "application/xml", text = "text/plain"

    init(_ name: String) {
        self = name.hasSuffix(".json") ? .json : name.hasSuffix(".xml") ? .xml : .text
    }
}

private func setDownloadHeaders(_ name: String) {
    ResponseCookies.setHeader(.contentDisposition, "attachment; filename=\"\(name)\"")
    ResponseCookies.setHeader(.contentType, "\(DownloadType(name).rawValue); charset=utf-8")
}

extension Components.Schemas.FormatProblem {
    init(_ problem: FormatProblem) {
        self.init(line: problem.line, column: problem.column, path: problem.path, question: problem.question,
                  message: problem.message, description: problem.description)
    }
}
