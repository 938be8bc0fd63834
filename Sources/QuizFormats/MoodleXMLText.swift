/// Turns the content of a Moodle XML `<text>` into plain text according to its `format`.
///
/// - `html`: tags are removed; `<br>` is a line break; paragraphs, divs, headings, list items and
///   table rows start a new line (list items with "- "); runs of spaces and newlines in the source
///   collapse to one space; comments, `<script>` and `<style>` are dropped; character references
///   (`&amp;`, `&eacute;`, `&#233;`, `&#xE9;`) are decoded as `HTMLEntities` does, `&nbsp;` as a
///   plain space and `&shy;` not at all.
/// - `moodle_auto_format` (and a missing format, Moodle's default): the same, except that a newline
///   in the source is a line break, as Moodle shows it.
/// - `plain_text`, `markdown`: kept as written.
///
/// Every result is trimmed. The conversion is linear in the input's length whatever it holds:
/// a `<` with no `>` after it is text, and so is every `<` after it.
enum MoodleXMLText {
    struct Converted: Sendable, Hashable {
        var text: String
        /// The HTML had an `<img>` (or inline `<svg>`), which plain text cannot show.
        var hasImages = false
    }

    static func convert(_ raw: String, format: String?) -> Converted {
        switch format?.lowercased() {
        case "plain_text", "markdown":
            Converted(text: trimmed(raw))
        case "html":
            html(raw, newlinesBreakLines: false)
        default:
            html(raw, newlinesBreakLines: true)
        }
    }

    private static let blockTags: Set<String> = [
        "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "dt", "dd", "table", "tr",
        "blockquote", "pre", "hr", "section", "article", "header", "footer", "figure", "figcaption", "address",
    ]

    static func html(_ raw: String, newlinesBreakLines: Bool) -> Converted {
        let input = Array(raw.unicodeScalars)
        var out = PlainTextBuffer()
        var hasImages = false
        var tagsPossible = true  // false once a "<" was found with no ">" after it
        var index = 0

        while index < input.count {
            let scalar = input[index]
            if scalar == "<", tagsPossible, index + 1 < input.count {
                if matches("<!--", in: input, at: index) {
                    index = find("-->", in: input, from: index + 4).map { $0 + 3 } ?? input.count
                    continue
                }
                let next = input[index + 1]
                if next.properties.isAlphabetic || next == "/" || next == "!" || next == "?" {
                    guard let close = input[(index + 1)...].firstIndex(of: ">") else {
                        tagsPossible = false
                        out.append(scalar)
                        index += 1
                        continue
                    }
                    let tag = Tag(input[(index + 1)..<close])
                    index = close + 1
                    switch tag.name {
                    case "br": out.lineBreak()
                    case "li":
                        out.blockBreak()
                        if !tag.isEnd { out.append("-"); out.space() }
                    case "td", "th": out.space()
                    case "img", "svg": hasImages = true
                    // A media element's content is for browsers that cannot play it (Moodle's
                    // editor writes the file's address there).
                    case "script", "style", "audio", "video":
                        if !tag.isEnd && !tag.isSelfClosing {
                            let end = find("</" + tag.name, in: input, from: index, ignoringCase: true)
                            index = end.flatMap { input[$0...].firstIndex(of: ">") }.map { $0 + 1 } ?? input.count
                        }
                    default:
                        if blockTags.contains(tag.name) { out.blockBreak() }
                    }
                    continue
                }
            }
            if scalar == "&", let (decoded, length) = reference(in: input, at: index) {
                if decoded != "\u{AD}" { out.append(decoded == "\u{A0}" ? " " : decoded) }  // soft hyphen: invisible
                index += length
                continue
            }
            if scalar == "\n" && newlinesBreakLines {
                out.lineBreak()
            } else {
                out.append(scalar)  // a newline in HTML is a space
            }
            index += 1
        }
        return Converted(text: out.finished(), hasImages: hasImages)
    }

    /// A character reference at `start` ("&amp;", "&#233;", "&#xE9;"), decoded by `HTMLEntities`:
    /// what it stands for and its length, or nil when it is not one (then the "&" is text).
    private static func reference(in input: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        let limit = min(input.count, start + 34)  // the longest name or number, and its ";"
        guard let semicolon = input[start..<limit].firstIndex(of: ";"),
              !input[(start + 1)..<semicolon].contains("&")
        else { return nil }
        var written = String.UnicodeScalarView()
        written.append(contentsOf: input[start...semicolon])
        let decoded = HTMLEntities.decode(String(written)).unicodeScalars
        guard decoded.count == 1, let scalar = decoded.first else { return nil }
        return (scalar, semicolon - start + 1)
    }

    /// Whether `text` (lowercase when `ignoringCase`) is at `position`.
    private static func matches(
        _ text: String, in input: [Unicode.Scalar], at position: Int, ignoringCase: Bool = false
    ) -> Bool {
        var index = position
        for expected in text.unicodeScalars {
            guard index < input.count else { return false }
            var scalar = input[index]
            if ignoringCase, ("A"..."Z").contains(scalar), let lower = Unicode.Scalar(scalar.value + 32) { scalar = lower }
            if scalar != expected { return false }
            index += 1
        }
        return true
    }

    /// The first position at or after `start` where `text` is.
    private static func find(
        _ text: String, in input: [Unicode.Scalar], from start: Int, ignoringCase: Bool = false
    ) -> Int? {
        var position = start
        while position < input.count {
            if matches(text, in: input, at: position, ignoringCase: ignoringCase) { return position }
            position += 1
        }
        return nil
    }

    /// What a tag's text between "<" and ">" says: its lowercased name and whether it closes.
    private struct Tag {
        var name: String
        var isEnd: Bool
        var isSelfClosing: Bool

        init(_ content: ArraySlice<Unicode.Scalar>) {
            isEnd = content.first == "/"
            isSelfClosing = content.last == "/"
            let nameScalars = content.drop { $0 == "/" }.prefix { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
            name = String(String.UnicodeScalarView(nameScalars)).lowercased()
        }
    }
}

/// Collects plain text: spaces collapse, a line starts with no space and ends with none, and at
/// most one blank line separates paragraphs.
private struct PlainTextBuffer {
    private var scalars: [Unicode.Scalar] = []
    private var pendingSpace = false

    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar.properties.isWhitespace {
            space()
            return
        }
        if pendingSpace, let last = scalars.last, last != "\n" { scalars.append(" ") }
        pendingSpace = false
        scalars.append(scalar)
    }

    mutating func space() { pendingSpace = true }

    mutating func lineBreak() {
        pendingSpace = false
        // No more than two newlines in a row: one blank line.
        if scalars.count >= 2 && scalars[scalars.count - 1] == "\n" && scalars[scalars.count - 2] == "\n" { return }
        scalars.append("\n")
    }

    /// A new line unless the text is empty or already at the start of one.
    mutating func blockBreak() {
        if let last = scalars.last, last != "\n" { lineBreak() }
        pendingSpace = false
    }

    func finished() -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return MoodleXMLText.trimmed(String(view))
    }
}

extension MoodleXMLText {
    /// `text` without leading and trailing whitespace and newlines.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
