import Foundation

/// The first worksheet of an `.xlsx` workbook, read row by row as the text a person sees in each
/// cell: shared, inline and rich-text strings, numbers as a spreadsheet shows them without a
/// number format (1969, 0.5), booleans as TRUE and FALSE, formulas as their cached value.
struct XLSXWorkbook {
    /// Rows holding anything; a bigger bank is split into several files.
    static let maxRows = 100_000
    /// Cells in the sheet, counting empty styled ones: 100,000 rows of a 27-column template.
    static let maxCells = 3_000_000
    /// Columns kept per row: every layout Quizbox reads fits in the first 64 (A…BL).
    static let maxColumns = 64
    /// Excel's own last column (XFD).
    static let lastColumn = 16_384

    /// One row: its 1-based number and the text of its first `maxColumns` cells ("" when empty).
    struct Row {
        var number: Int
        var cells: [String]

        func cell(_ column: Int) -> String { column < cells.count ? cells[column] : "" }
        var isEmpty: Bool { cells.allSatisfy(\.isEmpty) }
    }

    private var archive: XLSXArchive
    let sheetPath: String
    let sheetName: String
    private let sharedStringsPath: String?

    init(_ data: Data) throws(ImportError) {
        archive = try XLSXArchive(data)
        var sheets: [(name: String, id: String, hidden: Bool)] = []
        let workbook = XLSXXML(part: "xl/workbook.xml")
        workbook.onStart = { name, attributes in
            guard name == "sheet", let id = XLSXXML.attribute("id", in: attributes) else { return }
            sheets.append((attributes["name"] ?? "", id, attributes["state"].map { $0 != "visible" } ?? false))
        }
        guard let workbookXML = try archive.part("xl/workbook.xml") else { throw .file("the workbook has no xl/workbook.xml") }
        if let problem = workbook.parse(workbookXML) { throw ImportError(problems: [problem]) }

        var targets: [String: String] = [:]
        var sharedStrings: String?
        if let rels = try archive.part("xl/_rels/workbook.xml.rels") {
            let relations = XLSXXML(part: "xl/_rels/workbook.xml.rels")
            relations.onStart = { name, attributes in
                guard name == "Relationship", let id = attributes["Id"], let target = attributes["Target"] else { return }
                targets[id] = target
                if attributes["Type"]?.hasSuffix("/sharedStrings") == true { sharedStrings = target }
            }
            if let problem = relations.parse(rels) { throw ImportError(problems: [problem]) }
        }
        guard let sheet = sheets.first(where: { !$0.hidden }) ?? sheets.first else {
            throw .file("the workbook has no worksheet")
        }
        let target = targets[sheet.id] ?? "worksheets/sheet1.xml"
        guard let path = XLSXArchive.resolve(target, from: "xl") else {
            throw .file("the workbook names its sheet \"\(sheet.name)\" at \(target), outside the file: it is not imported")
        }
        guard archive.contains(path) else {
            throw .file("the workbook's sheet \"\(sheet.name)\" should be at \(path), which the file lacks: the file is damaged")
        }
        sheetPath = path
        sheetName = sheet.name
        if let sharedStrings {
            guard let resolved = XLSXArchive.resolve(sharedStrings, from: "xl") else {
                throw .file("the workbook names its shared strings at \(sharedStrings), outside the file: it is not imported")
            }
            sharedStringsPath = resolved
        } else {
            sharedStringsPath = archive.contains("xl/sharedStrings.xml") ? "xl/sharedStrings.xml" : nil
        }
    }

    /// Hands each row that holds a cell to `body`, in order; stops when `body` returns false.
    mutating func forEachRow(_ body: (Row) -> Bool) throws(ImportError) {
        let strings = try readSharedStrings()
        guard let xml = try archive.part(sheetPath) else { throw .file("the workbook's sheet is missing") }
        var sheet = SheetState(strings: strings)
        try Self.scan(xml, part: sheetPath) { (bytes: UnsafeBufferPointer<UInt8>) throws(XLSXScanner.Failure) in
            try XLSXScanner.scan(bytes, start: { name, tag throws(XLSXScanner.Failure) in try sheet.start(name, tag) },
                                 end: { name throws(XLSXScanner.Failure) in
                                     if let row = try sheet.end(name), !body(row) { throw .stop }
                                 },
                                 text: { text, cdata throws(XLSXScanner.Failure) in try sheet.text(text, cdata: cdata) })
        }
    }

    /// Runs `read` over a part's bytes and turns what it throws into the import's problem.
    private static func scan(_ xml: Data, part: String,
                             _ read: (UnsafeBufferPointer<UInt8>) throws(XLSXScanner.Failure) -> Void) throws(ImportError) {
        let failure = xml.withUnsafeBytes { (raw) -> XLSXScanner.Failure? in
            do throws(XLSXScanner.Failure) {
                try read(raw.bindMemory(to: UInt8.self))
                return nil
            } catch {
                return error
            }
        }
        switch failure {
        case nil, .stop?: return
        case .problem(let problem)?: throw ImportError(problems: [problem])
        case .malformed(let offset, let kind)?:
            let line = xml.prefix(max(0, offset)).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw ImportError(problems: [FormatProblem(line: line, path: part, message: kind.message)])
        }
    }

    private mutating func readSharedStrings() throws(ImportError) -> [String] {
        guard let path = sharedStringsPath, let xml = try archive.part(path) else { return [] }
        var strings: [String] = []
        var current = ""
        var inItem = false, inText = false, phonetic = 0
        try Self.scan(xml, part: path) { (bytes: UnsafeBufferPointer<UInt8>) throws(XLSXScanner.Failure) in
            try XLSXScanner.scan(bytes, start: { name, _ throws(XLSXScanner.Failure) in
                switch name {
                case .si: inItem = true; current = ""
                case .t: inText = inItem && phonetic == 0
                case .rPh: phonetic += 1
                default: break
                }
            }, end: { name throws(XLSXScanner.Failure) in
                switch name {
                case .si:
                    strings.append(current)
                    inItem = false
                    if strings.count > XLSXWorkbook.maxCells {
                        throw .problem(FormatProblem(path: path, message: "the workbook holds more than \(XLSXWorkbook.maxCells) strings: it is not imported"))
                    }
                case .t: inText = false
                case .rPh: phonetic -= 1
                default: break
                }
            }, text: { text, cdata throws(XLSXScanner.Failure) in
                if inText { current += try XLSXScanner.string(text, cdata: cdata) }
            })
        }
        return strings
    }

    /// What reading the sheet's XML keeps between events.
    private struct SheetState {
        let strings: [String]

        private var rowNumber = 0
        private var cells: [String] = []
        private var rowCount = 0
        private var cellCount = 0
        private var column = 0
        private var type = CellType.number
        private var value = ""
        private var capturing = false
        private var inInline = false
        private var phonetic = 0

        private enum CellType { case number, shared, boolean, other }

        init(strings: [String]) {
            self.strings = strings
        }

        mutating func start(_ name: XLSXScanner.Name, _ tag: XLSXScanner.Tag) throws(XLSXScanner.Failure) {
            switch name {
            case .row:
                let number = tag.attribute("r").flatMap { Int($0) } ?? rowNumber + 1
                guard number > rowNumber, number <= 1_048_576 else {
                    throw .problem(FormatProblem(cell: SheetCell(row: max(1, number)), message: "row \(number) is out of order: the file is damaged"))
                }
                rowNumber = number
                cells.removeAll(keepingCapacity: true)
                column = 0
            case .c:
                let reference = tag.attribute("r").flatMap { SheetCell.column(ofReference: Substring($0)) }
                column = reference ?? column + 1
                guard column <= XLSXWorkbook.lastColumn else {
                    throw .problem(FormatProblem(cell: SheetCell(row: rowNumber), message: "a cell lies past the last column a spreadsheet has (XFD): the file is damaged"))
                }
                cellCount += 1
                guard cellCount <= XLSXWorkbook.maxCells else {
                    throw .problem(FormatProblem(message: "the sheet holds more than \(XLSXWorkbook.maxCells) cells: split it into several files"))
                }
                switch tag.attribute("t") {
                case nil, "n"?: type = .number
                case "s"?: type = .shared
                case "b"?: type = .boolean
                default: type = .other  // inlineStr, str (a formula's text), e (#N/A), d (an ISO date)
                }
                value = ""
                inInline = false
            case .v: capturing = true
            case .is: inInline = true
            case .t: capturing = inInline && phonetic == 0
            case .rPh: phonetic += 1
            default: break
            }
        }

        /// The row, when one that holds anything ends.
        mutating func end(_ name: XLSXScanner.Name) throws(XLSXScanner.Failure) -> Row? {
            switch name {
            case .v, .t: capturing = false
            case .rPh: phonetic -= 1
            case .c: try finishCell()
            case .row:
                guard !cells.allSatisfy(\.isEmpty) else { return nil }
                rowCount += 1
                guard rowCount <= XLSXWorkbook.maxRows else {
                    throw .problem(FormatProblem(cell: SheetCell(row: rowNumber), message: "the sheet has more than \(XLSXWorkbook.maxRows) rows: split it into several files"))
                }
                return Row(number: rowNumber, cells: cells)
            default: break
            }
            return nil
        }

        mutating func text(_ bytes: UnsafeBufferPointer<UInt8>, cdata: Bool) throws(XLSXScanner.Failure) {
            if capturing { value += try XLSXScanner.string(bytes, cdata: cdata) }
        }

        private mutating func finishCell() throws(XLSXScanner.Failure) {
            // A cell around a row (`<c><row/>…</c>`) has lost its column to the row: nothing to keep.
            guard column >= 1, column <= XLSXWorkbook.maxColumns, !value.isEmpty else { return }
            let text: String
            switch type {
            case .shared:
                guard let index = Int(value) ?? Int(XLSXWorkbook.trimmed(value)), strings.indices.contains(index) else {
                    throw .problem(FormatProblem(cell: SheetCell(row: rowNumber, column: column),
                                                 message: "the cell names a shared string the workbook lacks: the file is damaged"))
                }
                text = strings[index]
            case .boolean: text = value == "1" ? "TRUE" : value == "0" ? "FALSE" : value
            case .number: text = XLSXWorkbook.displayNumber(value)
            case .other: text = value
            }
            let trimmed = XLSXWorkbook.trimmed(text)
            guard !trimmed.isEmpty else { return }
            if cells.count < column { cells.append(contentsOf: repeatElement("", count: column - cells.count)) }
            cells[column - 1] = trimmed
        }
    }

    /// Without spaces and line breaks at either end; Foundation is asked only when there are some
    /// (it was a third of the time of reading a sheet).
    static func trimmed(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return text }
        guard first.properties.isWhitespace || last.properties.isWhitespace else { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A number cell as a spreadsheet shows it in the General format: whole numbers without a
    /// fraction (1969, not 1969.0), others to 15 significant digits (0.1 + 0.2 shows 0.3).
    static func displayNumber(_ raw: String) -> String {
        if let whole = Int64(raw) { return String(whole) }  // the common case, without Foundation
        // No spreadsheet writes a number this long; parsing 100,000 digits as a Double is slow.
        guard raw.utf8.count <= 64 else { return raw }
        let trimmed = trimmed(raw)
        guard let number = Double(trimmed), number.isFinite else { return trimmed }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        var text = String(format: "%.15g", number)
        if text.contains("e") { return text }
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
