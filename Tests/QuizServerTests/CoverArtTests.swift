import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import QuizCore
@testable import QuizServer
import QuizStore
import Testing

/// Subjects and quizzes without a picture get a cover drawn from their name.
@Suite struct CoverArtTests {
    @Test func theSameNameAlwaysGetsTheSameCoverAndNamesSpreadOverThemAll() {
        #expect(CoverArt("Astronomy") == CoverArt("Astronomy"))
        #expect(CoverArt("Astronomy") == CoverArt("ASTRONOMY"), "a name's case does not change its cover")
        #expect(CoverArt("  ölkkärit").initial == "Ö")
        #expect(CoverArt("").initial == "?")
        let covers = (1...200).map { CoverArt("Quiz number \($0)") }
        #expect(Set(covers.map(\.colour)) == Set(0..<CoverArt.colours))
        #expect(Set(covers.map(\.pattern)) == Set(0..<CoverArt.patterns))
        // The FNV-1a hash is fixed: a cover does not change between runs or machines.
        #expect(CoverArt("Science").classes == "cover cover-c\(CoverArt("Science").colour) cover-p\(CoverArt("Science").pattern)")
    }

    @Test func subjectTilesAndQuizListsShowTheirCovers() async throws {
        try await withApp { client, _ in
            let browser = TestBrowser(client)
            try await browser.register("coverfan")
            let home = try await browser.get("/home")
            #expect(home.contains(#"<span class="\#(CoverArt("Science").classes)" aria-hidden="true">S</span>"#))
            let quizzes = try await browser.get("/quizzes")
            #expect(quizzes.contains(#"<span class="\#(CoverArt("Planets").classes) cover-small" aria-hidden="true">P</span>"#))
            let subject = try await browser.get("/subjects/1")
            #expect(subject.contains(#"<span class="\#(CoverArt("Planets").classes) cover-small" aria-hidden="true">P</span>"#))
        }
    }

    /// A real 8×6 PNG.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAAEUlEQVR4nGMQUDDAihgGUgIAQOESAYIG6jMAAAAASUVORK5CYII=")!

    @Test func anAuthorSetsAndRemovesCoversThatPlayersSeeOnTheTiles() async throws {
        try await withApp { client, env in
            let author = TestBrowser(client)
            try await author.register("coverauthor")
            try await env.store.setRole(.author, username: "coverauthor")
            env.time.advance(by: env.config.resolvedCacheLifetime + 0.1)
            let player = TestBrowser(client)
            try await player.register("coverplayer")

            // Before: the drawn cover, and the form to send a picture.
            let page = try await author.get("/manage/subjects/1")
            #expect(page.contains(#"id="cover-drawn""#) && page.contains(#"action="/manage/subjects/1/cover""#))
            let none = try await author.postMultipart("/manage/subjects/1/cover", [], file: nil, fileField: "cover")
            #expect(none.status == .unprocessableContent && none.contains(#"id="error-cover" role="alert">Choose a picture first."#))
            let svg = try await author.postMultipart("/manage/subjects/1/cover", [], file: ("x.svg", Array("<svg onload=alert(1)/>".utf8)),
                                                     fileField: "cover")
            #expect(svg.status == .unprocessableContent && svg.contains("The cover is not a PNG, JPEG or WebP image"))

            let set = try await author.postMultipart("/manage/subjects/1/cover", [], file: ("c.png", Array(Self.png)), fileField: "cover")
            #expect(set.location == "/manage/subjects/1?done=cover")
            let after = try await author.get("/manage/subjects/1?done=cover")
            #expect(after.contains(#"id="cover-picture""#) && after.contains(#"id="remove-cover""#))
            let quizCover = try await author.postMultipart("/manage/quizzes/1/cover", [], file: ("q.png", Array(Self.png)), fileField: "cover")
            #expect(quizCover.location == "/manage/quizzes/1?done=cover")

            // Players see the pictures, sized, on the home tile and in the quiz lists; the file is served.
            let cover = try #require(try await env.store.cover(.subject, id: 1))
            #expect(cover.width == 8 && cover.height == 6)
            let home = try await player.get("/home")
            #expect(home.contains(#"<img class="cover cover-picture" src="\#(cover.url)" width="8" height="6" alt="" loading="lazy">"#))
            #expect(try await player.get("/quizzes").contains(#"<img class="cover-small cover-picture" src="\#(cover.url)""#))
            let subjects = try await client.execute(uri: "/api/v1/subjects", method: .get) { Data($0.body.readableBytesView) }
            let listed = (try JSONSerialization.jsonObject(with: subjects) as? [String: Any])?["subjects"] as? [[String: Any]]
            let apiCover = try #require(listed?.first { $0["id"] as? Int == 1 }?["cover"] as? [String: Any], "\(String(decoding: subjects, as: UTF8.self))")
            #expect(apiCover["url"] as? String == cover.url && apiCover["width"] as? Int == 8 && apiCover["height"] as? Int == 6)
            let served = try await client.execute(uri: cover.url, method: .get) { $0 }
            #expect(served.status == .ok && Data(served.body.readableBytesView) == Self.png)
            #expect(try await player.postMultipart("/manage/subjects/1/cover", [], file: ("c.png", Array(Self.png)), fileField: "cover").status
                    == .forbidden, "players cannot")

            let removed = try await author.postMultipart("/manage/subjects/1/cover", [("remove", "1")], file: nil, fileField: "cover")
            #expect(removed.location == "/manage/subjects/1?done=cover-removed")
            #expect(try await env.store.cover(.subject, id: 1) == nil)
            #expect(try await player.get("/home").contains(#"<span class="\#(CoverArt("Science").classes)" aria-hidden="true">S</span>"#))
            #expect(try await env.store.cover(.quiz, id: 1) != nil, "the quiz keeps its own")
        }
    }
}
