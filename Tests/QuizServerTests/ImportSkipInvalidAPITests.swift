import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import QuizServer
import QuizCore
import QuizStore
import Testing

extension AuthoringAPITests {
    static let csvWithABadRow = "question,option1,option2,option3,option4,answer\nLargest ocean?,Pacific,Atlantic,,,Pacific\nBroken?,A,B,,,C\nRed planet?,Venus,Mars,,,Mars\n"

    @Test func skipInvalidImportsTheValidQuestionsAndListsTheOthers() async throws {
        try await withApp { client, env in
            let token = try await author(client, env)
            let strict = try await upload(client, "fileName=seas.csv&subject=Geo", token: token, body: Self.csvWithABadRow)
            #expect(strict.status == .unprocessableContent)
            #expect(strict.errorCode == "invalid_bank")

            let preview = try await upload(client, "fileName=seas.csv&subject=Geo&skipInvalid=true&dryRun=true", token: token, body: Self.csvWithABadRow)
            #expect(preview.status == .ok, "\(preview.raw)")
            #expect(preview["questionCount"] as? Int == 2)
            let skipped = try #require(preview["skipped"] as? [[String: Any]])
            #expect(skipped.map { $0["line"] as? Int } == [3])
            #expect(skipped.first?["description"] as? String == #"line 3, column 6: answer "C" is not one of the options"#)
            #expect(try await env.store.subjects().map(\.name) == ["Science"])

            let stored = try await upload(client, "fileName=seas.csv&subject=Geo&skipInvalid=true", token: token, body: Self.csvWithABadRow)
            #expect((stored["imported"] as? [String: Any])?["questions"] as? Int == 2, "\(stored.raw)")
            #expect(try await env.store.subjects().map(\.name) == ["Science", "Geo"])
        }
    }

    @Test func skipInvalidStillRefusesAFileWhoseProblemIsTheWholeFile() async throws {
        try await withApp { client, env in
            let token = try await author(client, env)
            let header = try await upload(client, "fileName=x.csv&skipInvalid=true", token: token,
                                          body: "question,option1,option2,answer,colour\nOK?,Yes,No,Yes,red\n")
            #expect(header.status == .unprocessableContent)
            let problems = ((header.json["error"] as? [String: Any])?["problems"] as? [[String: Any]]) ?? []
            #expect(problems.map { $0["message"] as? String } == [#"unknown column "colour""#])
            let empty = try await upload(client, "fileName=x.gift&skipInvalid=true", token: token, body: "// nothing here\n")
            #expect(empty.status == .unprocessableContent)
            #expect(empty.raw.contains("the file holds no questions"))
            #expect(try await env.store.subjects().map(\.name) == ["Science"])
        }
    }

    @Test func aRemoteImportCanSkipInvalidQuestionsToo() async throws {
        let router = Router()
        router.get("/payloads.json") { _, _ in
            #"[{"question": "Name the primary colours", "answer": ["red", "yellow", "blue"]}, {"question": "", "answer": ["x"]}]"#
        }
        let bankServer = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await bankServer.test(.live) { remote in
            let url = "http://127.0.0.1:\(try #require(remote.port))/payloads.json"
            try await withApp { client, env in
                let token = try await author(client, env)
                let strict = try await client.call(.post, "/api/v1/imports/remote", token: token, json: ["url": url])
                #expect(strict.status == .unprocessableContent)
                #expect(strict.errorCode == "invalid_bank")
                let skipping = try await client.call(.post, "/api/v1/imports/remote", token: token, json: ["url": url, "skipInvalid": true])
                #expect(skipping.status == .ok, "\(skipping.raw)")
                #expect((skipping["imported"] as? [String: Any])?["questions"] as? Int == 1)
                #expect((skipping["skipped"] as? [[String: Any]])?.first?["path"] as? String == "[1].question")
            }
        }
    }

    /// A CSV's `image` column through the real downloader: the picture comes from a server on
    /// loopback, is stored by its hash and served; one over a picture's size limit is refused.
    @Test func aCSVsPictureIsDownloadedStoredAndServed() async throws {
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAAEUlEQVR4nGMQUDDAihgGUgIAQOESAYIG6jMAAAAASUVORK5CYII=")!
        let router = Router()
        router.get("/saturn.png") { _, _ in Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: png))) }
        router.get("/huge.png") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: png + Data(count: 6 << 20))))
        }
        let pictureServer = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await pictureServer.test(.live) { remote in
            let base = "http://127.0.0.1:\(try #require(remote.port))"
            try await withApp { client, env in
                let token = try await author(client, env)
                let csv = "question,option1,option2,answer,subject,image,image_alt\nWhich planet has rings?,Saturn,Mars,Saturn,Space,\(base)/saturn.png,Rings\n"
                let stored = try await upload(client, "fileName=space.csv", token: token, body: csv)
                #expect((stored["imported"] as? [String: Any])?["questions"] as? Int == 1, "\(stored.raw)")
                let subjects = try await client.call(.get, "/api/v1/subjects", token: token)
                let space = try #require((subjects["subjects"] as? [[String: Any]])?.first { $0["name"] as? String == "Space" }?["id"] as? Int)
                let topics = try await client.call(.get, "/api/v1/subjects/\(space)/topics", token: token)
                let topic = try #require((topics["topics"] as? [[String: Any]])?.first?["id"] as? Int)
                let quizzes = try await client.call(.get, "/api/v1/topics/\(topic)/quizzes", token: token)
                let quiz = try #require((quizzes["quizzes"] as? [[String: Any]])?.first?["id"] as? Int)
                let questions = try await client.call(.get, "/api/v1/quizzes/\(quiz)/questions", token: token)
                let picture = try #require((questions["questions"] as? [[String: Any]])?.first?["picture"] as? [String: Any])
                #expect(picture["alt"] as? String == "Rings" && picture["width"] as? Int == 8 && picture["height"] as? Int == 6)
                let url = try #require(picture["url"] as? String)
                #expect(!url.contains("saturn"), "the address names the bytes, not the file")
                let served = try await client.execute(uri: url, method: .get) { $0 }
                #expect(served.status == .ok && Data(served.body.readableBytesView) == png)

                let huge = try await upload(client, "fileName=big.csv", token: token,
                                            body: "question,option1,option2,answer,subject,image\nToo big?,Yes,No,Yes,Huge,\(base)/huge.png\n")
                #expect(huge.status == .unprocessableContent)
                #expect(huge.raw.contains("huge.png could not be loaded") && huge.raw.contains("larger than 5 MiB"), "\(huge.raw)")
                #expect(try await env.store.subjects().map(\.name).contains("Huge") == false)
            }
        }
    }
}
