import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import Testing

extension TestBrowser {
    /// Posts the import form as a browser does with a file input: multipart/form-data, the CSRF
    /// token among the fields. `file` nil sends the input with no file chosen.
    @discardableResult
    func postMultipart(
        _ path: String, _ fields: [(String, String)], file: (name: String, bytes: [UInt8])?, fileField: String = "file",
        csrf: Bool = true
    ) async throws -> Page {
        let boundary = "----QuizboxTest\(UUID().uuidString)"
        var body: [UInt8] = []
        func add(_ text: String) { body += Array(text.utf8) }
        var all = fields
        if csrf, let token = cookies["quizbox_csrf"] { all.insert(("csrf", token), at: 0) }
        for (name, value) in all {
            add("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        add("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(fileField)\"; filename=\"\(file?.name ?? "")\"\r\n")
        add("Content-Type: application/octet-stream\r\n\r\n")
        body += file?.bytes ?? []
        add("\r\n--\(boundary)--\r\n")
        var headers = HTTPFields()
        headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        let page = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
            Page(status: $0.status, headers: $0.headers, html: String(buffer: $0.body))
        }
        for field in page.headers where field.name == .setCookie {
            let pair = field.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            if pair.count > 1 && !field.value.contains("Max-Age=0") { setCookie(String(pair[0]), String(pair[1])) }
        }
        return page
    }
}

@Suite struct WebImportPageTests {
    /// A signed-in author on the manage page.
    func author(_ client: any TestClientProtocol, _ env: TestEnvironment) async throws -> TestBrowser {
        let browser = TestBrowser(client)
        try await browser.register("writer")
        try await env.store.setRole(.author, username: "writer")
        env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        #expect(try await browser.get("/manage").contains(#"enctype="multipart/form-data""#))
        return browser
    }

    static let gift = Array("""
        $CATEGORY: $course$/History/Rome

        Who was the first Roman emperor? {=Augustus ~Nero ~Caligula}

        Rome was founded in 753 BC. {T}
        """.utf8)

    /// The kept upload's token, from the confirm form's hidden field.
    static func uploadToken(_ page: TestBrowser.Page) -> String? {
        guard let range = page.html.range(of: #"name="upload" value="([^"]+)""#, options: .regularExpression) else { return nil }
        return String(page.html[range]).components(separatedBy: "value=\"")[1].dropLast().description
    }

    @Test func anUploadedFileIsPreviewedThenImportedWithoutChoosingItAgain() async throws {
        try await withApp { client, env in
            let browser = try await author(client, env)
            let preview = try await browser.postMultipart("/manage/import", [("action", "preview")], file: ("rome.gift", Self.gift))
            #expect(preview.status == .ok, "\(preview.html)")
            #expect(preview.contains("Read as gift: 2 questions (1 single choice, 1 true or false)"), "\(preview.html)")
            #expect(preview.contains("Previewed file: <strong>rome.gift</strong>"))
            #expect(preview.contains("<li>History › Rome: 2 questions, quiz “rome”</li>"), "where they go, in words")
            #expect(preview.contains(#"id="import-button""#))
            #expect(try await env.store.subjects().map(\.name) == ["Science"], "a preview stores nothing")

            // Another file chosen before pressing "Import 2 questions" is previewed, not stored unseen.
            let other = Array("Is the Earth round? {T}\n".utf8)
            let switched = try await browser.postMultipart("/manage/import", [("action", "import")], file: ("earth.gift", other))
            #expect(switched.contains("Read as gift: 1 question (1 true or false)"), "\(switched.html)")
            #expect(try await env.store.subjects().map(\.name) == ["Science"])
            let again = try await browser.postMultipart("/manage/import", [("action", "preview")], file: ("rome.gift", Self.gift))

            let token = try #require(Self.uploadToken(again))
            // The browser sends the file input empty: the previewed file is the one imported.
            let stored = try await browser.postMultipart("/manage/import", [("upload", token), ("action", "import")], file: nil)
            #expect(stored.contains("Imported 2 questions into a new quiz."), "\(stored.html)")
            #expect(try await env.store.subjects().map(\.name) == ["Science", "History"])
            #expect(try await env.store.allQuizzes().map(\.quiz.title).contains("rome"), "the quiz is named after the file")

            let twice = try await browser.postMultipart("/manage/import", [("upload", token), ("action", "import")], file: nil)
            #expect(twice.status == .unprocessableContent)
            #expect(twice.contains("no longer kept"), "an imported upload cannot be imported twice by resending the form")
        }
    }

    @Test func aPreviewedUploadIsKeptForHalfAnHourAndOnlyForItsAuthor() async throws {
        try await withApp { client, env in
            let browser = try await author(client, env)
            let preview = try await browser.postMultipart("/manage/import", [("action", "preview")], file: ("rome.gift", Self.gift))
            let token = try #require(Self.uploadToken(preview))

            let other = TestBrowser(client)
            try await other.register("someone")
            try await env.store.setRole(.author, username: "someone")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let stolen = try await other.postMultipart("/manage/import", [("upload", token), ("action", "import")], file: nil)
            #expect(stolen.contains("no longer kept"))

            env.time.advance(by: 31 * 60)
            let late = try await browser.postMultipart("/manage/import", [("upload", token), ("action", "import")], file: nil)
            #expect(late.status == .unprocessableContent)
            #expect(late.contains("choose it again"))
            #expect(try await env.store.subjects().map(\.name) == ["Science"])
        }
    }

    @Test func emptyMissingAndOversizedFilesGetAClearMessage() async throws {
        try await withApp { client, env in
            let browser = try await author(client, env)
            let empty = try await browser.postMultipart("/manage/import", [("action", "preview")], file: ("bank.csv", []))
            #expect(empty.status == .unprocessableContent)
            #expect(empty.contains("“bank.csv” is empty: choose a file that holds questions."), "\(empty.html)")

            let nothing = try await browser.postMultipart("/manage/import", [("action", "preview")], file: nil)
            #expect(nothing.contains("Choose a file, paste one or give an address."))

            let limit = 20 << 20
            let justOver = try await browser.postMultipart("/manage/import", [], file: ("big.csv", [UInt8](repeating: 0x41, count: limit + 1)))
            #expect(justOver.status == .unprocessableContent)
            #expect(justOver.contains("“big.csv” is larger than the import limit of 20 MiB"))

            let farOver = try await browser.postMultipart("/manage/import", [], file: ("huge.csv", [UInt8](repeating: 0x41, count: limit + (1 << 20))))
            #expect(farOver.status == .contentTooLarge)
            #expect(farOver.contains("The file is larger than the import limit of 20 MiB."))
            #expect(try await env.store.subjects().map(\.name) == ["Science"])
        }
    }

    @Test func anUploadWithoutTheFormsTokenIsRefused() async throws {
        try await withApp { client, env in
            let browser = try await author(client, env)
            let refused = try await browser.postMultipart("/manage/import", [("action", "import")], file: ("rome.gift", Self.gift), csrf: false)
            #expect(refused.status == .forbidden)
            #expect(refused.contains("This form has expired"))
            #expect(try await env.store.subjects().map(\.name) == ["Science"])
        }
    }

    @Test func skippingInvalidQuestionsImportsTheOthersAndListsWhatWasSkipped() async throws {
        try await withApp { client, env in
            let browser = try await author(client, env)
            let csv = "Largest?,Pacific,Atlantic,,,Pacific\nBroken?,A,B,,,C\nRed planet?,Venus,Mars,,,Mars\n"
            let fields = [("subject", "Geo"), ("topic", "Seas"), ("csv", csv)]
            let strict = try await browser.post("/manage/import", fields + [("action", "preview")])
            #expect(strict.status == .unprocessableContent)
            #expect(strict.contains("tick “Skip invalid questions” to import the other 2 questions"))
            // A file wrong as a whole gets no advice to skip: skipping would import nothing.
            let broken = try await browser.post("/manage/import", [("csv", #"{"format": "quizbox-bundle", "subjects": ["#), ("action", "preview")])
            #expect(broken.status == .unprocessableContent)
            #expect(broken.contains("concern the whole file") && !broken.contains("tick “Skip"), "\(broken.html)")

            let preview = try await browser.post("/manage/import", fields + [("skip_invalid", "1"), ("action", "preview")])
            #expect(preview.status == .ok, "\(preview.html)")
            #expect(preview.contains("Read as csv: 2 questions"))
            #expect(preview.contains("Skipped: line 2, column 6: answer &quot;C&quot; is not one of the options"), "\(preview.html)")
            #expect(preview.contains(#"name="skip_invalid" type="checkbox" value="1" checked"#), "the choice is kept for the import")
            let stored = try await browser.post("/manage/import", fields + [("skip_invalid", "1"), ("action", "import")])
            #expect(stored.contains("Imported 2 questions into a new quiz."))
            #expect(stored.contains("Skipped: line 2"))
            #expect(try await env.store.subjects().map(\.name) == ["Science", "Geo"])
        }
    }
}
