import HummingbirdTesting
@testable import QuizServer
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
}
