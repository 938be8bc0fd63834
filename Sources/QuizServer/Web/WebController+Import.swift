import Foundation
import Hummingbird
import NIOCore
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

extension WebController {
    /// Preview first (what the file holds, what is skipped or left out); "Import" stores it. A file
    /// comes from an upload (kept by `ImportUploads` between preview and import), an address or a paste.
    func importBank(_ visit: Visit, _ form: WebForm) async throws -> Response {
        let user = try requireUser(visit, returnTo: "/manage")
        guard user.role == .author || user.role == .admin else { return try await manage(visit, feedback: nil) }
        var values = ["subject": form.text("subject"), "topic": form.text("topic"), "quiz_title": form.text("quiz_title"),
                      "csv": form["csv"] ?? "", "url": form.text("url"), "format": form.text("format"),
                      "skip_invalid": form["skip_invalid"] == "1" ? "1" : ""]
        let format = BankFormat(rawValue: values["format"]!)
        if format == nil { values["format"] = "" }
        let skipInvalid = values["skip_invalid"] == "1"
        func fail(_ text: String, _ problems: [String] = []) async throws -> Response {
            try await manage(visit, feedback: .init(text: text, ok: false, problems: problems), values: values)
        }
        func defaults(fileName: String) -> ImportDefaults {
            // Named after the file, within the title field's 200 characters.
            let base = String((fileName as NSString).deletingPathExtension.prefix(200))
            let title = values["quiz_title"]!.isEmpty ? (base.isEmpty ? "Imported questions" : base) : values["quiz_title"]!
            return ImportDefaults(subject: values["subject"]!.isEmpty ? "Imported" : values["subject"]!,
                                  topic: values["topic"]!.isEmpty ? "Imported" : values["topic"]!, quizTitle: title,
                                  maxBytes: BodyLimitMiddleware<AppRequestContext>.importMaxBytes, skipInvalid: skipInvalid)
        }

        // Where the file comes from: a new upload, an address, a paste, or the upload previewed before.
        var file: (name: String, data: Data)?
        var uploadToken: String?
        var newUpload = false
        if let sent = form.files["file"], !sent.fileName.isEmpty || !sent.data.isEmpty {
            let name = sent.fileName.isEmpty ? "the file" : "“\(sent.fileName)”"
            guard !sent.data.isEmpty else { return try await fail("\(name) is empty: choose a file that holds questions.") }
            let limit = BodyLimitMiddleware<AppRequestContext>.importMaxBytes
            guard sent.data.count <= limit else {
                return try await fail("\(name) is larger than the import limit of \(limit >> 20) MiB. Nothing was imported.")
            }
            uploadToken = try await ImportUploads.keep(sent.data, fileName: sent.fileName, userId: user.id, now: time.now(), in: store)
            file = (sent.fileName, sent.data)
            newUpload = true
        } else if !values["url"]!.isEmpty {
            file = nil
        } else if !values["csv"]!.isEmpty {
            file = ("", Data(values["csv"]!.utf8))
        } else if !form.text("upload").isEmpty {
            guard let kept = try await ImportUploads.upload(form.text("upload"), userId: user.id, now: time.now(), in: store) else {
                return try await fail("The file you previewed is no longer kept (files are kept for \(Int(ImportUploads.lifetime / 60)) minutes after their preview): choose it again.")
            }
            uploadToken = form.text("upload")
            file = (kept.fileName, kept.data)
        } else {
            return try await fail("Choose a file, paste one or give an address.")
        }
        if let uploadToken {
            values["upload"] = uploadToken
            values["upload_name"] = file?.name ?? ""
        }

        let result: ReadResult
        let chosen: BankFormat
        if let file {
            chosen = format ?? BankFormat.detect(fileName: file.name, data: file.data)
            do {
                result = try chosen.read(file.data, defaults: defaults(fileName: file.name))
            } catch {
                let advice = skipInvalid
                    ? "These problems concern the whole file or leave no valid question, so nothing was imported (read as \(chosen.rawValue))."
                    : "Nothing was imported: fix these and send it again, or tick “Skip invalid questions” to import the others (read as \(chosen.rawValue))."
                return try await fail(advice, Self.describe(error.problems, omitted: error.omittedCount))
            }
        } else {
            guard let url = URL(string: values["url"]!) else { return try await fail("That address is not valid.") }
            do {
                let loaded = try await RemoteBankLoader(limits: config.remoteImportLimits).load(url, format: format, defaults: defaults(fileName: url.lastPathComponent))
                (result, chosen) = (loaded.result, loaded.format)
            } catch {
                let problems: [String]
                if case .invalidData(_, let found) = error { problems = found.map(\.description) } else { problems = [] }
                let text: String = switch error {
                case .connectivity: "Could not load it: \(error.description.prefix(300)). Nothing was imported."
                case .invalidData(let reason, _): "\(reason). Nothing was imported."
                case .privateAddress(let reason): "\(reason). Nothing was imported."
                }
                return try await fail(text, problems)
            }
        }

        let notes = Self.describe(result.skipped, omitted: result.skippedOmittedCount).map { "Skipped: \($0)" }
            + result.warnings.map { "Left out: \($0.description)" }
        // A file chosen after the preview is previewed too: the "Import N" button counted the old one.
        if form["action"] != "import" || newUpload {
            let counts = Dictionary(grouping: result.bank.subjects.flatMap(\.topics).flatMap { $0.questions + $0.quizzes.flatMap(\.questions) },
                                    by: \.kind).map { "\($0.value.count) \($0.key.rawValue)" }.sorted().joined(separator: ", ")
            let skipped = result.skipped.isEmpty ? "" : " The questions with the problems below are skipped."
            return try await manage(visit, feedback: .init(
                text: "Read as \(chosen.rawValue): \(Self.count(result.bank.questionCount, "question")) (\(counts)).\(skipped) Nothing is stored until you import.",
                ok: true, problems: notes, previewCount: result.bank.questionCount), values: values)
        }
        let summary = try await store.importBank(result.bank, at: time.now())
        if let uploadToken { try await ImportUploads.remove(uploadToken, in: store) }
        return try await manage(visit, feedback: .init(
            text: "Imported \(summary.questions) question(s) into \(summary.quizzes) quiz(zes).", ok: true, problems: notes))
    }

    /// One line per problem, and one for those beyond the listed ones.
    static func describe(_ problems: [FormatProblem], omitted: Int) -> [String] {
        problems.prefix(200).map { APIError.excerpt($0.description, 500) }
            + (omitted + max(0, problems.count - 200) > 0 ? ["…and \(omitted + max(0, problems.count - 200)) more problems"] : [])
    }
}
