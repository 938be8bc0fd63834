import Foundation
import QuizCore
import QuizFormats
import QuizStore
import QuizTestSupport
import QuizUseCases
import Testing

/// A question's picture on the use case: checked from its bytes, stored by its hash, kept,
/// replaced or removed on edit, never stored with a question that breaks a rule.
@Suite struct QuestionPictureTests {
    typealias Failure = QuestionAuthoring.Failure

    func draft(picture: Data?, alt: String?) -> QuestionDraft {
        var draft = QuestionDraft()
        draft.kind = .typedAnswer
        draft.text = "Which planet is this?"
        draft.answers = ["Saturn"]
        if let picture { draft.picture = .replace(picture) }
        draft.pictureAlt = alt
        return draft
    }

    @Test func aPictureIsStoredByItsHashWithItsSizeAndAlt() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let rome = try await env.rome(by: author)
            let bytes = PictureBytes.png(width: 640, height: 480)
            let stored = try await env.questions.create(draft(picture: bytes, alt: "  A ringed planet "), inTopic: rome.quiz.topicId, by: author)
            let picture = try #require(stored.question.picture)
            #expect(picture.width == 640 && picture.height == 480)
            #expect(picture.alt == "A ringed planet")
            #expect(picture.type == .png)
            #expect(!picture.url.contains("Saturn") && picture.url.hasSuffix(".png") && picture.hash.count == 64)
            #expect(env.pictures.image(named: picture.fileName)?.data == bytes)
            let reread = try await env.questions.question(try #require(stored.question.id), by: author).question
            #expect(reread.picture == picture)
        }
    }

    @Test func aPictureWithoutAltOrThatIsNoImageIsRefusedWithEveryOtherProblemAndStoresNothing() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let rome = try await env.rome(by: author)
            var noAlt = draft(picture: PictureBytes.png(width: 10, height: 10), alt: "")
            noAlt.text = ""
            let refused = await failure(Failure.self) { _ = try await env.questions.create(noAlt, inTopic: rome.quiz.topicId, by: author) }
            guard case .invalid(let errors) = refused else { Issue.record("\(String(describing: refused))"); return }
            #expect(errors.map(\.field) == ["text", "picture.alt"])
            let svg = Data("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><script>alert(1)</script></svg>".utf8)
            let notImage = await failure(Failure.self) { _ = try await env.questions.create(draft(picture: svg, alt: "x"), inTopic: rome.quiz.topicId, by: author) }
            guard case .invalid(let svgErrors) = notImage else { Issue.record("\(String(describing: notImage))"); return }
            #expect(svgErrors.map(\.field) == ["picture"])
            let huge = Data(PictureBytes.png(width: 10, height: 10) + Data(count: PostImageType.maxBytes))
            let tooLarge = await failure(Failure.self) { _ = try await env.questions.create(draft(picture: huge, alt: "x"), inTopic: rome.quiz.topicId, by: author) }
            guard case .invalid(let largeErrors) = tooLarge else { Issue.record("\(String(describing: tooLarge))"); return }
            #expect(largeErrors.first?.message.contains("5 MiB") == true)
            let giant = await failure(Failure.self) {
                _ = try await env.questions.create(draft(picture: PictureBytes.png(width: 100_000, height: 10), alt: "x"), inTopic: rome.quiz.topicId, by: author)
            }
            #expect(giant != nil)
            #expect(try await env.questions.bank(ofTopic: rome.quiz.topicId, by: author).count == 2, "nothing was stored")
            #expect((try? FileManager.default.contentsOfDirectory(atPath: env.pictures.directory.path))?.isEmpty ?? true, "no file either")
        }
    }

    @Test func editingKeepsReplacesOrRemovesThePicture() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let rome = try await env.rome(by: author)
            let created = try await env.questions.create(draft(picture: PictureBytes.png(width: 4, height: 3), alt: "Rings"),
                                                        inTopic: rome.quiz.topicId, by: author)
            let id = try #require(created.question.id)
            // Sent without a picture (as an older client would): the picture stays, its alt may change.
            var edit = draft(picture: nil, alt: "Saturn's rings, seen from Cassini")
            var saved = try await env.questions.update(id, to: edit, by: author).question
            #expect(saved.picture?.hash == created.question.picture?.hash)
            #expect(saved.picture?.alt == "Saturn's rings, seen from Cassini")
            edit.picture = .replace(PictureBytes.jpeg(width: 800, height: 600))
            saved = try await env.questions.update(id, to: edit, by: author).question
            #expect(saved.picture?.type == .jpeg && saved.picture?.width == 800)
            edit.picture = .remove
            saved = try await env.questions.update(id, to: edit, by: author).question
            #expect(saved.picture == nil)
        }
    }

    @Test func anAuthorAddsAtMostSoManyPicturesAnHour() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let rome = try await env.rome(by: author)
            let questions = QuestionAuthoring(store: env.store, time: env.time, images: env.pictures,
                                              limiter: RateLimiter(limit: 100, window: 60, time: env.time))
            for index in 0..<QuestionAuthoring.picturesPerHour {
                _ = try await questions.create(draft(picture: PictureBytes.png(width: index + 1, height: 1), alt: "dot"),
                                               inTopic: rome.quiz.topicId, by: author)
            }
            #expect(await failure(Failure.self) {
                _ = try await questions.create(draft(picture: PictureBytes.png(width: 1, height: 2), alt: "dot"), inTopic: rome.quiz.topicId, by: author)
            } == .tooManyPictures)
            // Without a new picture the author still writes questions.
            _ = try await questions.create(draft(picture: nil, alt: nil), inTopic: rome.quiz.topicId, by: author)
        }
    }

    /// A real 8×6 PNG, as a Moodle export embeds it.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAAEUlEQVR4nGMQUDDAihgGUgIAQOESAYIG6jMAAAAASUVORK5CYII=")!

    static func moodle(_ file: Data, name: String = "Picture") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <quiz>
          <question type="category"><category><text>$course$/top/Space/Planets</text></category></question>
          <question type="shortanswer">
            <name><text>\(name)</text></name>
            <questiontext format="html">
              <text><![CDATA[<p>Which planet is this?</p><img src="@@PLUGINFILE@@/p.png" alt="Rings">]]></text>
              <file name="p.png" path="/" encoding="base64">\(file.base64EncodedString())</file>
            </questiontext>
            <answer fraction="100"><text>Saturn</text></answer>
          </question>
        </quiz>
        """
    }

    @Test func aMoodleXMLImportStoresItsPictureAndTheExportEmbedsItBack() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let preview = try await env.importBank().preview(.pasted(Self.moodle(Self.png)), .init(), by: author)
            #expect(preview.bank.subjects.first?.topics.first?.quizzes.first?.questions.first?.picture?.hash.count == 64)
            #expect((try? FileManager.default.contentsOfDirectory(atPath: env.pictures.directory.path))?.isEmpty ?? true,
                    "a preview writes no file")
            _ = try await env.importBank()(.pasted(Self.moodle(Self.png)), .init(), by: author)
            let topicId = try #require(try await env.store.outline().first { $0.name == "Space" }?.topics.first?.id)
            let stored = try #require(try await env.questions.bank(ofTopic: topicId, by: author).first?.picture)
            #expect(stored.alt == "Rings" && stored.width == 8 && stored.height == 6 && stored.data == nil)
            #expect(env.pictures.image(named: stored.fileName)?.data == Self.png)

            let exported = try await ExportBank(store: env.store, images: env.pictures)(.topic(topicId), as: .moodleXML, by: author)
            let text = String(decoding: exported.data, as: UTF8.self)
            #expect(text.contains(Self.png.base64EncodedString()) && text.contains(#"alt="Rings""#))
            let csv = try await ExportBank(store: env.store, images: env.pictures)(.topic(topicId), as: .csv, by: author)
            #expect(csv.skipped.contains { $0.message.contains("picture was left out") })
        }
    }

    @Test func aCSVsPicturesAreDownloadedBeforeTheImportAndOneThatFailsStopsItOrIsSkipped() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let csv = """
                question,option1,option2,answer,subject,topic,image,image_alt
                Which planet has rings?,Saturn,Mars,Saturn,Space,Planets,https://pictures.example/saturn.png,Rings
                Which has a moon called Phobos?,Saturn,Mars,Mars,Space,Planets,https://pictures.example/saturn.png,Rings again
                Which is the hottest?,Venus,Mars,Venus,Space,Planets,https://pictures.example/gone.png,Clouds
                """
            var downloader = FakeDownloader()
            downloader.files["https://pictures.example/saturn.png"] = .success(Self.png)
            downloader.files["https://pictures.example/gone.png"] = .failure(.unreachable("the connection was refused"))
            let importer = env.importBank(downloader)

            // One picture cannot be loaded: nothing is stored, and the preview says which and why.
            let failed = await failure(ImportBank.Failure.self) { _ = try await importer.preview(.pasted(csv), .init(), by: author) }
            guard case .unreadable(let unreadable)? = failed else { Issue.record("\(String(describing: failed))"); return }
            #expect(unreadable.problems.map(\.question) == ["Which is the hottest?"])
            #expect(unreadable.problems.first?.message == "its image https://pictures.example/gone.png could not be loaded: the connection was refused")
            #expect(unreadable.importableBySkipping == 2)
            #expect(try await env.store.outline().contains { $0.name == "Space" } == false)

            // Skipping: the two others come with their picture (one file, named twice).
            var skipping = ImportBank.Options()
            skipping.skipInvalid = true
            let report = try await importer(.pasted(csv), skipping, by: author)
            #expect(report.imported?.questions == 2)
            #expect(report.skipped.map(\.question) == ["Which is the hottest?"])
            let topicId = try #require(try await env.store.outline().first { $0.name == "Space" }?.topics.first?.id)
            let stored = try await env.questions.bank(ofTopic: topicId, by: author).compactMap(\.picture)
            #expect(stored.map(\.alt).sorted() == ["Rings", "Rings again"])
            #expect(stored.allSatisfy { $0.width == 8 && $0.height == 6 && $0.address == nil && env.pictures.image(named: $0.fileName)?.data == Self.png })

            // What answers is not a picture: refused from its bytes.
            downloader.files["https://pictures.example/gone.png"] = .success(Data("<svg onload=alert(1)>".utf8))
            let notImage = await failure(ImportBank.Failure.self) { _ = try await env.importBank(downloader).preview(.pasted(csv), .init(), by: author) }
            guard case .unreadable(let refused)? = notImage else { Issue.record("\(String(describing: notImage))"); return }
            #expect(refused.problems.first?.message.contains("is not a PNG, JPEG or WebP image") == true)
        }
    }

    @Test func aFileNamingTooManyPictureAddressesIsRefusedWhole() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let rows = (1...(PictureDownloads.maxAddresses + 1)).map { "Q\($0)?,A,B,A,https://pictures.example/\($0).png" }
            let csv = (["question,option1,option2,answer,image"] + rows).joined(separator: "\n")
            var skipping = ImportBank.Options()
            skipping.skipInvalid = true
            let failed = await failure(ImportBank.Failure.self) { _ = try await env.importBank().preview(.pasted(csv), skipping, by: author) }
            guard case .unreadable(let unreadable)? = failed else { Issue.record("\(String(describing: failed))"); return }
            #expect(unreadable.problems.first?.message == "the file names 101 picture addresses; at most 100 are downloaded in one import")
        }
    }
}
