import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizFormats
import QuizServer
import QuizStore
import Testing

/// Kahoot's template and Excel banks through the import page and `POST /imports`, and quizzes
/// out again as workbooks.
@Suite struct SpreadsheetImportTests {
    static let spreadsheet = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

    static func bank(_ questions: [Question]) -> Bank {
        Bank(subjects: [BankSubject(name: "Imported", topics: [BankTopic(name: "Imported", quizzes: [BankQuiz(title: "x", questions: questions)])])])
    }

    /// Kahoot's template with two good questions and, with `broken`, a third without a correct answer.
    static func kahootTemplate(broken: Bool = false) -> [UInt8] {
        var rows: [[XLSXWriter.Cell]] = [[], [.empty, .text("Quiz template")], [], [], [], [], [],
                                         [.empty] + SpreadsheetBankWriter.kahootHeader.map { .text($0) }]
        rows.append([.number(1), .text("Capital of Finland?"), .text("Turku"), .text("Helsinki"), .text("Oulu"), .empty, .number(20), .text("2")])
        rows.append([.number(2), .text("The sun is a star."), .text("True"), .text("False"), .empty, .empty, .number(10), .number(1)])
        if broken { rows.append([.number(3), .text("Broken?"), .text("a"), .text("b"), .empty, .empty, .number(20), .empty]) }
        return Array(XLSXWriter().write([XLSXWriter.Sheet(name: "Sheet1", rows: rows, headerRow: 8)]))
    }

    func upload(_ client: any TestClientProtocol, _ query: String, token: String, body: [UInt8], type: String = spreadsheet) async throws -> JSONResponse {
        try await AuthoringAPITests().upload(client, query, token: token, bytes: body, type: type)
    }

    func author(_ client: any TestClientProtocol, _ env: TestEnvironment) async throws -> String {
        try await AuthoringAPITests().author(client, env)
    }

    @Test func theAPIImportsKahootsTemplateSentAsASpreadsheet() async throws {
        try await withApp { client, env in
            let token = try await author(client, env)
            let broken = try await upload(client, "fileName=KahootQuizTemplate.xlsx", token: token, body: Self.kahootTemplate(broken: true))
            #expect(broken.status == .unprocessableContent, "\(broken.raw)")
            let problems = ((broken.json["error"] as? [String: Any])?["problems"] as? [[String: Any]]) ?? []
            #expect(problems.map { $0["cell"] as? String } == ["H11"])
            #expect((problems.first?["description"] as? String)?.hasPrefix("row 11, column H: no correct answer") == true, "\(broken.raw)")
            #expect(try await env.store.subjects().map(\.name) == ["Science"], "nothing stored")

            let preview = try await upload(client, "fileName=KahootQuizTemplate.xlsx&skipInvalid=true&dryRun=true", token: token,
                                           body: Self.kahootTemplate(broken: true))
            #expect(preview["questionCount"] as? Int == 2, "\(preview.raw)")
            #expect(preview["format"] as? String == "xlsx")

            let stored = try await upload(client, "fileName=KahootQuizTemplate.xlsx&subject=Geo", token: token,
                                          body: Self.kahootTemplate(), type: "application/octet-stream")
            #expect((stored["imported"] as? [String: Any])?["questions"] as? Int == 2, "\(stored.raw)")
            #expect(try await env.store.subjects().map(\.name) == ["Science", "Geo"])
        }
    }

    @Test func hostileWorkbooksAreRefusedWithAClearErrorNotA500() async throws {
        try await withApp { client, env in
            let token = try await author(client, env)
            let encrypted = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 64)
                + "EncryptionInfo".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let refused = try await upload(client, "fileName=secret.xlsx", token: token, body: encrypted)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.raw.contains("protected with a password"), "\(refused.raw)")
            let garbage = try await upload(client, "fileName=x.xlsx", token: token, body: Array("PK\u{3}\u{4}not a zip".utf8))
            #expect(garbage.status == .unprocessableContent, "\(garbage.raw)")
            #expect(try await env.store.subjects().map(\.name) == ["Science"])
        }
    }

    @Test func theImportPagePreviewsAnUploadedTemplateAndSaysItsProblemsInFinnish() async throws {
        try await withApp { client, env in
            let browser = TestBrowser(client)
            try await browser.register("writer")
            try await env.store.setRole(.author, username: "writer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            _ = try await browser.get("/manage")
            let preview = try await browser.postMultipart("/manage/import", [("action", "preview")],
                                                          file: ("KahootQuizTemplate.xlsx", Self.kahootTemplate()))
            #expect(preview.contains("Read as xlsx: 2 questions (1 single choice, 1 true or false)"), "\(preview.html)")
            let token = try #require(WebImportPageTests.uploadToken(preview))
            let imported = try await browser.postMultipart("/manage/import", [("action", "import"), ("upload", token)], file: nil)
            #expect(imported.contains("Imported 2 questions into a new quiz."), "\(imported.html)")

            browser.setCookie("quizbox_lang", "fi")
            let broken = try await browser.postMultipart("/manage/import", [("action", "preview")],
                                                         file: ("KahootQuizTemplate.xlsx", Self.kahootTemplate(broken: true)))
            #expect(broken.status == .unprocessableContent)
            #expect(broken.contains("rivi 11, sarake H: ei oikeaa vastausta"), "\(broken.html)")
        }
    }

    @Test func aQuizIsExportedAsKahootsTemplateAndAsAnExcelSheet() async throws {
        try await withApp { client, env in
            let token = try await author(client, env)
            let quizId = try #require(try await env.store.allQuizzes().first?.quiz.id)
            for format in ["kahoot", "xlsx"] {
                var headers = HTTPFields()
                headers[.authorization] = "Bearer \(token)"
                let (status, type, disposition, body) = try await client.execute(uri: "/api/v1/quizzes/\(quizId)/export?format=\(format)",
                                                                                method: .get, headers: headers) {
                    ($0.status, $0.headers[.contentType], $0.headers[.contentDisposition], Data($0.body.readableBytesView))
                }
                #expect(status == .ok)
                #expect(type == Self.spreadsheet)
                #expect(disposition?.contains(format == "kahoot" ? "-kahoot.xlsx" : ".xlsx") == true)
                let read = try BankFormat.detect(fileName: "", data: body).read(body, defaults: ImportDefaults())
                #expect(read.bank.questionCount > 0)
            }
        }
    }
}
