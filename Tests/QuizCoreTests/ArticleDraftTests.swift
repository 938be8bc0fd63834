import Foundation
import QuizCore
import Testing

@Suite struct ArticleDraftTests {
    func draft(title: String = "Moon landing", summary: String = "Men walk on the Moon.", source: String = "The Example Times",
               url: String = "https://example.org/moon", image: String? = nil, guid: String? = nil) -> ArticleDraft {
        ArticleDraft(title: title, summary: summary, sourceName: source, url: url, imageURL: image,
                     publishedAt: Date(timeIntervalSince1970: 0), guid: guid)
    }

    @Test func aCompleteDraftBreaksNoRule() {
        #expect(draft().validationErrors().isEmpty)
        #expect(draft(summary: "", image: "http://example.org/moon.jpg").validationErrors().isEmpty)
    }

    @Test func everyBrokenRuleIsReportedPerField() {
        let errors = draft(title: " ", summary: String(repeating: "s", count: 2_001), source: "", url: "javascript:alert(1)",
                           image: "data:image/png;base64,AAAA").validationErrors()
        #expect(errors.map(\.field) == ["title", "summary", "sourceName", "url", "imageUrl"])
        #expect(errors[0].message == "is empty")
        #expect(errors[1].message == "is longer than 2000 characters")
        #expect(errors[3].message.contains("http or https"))
    }

    @Test(arguments: ["javascript:alert(1)", "JAVASCRIPT://x.org/%0aalert(1)", "data:text/html,hi", "ftp://example.org/a",
                      "/relative/path", "http:example.org", "https://", "https://exa mple.org", "file:///etc/passwd", "vbscript:x"])
    func onlyAbsoluteHTTPAddressesAreArticleURLs(url: String) {
        #expect(draft(url: url).validationErrors().map(\.field) == ["url"])
        #expect(!ArticleDraft.isWebAddress(url))
    }

    @Test func limitsAreCountedInCharacters() {
        #expect(draft(title: String(repeating: "é", count: 300)).validationErrors().isEmpty)
        #expect(draft(title: String(repeating: "é", count: 301)).validationErrors().map(\.field) == ["title"])
        #expect(draft(source: String(repeating: "x", count: 201)).validationErrors().map(\.field) == ["sourceName"])
        #expect(draft(url: "https://example.org/" + String(repeating: "a", count: 2_000)).validationErrors().map(\.field) == ["url"])
    }

    @Test func controlCharactersAreRefusedInTitlesButSummariesMayBreakLines() {
        #expect(draft(title: "Moon\u{0}landing").validationErrors().map(\.field) == ["title"])
        #expect(draft(summary: "Line one\nLine two").validationErrors().isEmpty)
    }

    @Test func theDedupeKeyIsTheGUIDOrElseTheURL() {
        #expect(draft(guid: "tag:example.org,2026:1").dedupeKey == "tag:example.org,2026:1")
        #expect(draft(guid: "  ").dedupeKey == "https://example.org/moon")
        #expect(draft().dedupeKey == "https://example.org/moon")
    }
}
