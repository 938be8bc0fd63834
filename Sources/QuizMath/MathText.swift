import Foundation

/// TeX in a question's text, as Moodle's TeX filter and MathJax find it: between `$$ … $$`,
/// `\( … \)` (inline) and `\[ … \]` (display). A lone `$` is money, not maths.
public enum MathText {
    public enum Piece: Sendable, Equatable {
        case text(String)
        /// `source` is the whole formula as written, delimiters included.
        case math(tex: String, display: Bool, source: String)
    }

    /// Bounds on the work one text costs: a question's text is at most 2,000 characters, so
    /// longer ones (and formulas past the 200th) are left as prose.
    public static let maxLength = 20_000
    public static let maxFormulas = 200

    /// Quick test before any work: most texts hold no maths.
    public static func mayHoldMath(_ text: String) -> Bool {
        text.utf8.count <= maxLength && (text.utf8.contains(UInt8(ascii: "$")) || text.contains("\\(") || text.contains("\\["))
    }

    /// The text cut into prose and formulas; an opening delimiter without its closing one is prose.
    public static func pieces(_ text: String) -> [Piece] {
        guard mayHoldMath(text) else { return [.text(text)] }
        var pieces: [Piece] = []
        var prose = ""
        var rest = Substring(text)
        // An opener with no closer after it has none after any later one either: one search each.
        var unclosed: Set<String> = []
        var found = 0
        while found < maxFormulas, let start = rest.firstIndex(where: { $0 == "$" || $0 == "\\" }) {
            let tail = rest[start...]
            guard let (open, close, display) = delimiters(tail), !unclosed.contains(open) else {
                prose += rest[..<rest.index(after: start)]
                rest = rest[rest.index(after: start)...]
                continue
            }
            let body = tail.dropFirst(open.count)
            guard let end = body.range(of: close) else {
                unclosed.insert(open)
                prose += rest[..<rest.index(after: start)]
                rest = rest[rest.index(after: start)...]
                continue
            }
            prose += rest[..<start]
            if !prose.isEmpty { pieces.append(.text(prose)) }
            prose = ""
            found += 1
            let tex = String(body[..<end.lowerBound])
            pieces.append(.math(tex: tex, display: display, source: open + tex + close))
            rest = body[end.upperBound...]
        }
        prose += rest
        if !prose.isEmpty { pieces.append(.text(prose)) }
        return pieces
    }

    private static func delimiters(_ tail: Substring) -> (open: String, close: String, display: Bool)? {
        if tail.hasPrefix("$$") { return ("$$", "$$", true) }
        if tail.hasPrefix("\\(") { return ("\\(", "\\)", false) }
        if tail.hasPrefix("\\[") { return ("\\[", "\\]", true) }
        return nil
    }

    /// Text for HTML element content: `&`, `<`, `>` and `"` as entities.
    public static func escape(_ text: String) -> String { MathMLWriter.escape(text) }

    /// One formula as MathML, or why it could not be converted.
    public static func mathML(_ tex: String, display: Bool) throws(TeXError) -> String {
        MathMLWriter.write(try TeXParser.parse(tex), display: display, source: tex)
    }

    /// One formula as readable plain text (the terminal player).
    public static func plain(_ tex: String) throws(TeXError) -> String {
        PlainMathWriter.write(try TeXParser.parse(tex)).trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "  ", with: " ")
    }

    /// HTML for a text: prose escaped, each formula as MathML, or as its TeX in a code span when
    /// the converter does not know it (with the reason in `problems`).
    public static func html(_ text: String) -> (html: String, problems: [TeXError]) { html(pieces(text)) }

    private static func html(_ pieces: [Piece]) -> (html: String, problems: [TeXError]) {
        var html = ""
        var problems: [TeXError] = []
        for piece in pieces {
            switch piece {
            case .text(let prose):
                html += MathMLWriter.escape(prose)
            case .math(let tex, let display, let source):
                do {
                    html += try mathML(tex, display: display)
                } catch {
                    problems.append(error)
                    html += "<code class=\"tex\">" + MathMLWriter.escape(source) + "</code>"
                }
            }
        }
        return (html, problems)
    }

    /// `html(text)` only when the text holds a formula: nil for prose, so a message that carries it
    /// beside the text can leave it out.
    public static func htmlIfMath(_ text: String) -> String? {
        let pieces = pieces(text)
        guard pieces.contains(where: { if case .math = $0 { true } else { false } }) else { return nil }
        return html(pieces).html
    }

    /// The text with each formula as plain text (or its TeX, when not known).
    public static func plainText(_ text: String) -> String {
        pieces(text).map { piece in
            switch piece {
            case .text(let prose): prose
            case .math(let tex, _, let source): (try? plain(tex)) ?? source
            }
        }.joined()
    }
}
