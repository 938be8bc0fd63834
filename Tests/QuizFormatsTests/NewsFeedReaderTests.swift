import Foundation
import QuizCore
import QuizFormats
import Testing

/// Feeds shaped like real ones: a WordPress-style RSS 2.0 with CDATA, content:encoded and
/// Media RSS, and an Atom feed with xhtml content and relative links.
@Suite struct NewsFeedReaderTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"
             xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom">
        <channel>
          <title>The Example Times &amp; Post</title>
          <link>https://news.example.org/</link>
          <atom:link href="https://news.example.org/feed/" rel="self" type="application/rss+xml"/>
          <description>All the news</description>
          <lastBuildDate>Mon, 16 Nov 2026 08:00:00 +0000</lastBuildDate>
          <item>
            <title>Scientists find water on Mars&amp;#8217; moon</title>
            <link>https://news.example.org/2026/11/water-on-phobos</link>
            <dc:creator><![CDATA[Ada Lovelace]]></dc:creator>
            <pubDate>Sun, 15 Nov 2026 14:30:00 +0100</pubDate>
            <guid isPermaLink="false">https://news.example.org/?p=1234</guid>
            <description><![CDATA[<p>Ice was found <b>under</b> the surface &amp; more.</p><script>alert(1)</script>]]></description>
            <content:encoded><![CDATA[<p>The long version.</p>]]></content:encoded>
            <media:content url="https://cdn.example.org/phobos.jpg" medium="image" width="800"/>
          </item>
          <item>
            <title>Second story</title>
            <guid>https://news.example.org/second</guid>
            <pubDate>Sat, 14 Nov 26 09:00 GMT</pubDate>
            <description>Escaped &lt;em&gt;HTML&lt;/em&gt; summary</description>
            <enclosure url="https://cdn.example.org/second.png" length="1000" type="image/png"/>
          </item>
          <item>
            <title>No link at all</title>
            <description>An item Quizbox cannot send anyone to.</description>
          </item>
          <item>
            <title>Dangerous link</title>
            <link>javascript:alert(document.cookie)</link>
          </item>
          <item>
            <title>Odd date</title>
            <link>https://news.example.org/odd</link>
            <pubDate>sometime last week</pubDate>
          </item>
        </channel>
        </rss>
        """

    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
          <title type="text">Example Science Blog</title>
          <id>urn:uuid:60a76c80-d399-11d9-b91C-0003939e0af6</id>
          <updated>2026-11-10T18:30:02Z</updated>
          <entry>
            <title type="html">Atoms &lt;i&gt;and&lt;/i&gt; you</title>
            <link rel="alternate" type="text/html" href="/posts/atoms"/>
            <link rel="edit" href="https://blog.example.org/api/atoms"/>
            <link rel="enclosure" type="image/jpeg" href="https://blog.example.org/atoms.jpg"/>
            <id>tag:blog.example.org,2026:atoms</id>
            <published>2026-11-09T10:00:00.5+02:00</published>
            <updated>2026-11-10T10:00:00Z</updated>
            <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Everything is <strong>made</strong> of atoms.</p></div></content>
          </entry>
          <entry>
            <title>Plain &amp; simple</title>
            <link href="https://blog.example.org/plain"/>
            <id>tag:blog.example.org,2026:plain</id>
            <updated>2026-11-08T08:00:00Z</updated>
            <summary>Text with a &lt;tag&gt; that is text.</summary>
            <media:thumbnail url="https://blog.example.org/plain-thumb.jpg"/>
          </entry>
        </feed>
        """

    func read(_ text: String, url: String? = nil) throws -> NewsFeedReader.Feed {
        try NewsFeedReader(feedURL: url.flatMap(URL.init(string:)), now: Self.now).read(Data(text.utf8))
    }

    @Test func anRSSFeedBecomesArticles() throws {
        let feed = try read(Self.rss)
        #expect(feed.kind == .rss)
        #expect(feed.sourceName == "The Example Times & Post")
        #expect(feed.articles.count == 3)
        let first = feed.articles[0]
        #expect(first.title == "Scientists find water on Mars\u{2019} moon")
        #expect(first.url == "https://news.example.org/2026/11/water-on-phobos")
        #expect(first.guid == "https://news.example.org/?p=1234")
        #expect(first.summary == "Ice was found under the surface & more.")
        #expect(first.imageURL == "https://cdn.example.org/phobos.jpg")
        #expect(first.publishedAt == Date(timeIntervalSince1970: 1_794_749_400))  // 2026-11-15T13:30:00Z
        #expect(first.sourceName == "The Example Times & Post")
    }

    /// Feeds written by HTML tools use `&nbsp;` and friends, which XML leaves undefined.
    @Test func htmlNamedEntitiesOutsideCDATAAreRead() throws {
        let feed = try read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Caf&eacute;&nbsp;News &amp; more</title>
            <link>https://news.example.org/</link>
            <!-- &bogus; in a comment is no problem -->
            <item><title>It&rsquo;s here&hellip;</title><link>https://news.example.org/a</link>
            <description><![CDATA[Kept&nbsp;as written]]></description></item>
            </channel></rss>
            """)
        #expect(feed.sourceName == "Caf\u{E9} News & more", "a no-break space is a space in a name")
        #expect(feed.articles.first?.title == "It\u{2019}s here\u{2026}")
        // CDATA is left to the HTML reading of the summary, as before.
        #expect(feed.articles.first?.summary == "Kept as written")
        // A name HTML does not know is still malformed XML, reported with its line.
        #expect(throws: ImportError.self) {
            try read("<rss version=\"2.0\"><channel>\n<title>&bogus;</title></channel></rss>")
        }
    }

    @Test func aPermalinkGUIDIsTheLinkAndEscapedHTMLBecomesText() throws {
        let second = try read(Self.rss).articles[1]
        #expect(second.url == "https://news.example.org/second")
        #expect(second.dedupeKey == "https://news.example.org/second")
        #expect(second.summary == "Escaped HTML summary")
        #expect(second.imageURL == "https://cdn.example.org/second.png")
        #expect(second.publishedAt == Date(timeIntervalSince1970: 1_794_646_800))  // 2026-11-14T09:00:00Z
    }

    @Test func itemsWithoutAnHTTPLinkAreSkippedWithTheirLine() throws {
        let feed = try read(Self.rss)
        #expect(feed.skipped.count == 2)
        #expect(feed.skipped[0].line == 27)
        #expect(feed.skipped[0].message.contains("the item has no link"))
        #expect(feed.skipped[1].message.contains("\"Dangerous link\""))
        #expect(feed.skipped[1].message.contains("http or https"))
        #expect(!feed.articles.contains { $0.url.lowercased().hasPrefix("javascript") })
    }

    @Test func anUnreadableDateIsAWarningAndTheChannelDateIsUsed() throws {
        let feed = try read(Self.rss)
        let odd = try #require(feed.articles.last)
        #expect(odd.title == "Odd date")
        #expect(odd.publishedAt == Date(timeIntervalSince1970: 1_794_816_000))  // lastBuildDate 2026-11-16T08:00:00Z
        #expect(feed.warnings.count == 1)
        #expect(feed.warnings[0].message.contains("sometime last week"))
    }

    @Test func anAtomFeedBecomesArticles() throws {
        let feed = try read(Self.atom, url: "https://blog.example.org/feed.atom")
        #expect(feed.kind == .atom)
        #expect(feed.sourceName == "Example Science Blog")
        #expect(feed.articles.count == 2)
        let first = feed.articles[0]
        #expect(first.title == "Atoms and you")
        #expect(first.url == "https://blog.example.org/posts/atoms")
        #expect(first.guid == "tag:blog.example.org,2026:atoms")
        #expect(first.summary == "Everything is made of atoms.")
        #expect(first.imageURL == "https://blog.example.org/atoms.jpg")
        #expect(first.publishedAt == Date(timeIntervalSince1970: 1_794_211_200.5))  // 2026-11-09T08:00:00.5Z
        let second = feed.articles[1]
        #expect(second.title == "Plain & simple")
        #expect(second.summary == "Text with a <tag> that is text.")
        #expect(second.imageURL == "https://blog.example.org/plain-thumb.jpg")
        #expect(second.publishedAt == Date(timeIntervalSince1970: 1_794_124_800))
    }

    @Test func aRelativeAtomLinkWithoutTheFeedsAddressIsSkipped() throws {
        let feed = try read(Self.atom)
        #expect(feed.articles.map(\.title) == ["Plain & simple"])
        #expect(feed.skipped.first?.line == 6)
    }

    @Test func longSummariesAreCutAtAWord() throws {
        let words = Array(repeating: "word", count: 400).joined(separator: " ")
        let feed = try read("""
            <rss version="2.0"><channel><title>T</title><item><title>\(String(repeating: "t", count: 400))</title>
            <link>https://e.org/1</link><description>\(words)</description></item></channel></rss>
            """)
        let article = try #require(feed.articles.first)
        #expect(article.summary.count <= NewsFeedReader.maxSummaryLength)
        #expect(article.summary.hasSuffix("word…"))
        #expect(article.title.count == ArticleDraft.maxTitleLength)
        #expect(article.publishedAt == Self.now)
    }

    @Test func brokenXMLIsReportedWithItsLine() throws {
        #expect { try read("<rss version=\"2.0\"><channel>\n<title>T</title>\n<item><title>Unclosed</item></channel></rss>") } throws: {
            guard let error = $0 as? ImportError, let problem = error.problems.first else { return false }
            return problem.line == 3 && problem.message.contains("closing tag does not match <title>")
        }
    }

    @Test func aDocumentThatIsNeitherRSSNorAtomIsRefused() throws {
        #expect { try read("<?xml version=\"1.0\"?>\n<html><body>Not a feed</body></html>") } throws: {
            guard let problem = ($0 as? ImportError)?.problems.first else { return false }
            return problem.line == 2 && problem.message.contains("neither an RSS nor an Atom feed")
        }
        #expect { try read("{\"items\": []}") } throws: { $0 is ImportError }
        #expect { try read("  \n") } throws: { ($0 as? ImportError)?.problems.first?.message == "the document is empty" }
    }

    @Test func entitiesAreNeverDeclaredSoNoExternalFileIsRead() throws {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <rss version="2.0"><channel><title>&secret;</title><item><title>x</title><link>https://e.org/x</link></item></channel></rss>
            """
        #expect { try read(xxe) } throws: {
            guard let problem = ($0 as? ImportError)?.problems.first else { return false }
            return problem.line == 2 && problem.message.contains("DOCTYPE")
        }
    }

    @Test func aHugeFeedIsRefusedBeforeParsing() throws {
        let reader = NewsFeedReader(maxBytes: 1_000, now: Self.now)
        #expect { try reader.read(Data(repeating: 0x20, count: 1_001)) } throws: {
            ($0 as? ImportError)?.problems.first?.message.contains("over the import limit") == true
        }
    }

    @Test func onlyTheFirstThousandItemsAreRead() throws {
        let items = (0..<1_005).map { "<item><title>Story \($0)</title><link>https://e.org/\($0)</link></item>" }.joined()
        let feed = try read("<rss version=\"2.0\"><channel><title>Many</title>\(items)</channel></rss>")
        #expect(feed.articles.count == NewsFeedReader.maxItems)
        #expect(feed.warnings.first?.message.contains("5 more were left out") == true)
    }

    @Test func anRSS1FeedIsReadToo() throws {
        let feed = try read("""
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="https://e.org/"><title>Old School</title></channel>
              <item rdf:about="https://e.org/1"><title>One</title><link>https://e.org/1</link><dc:date>2026-01-02T03:04:05Z</dc:date></item>
            </rdf:RDF>
            """)
        #expect(feed.sourceName == "Old School")
        #expect(feed.articles.map(\.url) == ["https://e.org/1"])
        #expect(feed.articles.first?.publishedAt == Date(timeIntervalSince1970: 1_767_323_045))
    }
}

extension NewsFeedReaderTests {
    @Test func manySkippedItemsEndWithHowManyMoreThereWere() throws {
        let items = (0..<150).map { "<item><title>No link \($0)</title></item>" }.joined(separator: "\n")
        let feed = try read("<rss version=\"2.0\"><channel><title>Empty</title>\n\(items)\n</channel></rss>")
        #expect(feed.articles.isEmpty)
        #expect(feed.skipped.count == ImportError.maxProblems + 1)
        #expect(feed.skipped.first?.line == 2)
        #expect(feed.skipped.last?.message == "…and 50 more items left out")
    }
}
