import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Foundation's streaming `XMLParser` over one part of a workbook, its events handed to closures.
/// A DOCTYPE (so any entity) is refused before the parser sees the bytes, as for Moodle XML, and
/// external entities are never resolved. The first problem wins: libxml2 keeps calling back after
/// an error (even after `abortParsing()`), so every event after it is ignored.
final class XLSXXML: NSObject, XMLParserDelegate {
    let part: String
    var onStart: (String, [String: String]) -> Void = { _, _ in }
    var onEnd: (String) -> Void = { _ in }
    var onText: (String) -> Void = { _ in }
    private(set) var problem: FormatProblem?
    private weak var parser: XMLParser?
    private var started = false
    /// Elements open: 0 again once the root closed.
    private var depth = 0

    init(part: String) {
        self.part = part
    }

    /// Stops reading with `problem`, which the caller gets back from `parse`.
    func fail(_ problem: FormatProblem) {
        guard self.problem == nil else { return }
        self.problem = problem
        parser?.abortParsing()
    }

    var line: Int { parser?.lineNumber ?? 0 }

    /// Reads `data`; the first problem found, or nil when the part was read to its end.
    func parse(_ data: Data) -> FormatProblem? {
        if let refused = MoodleXMLPreflight.problem(
            in: data, doctype: "a <!DOCTYPE> declaration (entities), which spreadsheets do not write: the workbook is not imported") {
            return FormatProblem(line: refused.line, path: part, message: refused.message)
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        self.parser = parser
        let finished = parser.parse()
        if let problem { return problem }
        if !finished && !started {
            return FormatProblem(line: max(1, parser.lineNumber), path: part, message: "the workbook's XML could not be read: the file is damaged")
        }
        return nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard problem == nil else { return }
        started = true
        depth += 1
        onStart(Self.localName(elementName), attributeDict)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard problem == nil else { return }
        depth -= 1
        onEnd(Self.localName(elementName))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard problem == nil else { return }
        onText(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard problem == nil else { return }
        onText(String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard problem == nil else { return }
        let code = (parseError as NSError).code
        // Past 10 MB libxml2 reports error 1 at the end of a good document: it was read whole.
        if code == 1 && started && depth == 0 { return }
        let message = code == 26
            ? "an entity XML does not define, which spreadsheets do not write: the workbook is not imported"
            : "the workbook's XML is malformed (parser error \(code)): the file is damaged"
        fail(FormatProblem(line: max(1, parser.lineNumber), column: max(1, parser.columnNumber), path: part, message: message))
    }

    /// "x:row" → "row": some writers prefix the spreadsheet namespace.
    static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// An attribute by its local name ("r:id" or "id" for "id").
    static func attribute(_ name: String, in attributes: [String: String]) -> String? {
        if let value = attributes[name] { return value }
        return attributes.first { localName($0.key) == name }?.value
    }
}
