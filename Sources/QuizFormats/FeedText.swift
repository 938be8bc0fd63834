/// The text of feed elements as articles show it: one line, no markup.
enum FeedText {
    /// Plain text (RSS titles): character references decoded, since feeds often escape twice
    /// (`&amp;#8217;`), and whitespace collapsed.
    static func plain(_ raw: String) -> String {
        collapsed(HTMLEntities.decode(raw))
    }

    /// HTML (RSS descriptions, Atom html and xhtml) as plain text on one line, cut to a summary.
    static func html(_ raw: String) -> String {
        cut(collapsed(MoodleXMLText.html(raw, newlinesBreakLines: false).text), to: NewsFeedReader.maxSummaryLength, ellipsis: true)
    }

    /// An Atom text construct by its `type`: `text` (the default) is plain, `html` and `xhtml` markup.
    static func atomText(_ element: MoodleXMLElement) -> String {
        switch element.attributes["type"]?.lowercased() {
        case "html", "xhtml", "text/html", "application/xhtml+xml": html(element.text)
        default: cut(collapsed(element.text), to: NewsFeedReader.maxSummaryLength, ellipsis: true)
        }
    }

    static func trimmed(_ text: String) -> String { MoodleXMLText.trimmed(text) }

    /// Runs of whitespace (newlines included) as one space, trimmed.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// At most `limit` characters, cut at a space when one is near, with "…" when cut.
    static func cut(_ text: String, to limit: Int, ellipsis: Bool) -> String {
        let text = collapsed(text)
        guard text.count > limit else { return text }
        var kept = text.prefix(ellipsis ? limit - 1 : limit)
        if let space = kept.lastIndex(of: " "), kept.distance(from: space, to: kept.endIndex) < 40 {
            kept = kept[..<space]
        }
        return String(kept) + (ellipsis ? "…" : "")
    }
}
