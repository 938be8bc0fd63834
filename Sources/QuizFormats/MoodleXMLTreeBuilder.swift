import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Builds `MoodleXMLElement`s from Foundation's `XMLParser` events and turns its first error into
/// a `FormatProblem` with the parser's line and column.
///
/// The parser runs libxml2 in recovery mode on Linux: after an error it keeps going (even after
/// `abortParsing()`) and may return true. So the first error reported to the delegate is what
/// counts, and every event after it is ignored.
/// `MoodleXMLPreflight` first refuses what would crash the parser (and any DOCTYPE, so no entity
/// is ever declared or loaded).
final class MoodleXMLTreeBuilder: NSObject, XMLParserDelegate {
    /// Moodle files nest about six levels deep; anything below this depth is not kept, so a hostile
    /// 100,000-level file costs no more memory than its events.
    static let maxDepth = 32
    static let noElement = "the file holds no XML element: is it a Moodle XML export?"
    /// libxml2's input limit without XML_PARSE_HUGE, which Foundation does not set: on a longer
    /// input it reports error 1 once the whole document has been read.
    static let parserInputLimit = 10_000_000

    /// What differs between the XML documents Quizbox reads (Moodle XML, news feeds).
    struct Options: Sendable {
        /// Elements whose nested elements are kept as markup in their text (HTML written as XHTML).
        var rawTextElements: Set<String> = ["text"]
        /// Elements whose character data is not kept. Moodle's base64 `<file>`s are kept: a question's
        /// picture comes from one (the file itself is bounded by the import's size limit).
        var droppedTextElements: Set<String> = []
        /// Said when the document holds no element.
        var noElement = MoodleXMLTreeBuilder.noElement
        /// Said of a DOCTYPE, which is always refused.
        var doctype = "a <!DOCTYPE> declaration, which Moodle XML files do not have: remove it"

        static let moodle = Options()
    }

    private let options: Options

    init(options: Options = .moodle) {
        self.options = options
    }

    private var stack: [MoodleXMLElement] = []
    private var root: MoodleXMLElement?
    /// Elements nested inside a `<text>`, written back into its text as markup: name and line.
    private var rawOpen: [(name: String, line: Int)] = []
    /// How many levels below `maxDepth` the parser currently is.
    private var skippedDepth = 0
    private var problem: FormatProblem?
    private var inputSize = 0

    static func parse(_ data: Data, options: Options = .moodle) -> Result<MoodleXMLElement?, FormatProblem> {
        if let refused = MoodleXMLPreflight.problem(in: data, doctype: options.doctype) { return .failure(refused) }
        let builder = MoodleXMLTreeBuilder(options: options)
        builder.inputSize = data.count
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let finished = parser.parse()
        if let problem = builder.problem { return .failure(problem) }
        if let open = builder.stack.last {
            // Defensive: libxml2 reports this itself.
            return .failure(FormatProblem(line: open.line, message: "the file ends before <\(open.name)> is closed"))
        }
        if !finished && builder.root == nil {
            let message = "the XML could not be read"
            return .failure(FormatProblem(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber), message: message))
        }
        return .success(builder.root)
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        guard problem == nil else { return }
        if skippedDepth > 0 {
            skippedDepth += 1
        } else if !rawOpen.isEmpty || stack.last.map({ options.rawTextElements.contains($0.name) }) == true {
            var markup = "<" + elementName
            for (name, value) in attributeDict.sorted(by: { $0.key < $1.key }) {
                markup += " \(name)=\"\(Self.escapeMarkup(value, quotes: true))\""
            }
            appendText(markup + ">")
            rawOpen.append((elementName, parser.lineNumber))
        } else if stack.count >= Self.maxDepth {
            skippedDepth = 1
        } else {
            stack.append(MoodleXMLElement(name: elementName, attributes: attributeDict, line: parser.lineNumber))
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard problem == nil else { return }
        if skippedDepth > 0 {
            skippedDepth -= 1
        } else if let raw = rawOpen.popLast() {
            appendText("</" + raw.name + ">")
        } else if let done = stack.popLast() {
            if stack.isEmpty {
                root = done
            } else {
                stack[stack.count - 1].children.append(done)
            }
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard problem == nil, skippedDepth == 0 else { return }
        appendText(rawOpen.isEmpty ? string : Self.escapeMarkup(string, quotes: false))
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard problem == nil, skippedDepth == 0 else { return }
        let string = String(decoding: CDATABlock, as: UTF8.self)
        appendText(rawOpen.isEmpty ? string : Self.escapeMarkup(string, quotes: false))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard problem == nil else { return }
        let code = (parseError as NSError).code
        // Past 10 MB libxml2 reports error 1 at the end even for a good document: the tree is complete.
        if code == 1 && root != nil && stack.isEmpty { return }
        problem = FormatProblem(line: parser.lineNumber, column: parser.columnNumber, message: message(forCode: code))
        parser.abortParsing()
    }

    private func appendText(_ string: String) {
        guard let last = stack.indices.last, !options.droppedTextElements.contains(stack[last].name) else { return }
        stack[last].text += string
    }

    /// The innermost open element, for messages about what is not closed.
    private var innermostOpen: (name: String, line: Int)? {
        rawOpen.last ?? stack.last.map { ($0.name, $0.line) }
    }

    /// Codes are libxml2's `xmlParserErrors`, which are also the documented `NSXMLParserError`
    /// values; the enum's case names are not used because Linux numbers them differently.
    private func message(forCode code: Int) -> String {
        switch code {
        case 1:
            if inputSize > Self.parserInputLimit, let open = innermostOpen {
                return "the file ends before <\(open.name)> opened at line \(open.line) is closed"
            }
            return "malformed markup, such as a \"<!\" that starts no comment or CDATA section"
        case 4:
            return options.noElement
        case 5, 77:
            if let open = innermostOpen {
                return "the file ends before <\(open.name)> opened at line \(open.line) is closed"
            }
            return root == nil ? options.noElement : "there is content after the end of <\(root?.name ?? "")>"
        case 9:
            return "a character XML does not allow, or bytes that are not UTF-8 (save the file as UTF-8)"
        case 23, 25:
            return "an entity is missing its closing \";\""
        case 26:
            return "unknown entity: XML knows only &amp; &lt; &gt; &quot; &apos; (put HTML such as &nbsp; inside <![CDATA[ ]]>)"
        case 31, 32, 81:
            return "bytes the file's encoding does not allow (save the file as UTF-8)"
        case 33, 34:
            return "a quoted value is not closed"
        case 38, 39, 40, 41, 75:
            return "an attribute value must be in quotes and closed"
        case 42:
            return "an attribute appears twice in one tag"
        case 45:
            return "a comment is not closed with \"-->\""
        case 46, 47:
            return "a processing instruction is not closed with \"?>\""
        case 56, 57, 96:
            return "the XML declaration is malformed: write <?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        case 64:
            return "the XML declaration (<?xml …?>) is only allowed at the very start of the file"
        case 65, 66:
            return "a space is missing between two attributes"
        case 62:
            return "\"]]>\" may only end a CDATA section"
        case 63:
            return "a CDATA section is not closed with \"]]>\""
        case 68:
            return "a \"<\" or \"&\" that starts no tag or entity (write &lt; and &amp;, or use CDATA)"
        case 73:
            return "a tag is not closed with \">\""
        case 76:
            if let open = innermostOpen {
                return "closing tag does not match <\(open.name)> opened at line \(open.line)"
            }
            return "closing tag does not match the open tag"
        case 85, 86:
            return "there is content after the end of <\(root?.name ?? "quiz")>"
        default:
            return "malformed XML (parser error \(code))"
        }
    }

    private static func escapeMarkup(_ string: String, quotes: Bool) -> String {
        var escaped = ""
        for character in string {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"" where quotes: escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
