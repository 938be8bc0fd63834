import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
@testable import QuizServer
import QuizStore
import QuizTestSupport
import Testing

/// Sound clips in questions: written with the question through the API and the form, served by
/// their hash with range requests, shown with a player that never starts by itself.
@Suite struct QuestionSoundTests {
    func author(_ client: any TestClientProtocol, _ env: TestEnvironment) async throws -> String {
        let token = try await client.signUp("writer")
        try await env.store.setRole(.author, username: "writer")
        env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
        return token
    }

    @Test func anAuthorAddsAClipAndABrowserReadsItInRanges() async throws {
        try await withApp { client, env in
            let author = try await author(client, env)
            let player = try await client.signUp("ada")
            let (quizId, questions) = try await client.firstQuiz()
            let questionId = try #require(questions.first?["id"] as? Int)
            var edited = try await client.call(.get, "/api/v1/manage/questions/\(questionId)", token: author).json
            let bytes = SoundBytes.wav(seconds: 1.5)
            edited["audio"] = ["description": "A piano plays four notes", "data": bytes.base64EncodedString()]
            let saved = try await client.call(.put, "/api/v1/manage/questions/\(questionId)", token: author, json: edited)
            #expect(saved.status == .ok, "\(saved.raw.prefix(500))")
            let audio = try #require(saved["audio"] as? [String: Any])
            #expect(audio["description"] as? String == "A piano plays four notes")
            #expect(audio["type"] as? String == "wav" && (audio["seconds"] as? Double).map { abs($0 - 1.5) < 0.01 } == true)
            #expect(audio["data"] == nil, "the bytes are served, not echoed")
            let url = try #require(audio["url"] as? String)
            #expect(url.hasPrefix("/sounds/") && url.hasSuffix(".wav"))

            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let seen = try await client.call(.get, "/api/v1/quizzes/\(quizId)/questions", token: player)["questions"] as? [[String: Any]]
            let shown = try #require(seen?.first { $0["id"] as? Int == questionId }?["audio"] as? [String: Any])
            #expect(shown["url"] as? String == url && shown["description"] as? String == "A piano plays four notes")

            let whole = try await client.execute(uri: url, method: .get) { $0 }
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "audio/wav" && whole.headers[.acceptRanges] == "bytes")
            #expect(whole.headers[.cacheControl]?.contains("immutable") == true)
            #expect(Data(whole.body.readableBytesView) == bytes)
            func ranged(_ range: String) async throws -> TestResponse {
                try await client.execute(uri: url, method: .get, headers: [.range: range]) { $0 }
            }
            let head = try await ranged("bytes=0-99")
            #expect(head.status == .partialContent)
            #expect(head.headers[.contentRange] == "bytes 0-99/\(bytes.count)")
            #expect(Data(head.body.readableBytesView) == bytes.prefix(100))
            let middle = try await ranged("bytes=1000-")
            #expect(middle.status == .partialContent && Data(middle.body.readableBytesView) == bytes.dropFirst(1000))
            let tail = try await ranged("bytes=-10")
            #expect(tail.headers[.contentRange] == "bytes \(bytes.count - 10)-\(bytes.count - 1)/\(bytes.count)")
            #expect(Data(tail.body.readableBytesView) == bytes.suffix(10))
            let past = try await ranged("bytes=\(bytes.count)-")
            #expect(past.status == .rangeNotSatisfiable && past.headers[.contentRange] == "bytes */\(bytes.count)")
            let several = try await ranged("bytes=0-1,5-6")
            #expect(several.status == .ok, "several ranges get the whole file")
            let missing = try await client.execute(uri: "/sounds/" + String(repeating: "a", count: 64) + ".wav", method: .get) { $0 }
            #expect(missing.status == .notFound)
            let traversal = try await client.execute(uri: "/sounds/..%2F..%2Fquizbox.sqlite", method: .get) { $0 }
            #expect(traversal.status == .notFound)

            // Sent again without the clip, as a client that knows nothing of clips would: it stays.
            edited["audio"] = nil
            let kept = try await client.call(.put, "/api/v1/manage/questions/\(questionId)", token: author, json: edited)
            #expect((kept["audio"] as? [String: Any])?["url"] as? String == url)
            edited["removeAudio"] = true
            let removed = try await client.call(.put, "/api/v1/manage/questions/\(questionId)", token: author, json: edited)
            #expect(removed.status == .ok && removed["audio"] == nil, "\(removed.raw.prefix(300))")
        }
    }

    @Test func hostileClipsAreClearRefusalsAndStoreNothing() async throws {
        try await withApp { client, env in
            let author = try await author(client, env)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            func create(_ audio: [String: Any]) async throws -> JSONResponse {
                try await client.call(.post, "/api/v1/manage/topics/\(topicId)/questions", token: author, json: [
                    "kind": "typedAnswer", "text": "Which band is this?", "answers": ["Queen"], "audio": audio,
                ])
            }
            let wav = SoundBytes.wav(seconds: 0.2)
            let wrongMagic = try await create(["description": "x", "data": Data("<script>alert(1)</script>".utf8).base64EncodedString()])
            #expect(wrongMagic.status == .unprocessableContent && wrongMagic.errorField == "audio", "\(wrongMagic.raw)")
            #expect(wrongMagic.raw.contains("is not a sound file Quizbox plays"))
            let truncated = try await create(["description": "x", "data": wav.prefix(30).base64EncodedString()])
            #expect(truncated.status == .unprocessableContent && truncated.raw.contains("cut short or damaged"), "\(truncated.raw)")
            let tooLong = try await create(["description": "x", "data": SoundBytes.mp3(frames: 8_000).base64EncodedString()])
            #expect(tooLong.status == .unprocessableContent && tooLong.raw.contains("a clip lasts at most 180 s"), "\(tooLong.raw)")
            let noDescription = try await create(["description": "  ", "data": wav.base64EncodedString()])
            #expect(noDescription.status == .unprocessableContent && noDescription.errorField == "audio.description", "\(noDescription.raw)")
            let notBase64 = try await create(["description": "x", "data": "%%% not base64 %%%"])
            #expect(notBase64.status == .unprocessableContent && notBase64.errorField == "audio.data", "\(notBase64.raw)")
            let huge = try await create(["description": "x", "data": Data(count: 19 << 20).base64EncodedString()])
            #expect(huge.status == .contentTooLarge, "\(huge.raw.prefix(300))")
            #expect(try await env.store.topicQuestions(topicId: topicId)?.contains { $0.text == "Which band is this?" } == false)
            let folder = URL(fileURLWithPath: env.config.dataDirectory).appendingPathComponent("images")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            #expect(!files.contains { $0.hasSuffix(".wav") || $0.hasSuffix(".mp3") }, "\(files)")
        }
    }

    @Test func theQuestionFormTakesAClipAndThePlayPageShowsAPlayerThatWaits() async throws {
        try await withApp { client, env in
            let author = TestBrowser(client)
            try await author.register("writer")
            try await env.store.setRole(.author, username: "writer")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let (quizId, questions) = try await client.firstQuiz()
            let questionId = try #require(questions.first?["id"] as? Int)
            let form = try await author.get("/manage/questions/\(questionId)?quiz=\(quizId)")
            #expect(form.contains(#"name="sound""#) && form.contains(#"name="sound_description""#))
            let stored = try #require(try await env.store.managedQuestion(id: Int64(questionId)))
            func fields(description: String) -> [(String, String)] {
                var fields: [(String, String)] = [("quiz", "\(quizId)"), ("kind", stored.question.kind.rawValue), ("text", stored.question.text),
                                                  ("difficulty", "easy"), ("points", "1"), ("sound_description", description)]
                for (index, choice) in stored.question.body.choices.enumerated() {
                    fields.append(("choice_text", choice.text))
                    if choice.isCorrect { fields.append(("choice_correct", "\(index)")) }
                }
                return fields
            }
            let clip = [UInt8](SoundBytes.mp3(frames: 100))
            let noDescription = try await author.postMultipart("/manage/questions/\(questionId)", fields(description: ""),
                                                               file: ("song.mp3", clip), fileField: "sound")
            #expect(noDescription.status == .unprocessableContent)
            #expect(noDescription.contains(#"id="error-sound-description""#) && noDescription.contains(#"id="error-sound""#),
                    "asks for the description and the file again")
            let saved = try await author.postMultipart("/manage/questions/\(questionId)", fields(description: "Guitar riff, 3 s"),
                                                       file: ("song.mp3", clip), fileField: "sound")
            #expect(saved.status == .seeOther, "\(saved.html.prefix(2000))")
            let audio = try #require(try await env.store.managedQuestion(id: Int64(questionId))?.question.audio)
            #expect(audio.type == .mp3 && audio.description == "Guitar riff, 3 s")
            let edit = try await author.get("/manage/questions/\(questionId)?quiz=\(quizId)")
            #expect(edit.contains(#"src="\#(audio.url)""#) && edit.contains(#"name="remove_sound""#))

            let player = TestBrowser(client)
            try await player.register("ada")
            let start = try await player.post("/quizzes/\(quizId)/start", [])
            let attemptPath = try #require(start.location?.components(separatedBy: "/questions/").first)
            let page = try await player.get("\(attemptPath)/questions/\(questionId)")
            #expect(page.status == .ok)
            #expect(page.contains(#"<audio controls preload="metadata" src="\#(audio.url)""#))
            #expect(!page.html.contains("autoplay"))
            #expect(page.contains("Guitar riff, 3 s"), "the description for people who cannot hear it")
            #expect(page.headers[.contentSecurityPolicy]?.contains("media-src 'self'") == true)
        }
    }

    @Test func rangeHeadersAreReadAsTheStandardSays() {
        #expect(ByteRange.parse(nil, size: 100) == .whole)
        #expect(ByteRange.parse("bytes=0-9", size: 100) == .part(0...9))
        #expect(ByteRange.parse("bytes=90-200", size: 100) == .part(90...99))
        #expect(ByteRange.parse("bytes=-200", size: 100) == .part(0...99))
        #expect(ByteRange.parse("bytes=100-", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=9-3", size: 100) == .whole)
        #expect(ByteRange.parse("items=0-9", size: 100) == .whole)
        #expect(ByteRange.parse("bytes=a-b", size: 100) == .whole)
        #expect(ByteRange.parse("bytes=99999999999999999999-", size: 100) == .whole)
    }
}
