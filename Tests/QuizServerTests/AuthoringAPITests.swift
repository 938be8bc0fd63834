import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import Testing

@Suite struct AuthoringAPITests {
    /// Registers, makes the user an author (as `quizbox user set-role` would) and returns the token.
    func author(_ client: any TestClientProtocol, _ env: TestEnvironment, name: String = "writer") async throws -> String {
        let token = try await client.signUp(name)
        try await env.store.setRole(.author, username: name)
        env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        return token
    }

    func upload(_ client: any TestClientProtocol, _ query: String, token: String, body: String) async throws -> JSONResponse {
        try await upload(client, query, token: token, bytes: Array(body.utf8))
    }

    func upload(_ client: any TestClientProtocol, _ query: String, token: String, bytes: [UInt8],
                type: String = "application/octet-stream") async throws -> JSONResponse {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        headers[.contentType] = type
        return try await client.execute(uri: "/api/v1/imports?\(query)", method: .post, headers: headers, body: ByteBuffer(bytes: bytes)) {
            let raw = String(buffer: $0.body)
            return JSONResponse(status: $0.status, headers: $0.headers,
                                json: (try? JSONSerialization.jsonObject(with: Data(raw.utf8))) as? [String: Any] ?? [:], raw: raw)
        }
    }

    static let gift = """
        $CATEGORY: $course$/History/Rome

        Who was the first Roman emperor? {=Augustus ~Nero ~Caligula}

        Rome was founded in 753 BC. {T}

        An essay about Rome. {}
        """

    @Test func playersCannotImportOrExport() async throws {
        try await withApp { client, _ in
            let token = try await client.signUp("player")
            let imported = try await upload(client, "dryRun=true", token: token, body: Self.gift)
            #expect(imported.status == .forbidden)
            #expect(imported.errorCode == "forbidden")
            #expect(try await client.call(.get, "/api/v1/quizzes/1/export", token: token).status == .forbidden)
        }
    }

    @Test func aDryRunPreviewsAndStoresNothingThenTheImportStores() async throws {
        try await withApp { client, env in
            let token = try await author(client, env)
            let preview = try await upload(client, "dryRun=true&fileName=rome.gift", token: token, body: Self.gift)
            #expect(preview.status == .ok, "\(preview.raw)")
            #expect(preview["format"] as? String == "gift")
            #expect(preview["questionCount"] as? Int == 2)
            #expect(preview["kinds"] as? [String: Int] == ["singleChoice": 1, "trueFalse": 1])
            #expect((preview["warnings"] as? [[String: Any]])?.first?["line"] as? Int == 7, "the essay is reported where it is")
            #expect(preview["imported"] == nil)
            #expect(try await env.store.subjects().map(\.name) == ["Science"])

            let stored = try await upload(client, "fileName=rome.gift", token: token, body: Self.gift)
            #expect((stored["imported"] as? [String: Any])?["questions"] as? Int == 2)
            #expect(try await env.store.subjects().map(\.name) == ["Science", "History"])
        }
    }

    @Test func aFileWithProblemsListsThemAllAndStoresNothing() async throws {
        try await withApp { client, env in
            let token = try await author(client, env)
            let broken = "question,option1,option2,option3,option4,answer\nOK?,Yes,No,,,Yes\nBad?,A,B,,,C\nWorse?,A,,,,A\n"
            let response = try await upload(client, "fileName=bank.csv", token: token, body: broken)
            #expect(response.status == .unprocessableContent)
            #expect(response.errorCode == "invalid_bank")
            let problems = (response.json["error"] as? [String: Any])?["problems"] as? [[String: Any]] ?? []
            #expect(problems.compactMap { $0["line"] as? Int } == [3, 4])
            #expect(try await env.store.subjects().count == 1)
        }
    }

    @Test func importsMayBeLargerThanOtherBodies() async throws {
        try await withApp { client, env in
            let token = try await author(client, env)
            var csv = "question,option1,option2,option3,option4,answer\n"
            for i in 0..<20_000 { csv += "Question number \(i) here?,Right answer,Wrong answer,,,Right answer\n" }
            #expect(csv.utf8.count > 1 << 20)
            let response = try await upload(client, "dryRun=true&fileName=big.csv", token: token, body: csv)
            #expect(response.status == .ok, "\(response.raw.prefix(300))")
            #expect(response["questionCount"] as? Int == 20_000)
        }
    }

    @Test func aQuizExportsAsADownloadThatImportsBack() async throws {
        try await withApp { client, env in
            let token = try await author(client, env)
            for format in ["gift", "moodle-xml", "bundle", "csv", "aiken"] {
                let download = try await client.call(.get, "/api/v1/quizzes/1/export?format=\(format)", token: token)
                #expect(download.status == .ok, "\(format): \(download.raw.prefix(200))")
                #expect(download.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"quiz-1.") == true)
                let back = try await upload(client, "dryRun=true&format=\(format)", token: token, body: download.raw)
                #expect(back.status == .ok, "\(format): \(back.raw.prefix(300))")
            }
            let bundle = try await client.call(.get, "/api/v1/topics/1/export", token: token)
            #expect(bundle.headers[.contentType] == "application/json; charset=utf-8")
            #expect(bundle.raw.contains("quizbox-bundle"))
            #expect(try await client.call(.get, "/api/v1/quizzes/999/export", token: token).status == .notFound)
        }
    }
}
