import Foundation
import QuizCore

/// Reads a news feed, RSS 2.0 (also 0.9x and RSS 1.0/RDF) or Atom 1.0, into article drafts.
///
/// Per item (RSS `<item>`, Atom `<entry>`):
/// - title: RSS `<title>` as plain text (character references such as `&amp;#8217;`, which feeds
///   often escape twice, are decoded); Atom `<title>` by its `type` (text, html, xhtml).
/// - link: RSS `<link>`, or a `<guid isPermaLink="true">` (the default) that is an http(s)
///   address; Atom the `<link rel="alternate">` (a link without `rel` is one), else the first
///   `<link>`. Relative links are resolved against the feed's address when it is known.
/// - guid: RSS `<guid>`, Atom `<id>`; without one the article is known by its link.
/// - summary: RSS `<description>`, else `<content:encoded>`; Atom `<summary>`, else `<content>`.
///   HTML becomes plain text on one line (tags dropped, references decoded, spaces collapsed) and
///   is cut at a word to `maxSummaryLength` characters with "…".
/// - published: RSS `<pubDate>` or `<dc:date>` (RFC 822, or RFC 3339 for dc:date); Atom
///   `<published>`, else `<updated>` (RFC 3339). Without one (or one that cannot be read, with a
///   warning) the channel's own date, else `now`.
/// - image: an `<enclosure>` or Atom `<link rel="enclosure">` whose type is an image, a
///   `<media:content>` that is an image, or a `<media:thumbnail>`; only http(s) addresses.
/// - source name: the channel's or feed's `<title>`, else `fallbackSource`.
///
/// An item without a title or an http(s) link, or that `ArticleDraft` refuses, is left out and
/// reported in `skipped` with its line; over-long titles are cut to fit first. The document as a
/// whole fails (`ImportError`) when it is too large, not XML (with the parser's line and column),
/// has a DOCTYPE (so no entity is ever declared or fetched: no XXE), or is neither RSS nor Atom.
public struct NewsFeedReader: Sendable {
    public static let defaultMaxBytes = 10 << 20
    public static let maxItems = 1_000
    public static let maxSummaryLength = 500

    public var maxBytes: Int
    /// The feed's own address: relative links are resolved against it, and its host names the
    /// source when the feed has no title.
    public var feedURL: URL?
    /// The date of items (and feeds) without one.
    public var now: Date

    public init(maxBytes: Int = NewsFeedReader.defaultMaxBytes, feedURL: URL? = nil, now: Date = Date()) {
        self.maxBytes = maxBytes
        self.feedURL = feedURL
        self.now = now
    }

    /// What a feed held.
    public struct Feed: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            case rss, atom
        }

        public var kind: Kind
        public var sourceName: String
        /// In document order, all valid.
        public var articles: [ArticleDraft]
        /// Items left out, with their line and why.
        public var skipped: [FormatProblem]
        /// Things read differently than written (a date that could not be read, items past the limit).
        public var warnings: [FormatProblem]
    }

    static let options = MoodleXMLTreeBuilder.Options(
        rawTextElements: ["title", "description", "summary", "content", "content:encoded", "subtitle"],
        droppedTextElements: [],
        noElement: "the document holds no XML element: is it an RSS or Atom feed?",
        doctype: "a <!DOCTYPE> declaration, which RSS and Atom feeds do not need: it is refused so no entity is ever loaded"
    )

    public func read(_ data: Data) throws(ImportError) -> Feed {
        guard data.count <= maxBytes else { throw .tooLarge(size: data.count, limit: maxBytes) }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            throw ImportError(problems: [FormatProblem(message: "the document is empty")])
        }
        let root: MoodleXMLElement
        switch MoodleXMLElement.parseDocument(Self.declaringHTMLEntities(data), options: Self.options) {
        case .failure(let problem):
            throw ImportError(problems: [problem])
        case .success(nil):
            throw ImportError(problems: [FormatProblem(message: Self.options.noElement)])
        case .success(let element?):
            root = element
        }
        var session = FeedSession(reader: self)
        switch root.name {
        case "rss":
            guard let channel = root.child("channel") else {
                throw ImportError(problems: [FormatProblem(line: root.line, message: "the <rss> element has no <channel>")])
            }
            return session.readRSS(channel: channel, items: channel.children("item"))
        case "rdf:RDF":
            guard let channel = root.child("channel") else {
                throw ImportError(problems: [FormatProblem(line: root.line, message: "the RSS 1.0 document has no <channel>")])
            }
            return session.readRSS(channel: channel, items: root.children("item"))
        case "feed":
            return session.readAtom(feed: root, prefix: "")
        case let name where name.hasSuffix(":feed"):
            return session.readAtom(feed: root, prefix: String(name.dropLast(4)))
        default:
            let message = "the root element is <\(root.name)>, not <rss> or <feed>: this is neither an RSS nor an Atom feed"
            throw ImportError(problems: [FormatProblem(line: root.line, message: message)])
        }
    }
}

extension NewsFeedReader {
    /// The feed with HTML's named character references that XML does not define (`&nbsp;`,
    /// `&eacute;`, `&rsquo;` …) written as numeric ones, which XML reads without a DTD. Many feeds
    /// are written by HTML tools and use them; an XML parser stops at the first. Text in CDATA
    /// sections and comments stays as written, as do XML's own five and names HTML does not know
    /// (the parser then reports the feed as malformed, with the line). Nothing moves across a line.
    static func declaringHTMLEntities(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let ampersand = UInt8(ascii: "&"), semicolon = UInt8(ascii: ";"), less = UInt8(ascii: "<")
        let cdata = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
        let comment = Array("<!--".utf8), commentEnd = Array("-->".utf8)
        func starts(_ prefix: [UInt8], at index: Int) -> Bool {
            index + prefix.count <= bytes.count && bytes[index..<(index + prefix.count)].elementsEqual(prefix)
        }
        func skip(past end: [UInt8], from index: Int) -> Int {
            var i = index
            while i < bytes.count, !starts(end, at: i) { i += 1 }
            return min(i + end.count, bytes.count)
        }
        var output: [UInt8] = []
        var copied = 0
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == less {
                if starts(cdata, at: i) { i = skip(past: cdataEnd, from: i + cdata.count); continue }
                if starts(comment, at: i) { i = skip(past: commentEnd, from: i + comment.count); continue }
                i += 1
                continue
            }
            guard byte == ampersand else { i += 1; continue }
            var end = i + 1
            while end < bytes.count, end - i <= 9, bytes[end].isASCIILetterOrDigit { end += 1 }
            guard end < bytes.count, bytes[end] == semicolon, end > i + 1,
                  let name = String(bytes: bytes[(i + 1)..<end], encoding: .ascii),
                  !["amp", "lt", "gt", "quot", "apos"].contains(name),
                  let value = HTMLEntities.named[name] else { i += 1; continue }
            output.append(contentsOf: bytes[copied..<i])
            output.append(contentsOf: Array("&#\(value);".utf8))
            i = end + 1
            copied = i
        }
        if copied == 0 { return data }
        output.append(contentsOf: bytes[copied...])
        return Data(output)
    }

    /// One reading: what was kept, skipped and warned about.
    private struct FeedSession {
        let reader: NewsFeedReader
        var skipped = ProblemList()
        var warnings: [FormatProblem] = []

        init(reader: NewsFeedReader) {
            self.reader = reader
        }

        mutating func readRSS(channel: MoodleXMLElement, items: [MoodleXMLElement]) -> Feed {
            let source = sourceName(channel.child("title").map { FeedText.plain($0.text) })
            let channelDate = (channel.child("pubDate") ?? channel.child("lastBuildDate")).flatMap { FeedDate.rfc822($0.text) }
                ?? channel.child("dc:date").flatMap { FeedDate.rfc3339($0.text) }
            var articles: [ArticleDraft] = []
            for item in limited(items) {
                let title = item.child("title").map { FeedText.plain($0.text) } ?? ""
                let guidElement = item.child("guid")
                let guid = guidElement.map { FeedText.trimmed($0.text) }.flatMap { $0.isEmpty ? nil : $0 }
                var link = item.child("link").map { FeedText.trimmed($0.text) }.flatMap { $0.isEmpty ? nil : $0 }
                if link == nil, let guid, guidElement?.attributes["isPermaLink"]?.lowercased() != "false",
                   ArticleDraft.isWebAddress(guid) {
                    link = guid
                }
                let summary = (item.child("description") ?? item.child("content:encoded")).map { FeedText.html($0.text) } ?? ""
                var published: Date?
                if let pubDate = item.child("pubDate") {
                    published = FeedDate.rfc822(pubDate.text) ?? FeedDate.rfc3339(pubDate.text)
                    if published == nil { warnDate(pubDate) }
                } else if let dcDate = item.child("dc:date") {
                    published = FeedDate.rfc3339(dcDate.text) ?? FeedDate.rfc822(dcDate.text)
                    if published == nil { warnDate(dcDate) }
                }
                var image: String?
                for enclosure in item.children("enclosure") where enclosure.attributes["type"]?.lowercased().hasPrefix("image/") == true {
                    if let url = enclosure.attributes["url"] { image = image ?? resolved(url) }
                }
                image = image ?? mediaImage(item)
                add(ArticleDraft(title: title, summary: summary, sourceName: source, url: link.map { resolved($0) } ?? "",
                                 imageURL: image, publishedAt: published ?? channelDate ?? reader.now, guid: guid),
                    line: item.line, to: &articles)
            }
            return Feed(kind: .rss, sourceName: source, articles: articles, skipped: skippedList, warnings: warnings)
        }

        mutating func readAtom(feed: MoodleXMLElement, prefix: String) -> Feed {
            func child(_ element: MoodleXMLElement, _ name: String) -> MoodleXMLElement? { element.child(prefix + name) }
            let source = sourceName(child(feed, "title").map(FeedText.atomText))
            let feedDate = child(feed, "updated").flatMap { FeedDate.rfc3339($0.text) }
            var articles: [ArticleDraft] = []
            for entry in limited(feed.children(prefix + "entry")) {
                let title = child(entry, "title").map(FeedText.atomText) ?? ""
                let links = entry.children(prefix + "link")
                let alternate = links.first { ($0.attributes["rel"] ?? "alternate") == "alternate" } ?? links.first
                let link = alternate?.attributes["href"].map(FeedText.trimmed)
                let guid = child(entry, "id").map { FeedText.trimmed($0.text) }.flatMap { $0.isEmpty ? nil : $0 }
                let summary = (child(entry, "summary") ?? child(entry, "content")).map(FeedText.atomText) ?? ""
                var published: Date?
                if let stamp = child(entry, "published") ?? child(entry, "updated") {
                    published = FeedDate.rfc3339(stamp.text)
                    if published == nil { warnDate(stamp) }
                }
                var image = links.first {
                    $0.attributes["rel"] == "enclosure" && $0.attributes["type"]?.lowercased().hasPrefix("image/") == true
                }?.attributes["href"].map { resolved($0) }
                image = image ?? mediaImage(entry)
                add(ArticleDraft(title: title, summary: summary, sourceName: source, url: link.map { resolved($0) } ?? "",
                                 imageURL: image, publishedAt: published ?? feedDate ?? reader.now, guid: guid),
                    line: entry.line, to: &articles)
            }
            return Feed(kind: .atom, sourceName: source, articles: articles, skipped: skippedList, warnings: warnings)
        }

        /// The items left out, at most `ImportError.maxProblems`, then how many more there were.
        private var skippedList: [FormatProblem] {
            skipped.problems + (skipped.omittedCount > 0 ? [FormatProblem(message: "…and \(skipped.omittedCount) more items left out")] : [])
        }

        private mutating func limited(_ items: [MoodleXMLElement]) -> ArraySlice<MoodleXMLElement> {
            if items.count > NewsFeedReader.maxItems {
                warnings.append(FormatProblem(line: items[NewsFeedReader.maxItems].line,
                                              message: "only the first \(NewsFeedReader.maxItems) items are read; \(items.count - NewsFeedReader.maxItems) more were left out"))
            }
            return items.prefix(NewsFeedReader.maxItems)
        }

        private func sourceName(_ title: String?) -> String {
            let name = FeedText.cut(title ?? "", to: ArticleDraft.maxSourceLength, ellipsis: false)
            if !name.isEmpty { return name }
            return reader.feedURL?.host ?? "Unknown source"
        }

        /// The image of Media RSS, inside the item or a `<media:group>`.
        private func mediaImage(_ item: MoodleXMLElement) -> String? {
            let candidates = item.children + item.children("media:group").flatMap(\.children)
            for element in candidates where element.name == "media:content" {
                let type = element.attributes["type"]?.lowercased() ?? ""
                if element.attributes["medium"] == "image" || type.hasPrefix("image/"), let url = element.attributes["url"] {
                    return resolved(url)
                }
            }
            return candidates.first { $0.name == "media:thumbnail" }?.attributes["url"].map { resolved($0) }
        }

        /// An address resolved against the feed's, when it is relative and the feed's is known.
        private func resolved(_ address: String) -> String {
            let trimmed = FeedText.trimmed(address)
            guard !ArticleDraft.isWebAddress(trimmed), let base = reader.feedURL,
                  let absolute = URL(string: trimmed, relativeTo: base)?.absoluteURL.absoluteString,
                  ArticleDraft.isWebAddress(absolute) else { return trimmed }
            return absolute
        }

        private mutating func warnDate(_ element: MoodleXMLElement) {
            guard warnings.count < ImportError.maxProblems else { return }
            let text = FormatProblem.excerpt(FeedText.trimmed(element.text), limit: 40)
            warnings.append(FormatProblem(line: element.line, message: "<\(element.name)> \"\(text)\" is not a date Quizbox can read; the feed's date is used"))
        }

        private mutating func add(_ draft: ArticleDraft, line: Int, to articles: inout [ArticleDraft]) {
            var draft = draft
            draft.title = FeedText.cut(draft.title, to: ArticleDraft.maxTitleLength, ellipsis: true)
            // A bad image is no reason to lose the article.
            if let image = draft.imageURL, ArticleDraft.urlProblem(image) != nil { draft.imageURL = nil }
            let errors = draft.validationErrors()
            if errors.isEmpty {
                articles.append(draft)
                return
            }
            let named = draft.title.isEmpty ? "" : "item \"\(FormatProblem.excerpt(draft.title))\": "
            let message = named + errors.map { error in
                switch (error.field, error.message) {
                case ("url", "is empty"): "the item has no link"
                default: "\(error.field) \(error.message)"
                }
            }.joined(separator: "; ")
            skipped.append(FormatProblem(line: line, message: message))
        }
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
