import Foundation

/// One element of a parsed Moodle XML file: just what the reader looks at.
///
/// Inside a `<text>` element, nested elements (XHTML written without CDATA or escaping) are not
/// children: their markup is kept in `text`, so HTML reaches the HTML-to-text conversion whichever
/// way the file wrote it. The content of `<file>` elements (base64 images) is kept as their text.
struct MoodleXMLElement: Sendable {
    var name: String
    var attributes: [String: String]
    /// The line of the start tag's end, as the XML parser reports it.
    var line: Int
    /// The character data directly inside, CDATA included, entities decoded.
    var text: String = ""
    var children: [MoodleXMLElement] = []

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    func child(_ name: String) -> MoodleXMLElement? {
        children.first { $0.name == name }
    }

    func children(_ name: String) -> [MoodleXMLElement] {
        children.filter { $0.name == name }
    }

    /// The text of `<name><text>…</text></name>`, or of `<name>…</name>` when it has no `<text>`.
    func childText(_ name: String) -> String? {
        guard let element = child(name) else { return nil }
        return element.child("text")?.text ?? element.text
    }

    /// How many `<file>` elements (embedded images and attachments) this element holds at any depth.
    var fileCount: Int {
        var count = 0
        var stack = children  // no recursion: the tree is shallow, but nothing here relies on that
        while let next = stack.popLast() {
            if next.name == "file" { count += 1 }
            stack.append(contentsOf: next.children)
        }
        return count
    }

    /// Parses a whole document: its root element (nil for a file with no element at all), or the
    /// first XML error with the parser's line and column.
    static func parseDocument(
        _ data: Data, options: MoodleXMLTreeBuilder.Options = .moodle
    ) -> Result<MoodleXMLElement?, FormatProblem> {
        MoodleXMLTreeBuilder.parse(data, options: options)
    }
}
