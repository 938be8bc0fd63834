import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
import QuizServer
import QuizStore
import QuizTestSupport
import Testing

/// Pictures in questions through the API and the pages: written with the question, served by
/// their hash from the post images' route, shown with alt, width and height.
@Suite struct QuestionPictureAPITests {
    func author(_ client: any TestClientProtocol, _ env: TestEnvironment) async throws -> String {
        let token = try await client.signUp("writer")
        try await env.store.setRole(.author, username: "writer")
        env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        return token
    }

    @Test func anAuthorAddsAPictureAndAPlayerGetsItsAddressAltAndSize() async throws {
        try await withApp { client, env in
            let author = try await author(client, env)
            let player = try await client.signUp("ada")
            let (quizId, questions) = try await client.firstQuiz()
            let questionId = try #require(questions.first?["id"] as? Int)
            var edited = try await client.call(.get, "/api/v1/manage/questions/\(questionId)", token: author).json
            let bytes = PictureBytes.png(width: 640, height: 480)
            edited["picture"] = ["alt": "A ringed planet", "data": bytes.base64EncodedString()]
            let saved = try await client.call(.put, "/api/v1/manage/questions/\(questionId)", token: author, json: edited)
            #expect(saved.status == .ok, "\(saved.raw)")
            let picture = try #require(saved["picture"] as? [String: Any])
            #expect(picture["alt"] as? String == "A ringed planet")
            #expect(picture["width"] as? Int == 640 && picture["height"] as? Int == 480)
            #expect(picture["data"] == nil, "the bytes are served, not echoed")
            let url = try #require(picture["url"] as? String)
            #expect(url.hasPrefix("/images/") && url.hasSuffix(".png"))

            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let seen = try await client.call(.get, "/api/v1/quizzes/\(quizId)/questions", token: player)["questions"] as? [[String: Any]]
            let shown = try #require(seen?.first { $0["id"] as? Int == questionId }?["picture"] as? [String: Any])
            #expect(shown["url"] as? String == url && shown["alt"] as? String == "A ringed planet" && shown["width"] as? Int == 640)
            let served = try await client.execute(uri: url, method: .get) { $0 }
            #expect(served.status == .ok)
            #expect(served.headers[.contentType] == "image/png")
            #expect(served.headers[.cacheControl]?.contains("immutable") == true)
            #expect(Data(served.body.readableBytesView) == bytes)

            // Sent again without the picture, as a client that knows nothing of pictures would: it stays.
            edited["picture"] = nil
            let kept = try await client.call(.put, "/api/v1/manage/questions/\(questionId)", token: author, json: edited)
            #expect((kept["picture"] as? [String: Any])?["url"] as? String == url)
            edited["removePicture"] = true
            let removed = try await client.call(.put, "/api/v1/manage/questions/\(questionId)", token: author, json: edited)
            #expect(removed.status == .ok && removed["picture"] == nil, "\(removed.raw)")
        }
    }

    @Test func badPicturesAreClearFourHundredsAndStoreNothing() async throws {
        try await withApp { client, env in
            let author = try await author(client, env)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            func create(_ picture: [String: Any]) async throws -> JSONResponse {
                try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author, json: [
                    "kind": "typedAnswer", "text": "Which planet is this?", "answers": ["Saturn"], "picture": picture,
                ])
            }
            let notBase64 = try await create(["alt": "x", "data": "%%% not base64 %%%"])
            #expect(notBase64.status == .unprocessableContent && notBase64.errorField == "picture.data", "\(notBase64.raw)")
            let svg = try await create(["alt": "x", "data": Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8).base64EncodedString()])
            #expect(svg.status == .unprocessableContent && svg.errorField == "picture", "\(svg.raw)")
            let noAlt = try await create(["alt": " ", "data": PictureBytes.png(width: 2, height: 2).base64EncodedString()])
            #expect(noAlt.status == .unprocessableContent && noAlt.errorField == "picture.alt", "\(noAlt.raw)")
            // Within the body's limit (a clip may come with it), over the picture's.
            let huge = try await create(["alt": "x", "data": Data(count: 6 << 20).base64EncodedString()])
            #expect(huge.status == .unprocessableContent && huge.errorField == "picture" && huge.raw.contains("larger than the limit of 5 MiB"),
                    "\(huge.raw.prefix(300))")
            let hugeBody = try await create(["alt": "x", "data": Data(count: 14 << 20).base64EncodedString()])
            #expect(hugeBody.status == .contentTooLarge, "\(hugeBody.raw.prefix(300))")
            let player = try await client.signUp("ada")
            let refused = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: player,
                                                json: ["kind": "typedAnswer", "text": "x", "answers": ["y"]])
            #expect(refused.status == .forbidden)
            #expect(try await env.store.topicQuestions(topicId: topicId)?.contains { $0.text == "Which planet is this?" } == false)
        }
    }

    /// Each side within 20,000 pixels, yet 400 megapixels (1.5 GiB decoded): refused by its pixel count.
    @Test func aPictureOfMoreThanFortyMegapixelsIsAClearRefusal() async throws {
        try await withApp { client, env in
            let author = try await author(client, env)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let bomb = PictureBytes.png(width: 20_000, height: 20_000).base64EncodedString()
            let refused = try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author, json: [
                "kind": "typedAnswer", "text": "Which planet is this?", "answers": ["Saturn"], "picture": ["alt": "x", "data": bomb],
            ])
            #expect(refused.status == .unprocessableContent && refused.errorField == "picture", "\(refused.raw)")
            #expect(refused.raw.contains("40 megapixels"), "\(refused.raw)")
            #expect(try await env.store.topicQuestions(topicId: topicId)?.contains { $0.text == "Which planet is this?" } == false)
        }
    }

    @Test func theQuestionFormTakesAPictureAndThePagesShowItSizedAndLazy() async throws {
        try await withApp { client, env in
            let author = TestBrowser(client)
            try await author.register("writer")
            try await env.store.setRole(.author, username: "writer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let (quizId, questions) = try await client.firstQuiz()
            let questionId = try #require(questions.first?["id"] as? Int)
            let form = try await author.get("/manage/questions/\(questionId)?quiz=\(quizId)")
            #expect(form.contains(#"enctype="multipart/form-data""#) && form.contains(#"name="picture""#))
            let stored = try #require(try await env.store.managedQuestion(id: Int64(questionId)))
            var fields: [(String, String)] = [("quiz", "\(quizId)"), ("kind", stored.question.kind.rawValue), ("text", stored.question.text),
                                              ("difficulty", "easy"), ("points", "1"), ("picture_alt", "")]
            for (index, choice) in stored.question.body.choices.enumerated() {
                fields.append(("choice_text", choice.text))
                if choice.isCorrect { fields.append(("choice_correct", "\(index)")) }
            }
            let png = [UInt8](PictureBytes.png(width: 320, height: 200))
            let noAlt = try await author.postMultipart("/manage/questions/\(questionId)", fields, file: ("planet.png", png), fileField: "picture")
            #expect(noAlt.status == .unprocessableContent)
            #expect(noAlt.contains(#"id="error-picture-alt""#) && noAlt.contains(#"id="error-picture""#), "asks for the alt and the file again")
            fields.removeLast(fields.count - 5)
            fields.insert(("picture_alt", "A <ringed> planet"), at: 5)
            for (index, choice) in stored.question.body.choices.enumerated() {
                fields.append(("choice_text", choice.text))
                if choice.isCorrect { fields.append(("choice_correct", "\(index)")) }
            }
            let saved = try await author.postMultipart("/manage/questions/\(questionId)", fields, file: ("planet.png", png), fileField: "picture")
            #expect(saved.status == .seeOther, "\(saved.html.prefix(2000))")
            let picture = try #require(try await env.store.managedQuestion(id: Int64(questionId))?.question.picture)
            let preview = try await author.get("/manage/quizzes/\(quizId)")
            let img = #"src="\#(picture.url)" alt="A &lt;ringed&gt; planet" width="320" height="200" loading="lazy""#
            #expect(preview.contains(img), "the quiz preview shows it")

            let player = TestBrowser(client)
            try await player.register("ada")
            let start = try await player.post("/quizzes/\(quizId)/start", [])
            let attemptPath = try #require(start.location?.components(separatedBy: "/questions/").first)
            let questionPage = try await player.get("\(attemptPath)/questions/\(questionId)")
            #expect(questionPage.status == .ok)
            #expect(questionPage.contains(img))
            let choice = try #require(questionPage.html.firstMatch(of: /name="choice" value="(\d+)"/)?.output.1)
            let answered = try await player.post("\(attemptPath)/questions/\(questionId)", [("choice", String(choice))])
            _ = try await player.follow(answered)
            #expect(try await player.get("/history").contains(#"<img class="history-picture" src="\#(picture.url)""#))

            let removed = try await author.postMultipart("/manage/questions/\(questionId)", fields + [("remove_picture", "on")],
                                                         file: nil, fileField: "picture")
            #expect(removed.status == .seeOther)
            #expect(try await env.store.managedQuestion(id: Int64(questionId))?.question.picture == nil)
        }
    }
}
