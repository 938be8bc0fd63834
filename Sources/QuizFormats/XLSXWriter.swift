import Foundation
import ZIPFoundation

/// Writes a small Excel workbook (`.xlsx`): one or more sheets of text, number and date cells,
/// the first row in bold and frozen, each column as wide as asked. Strings are written inline,
/// so a cell is read back without a shared-strings table; the parts are deflated into a ZIP
/// archive held in memory. Excel, LibreOffice, Google Sheets and openpyxl open what it writes.
public struct XLSXWriter: Sendable {
    public enum Cell: Sendable, Hashable {
        case empty
        case text(String)
        case number(Double)
        /// Shown as "2026-11-28 13:45:00" (UTC), stored as Excel's day number.
        case date(Date)
    }

    public struct Sheet: Sendable {
        public var name: String
        /// Characters, as Excel measures a column.
        public var widths: [Double]
        public var rows: [[Cell]]
        /// The header's row (1-based): bold, and it and the rows above it stay in view while the rest scrolls.
        public var headerRow: Int

        public init(name: String, widths: [Double] = [], rows: [[Cell]], headerRow: Int = 1) {
            self.name = name
            self.widths = widths
            self.rows = rows
            self.headerRow = headerRow
        }
    }

    public init() {}

    /// The workbook's bytes.
    public func write(_ sheets: [Sheet]) -> Data {
        let sheets = sheets.isEmpty ? [Sheet(name: "Sheet1", rows: [])] : sheets
        var parts: [(String, String)] = [
            ("[Content_Types].xml", contentTypes(count: sheets.count)),
            ("_rels/.rels", """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
                <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>\
                </Relationships>
                """),
            ("xl/workbook.xml", workbook(sheets)),
            ("xl/_rels/workbook.xml.rels", workbookRelations(count: sheets.count)),
            ("xl/styles.xml", Self.styles),
        ]
        for (index, sheet) in sheets.enumerated() {
            parts.append(("xl/worksheets/sheet\(index + 1).xml", worksheet(sheet)))
        }
        return Self.archive(parts.map { ($0.0, Data($0.1.utf8)) })
    }

    /// A ZIP archive of `parts` (path, bytes), deflated, in memory: the workbook's container. The
    /// fuzzer wraps its inputs with it too.
    package static func archive(_ parts: [(String, Data)]) -> Data {
        // In memory, with paths and sizes Quizbox chose: nothing here can fail but a bug.
        let archive: Archive
        do {
            archive = try Archive(data: Data(), accessMode: .create, pathEncoding: nil)
        } catch {
            preconditionFailure("an empty in-memory ZIP archive cannot be created: \(error)")
        }
        let written = Date(timeIntervalSince1970: 1_577_836_800)  // fixed, so the same bank gives the same bytes
        for (path, bytes) in parts {
            try? archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count), modificationDate: written,
                                  compressionMethod: .deflate) { position, size in
                bytes.subdata(in: Int(position)..<min(Int(position) + size, bytes.count))
            }
        }
        return archive.data ?? Data()
    }

    private func contentTypes(count: Int) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
            <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
            <Default Extension="xml" ContentType="application/xml"/>\
            <Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>\
            <Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>
            """
        for index in 1...count {
            text += "<Override PartName=\"/xl/worksheets/sheet\(index).xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>"
        }
        return text + "</Types>"
    }

    private func workbook(_ sheets: [Sheet]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
            xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>
            """
        var used: Set<String> = []
        for (index, sheet) in sheets.enumerated() {
            var name = Self.sheetName(sheet.name, index: index + 1)
            while used.contains(name.lowercased()) { name = String(name.prefix(28)) + " \(index + 1)" }
            used.insert(name.lowercased())
            text += "<sheet name=\"\(Self.escape(name))\" sheetId=\"\(index + 1)\" r:id=\"rId\(index + 1)\"/>"
        }
        return text + "</sheets></workbook>"
    }

    /// Excel's rules: at most 31 characters, none of `[]:*?/\`, not empty.
    static func sheetName(_ name: String, index: Int) -> String {
        let cleaned = String(name.filter { !"[]:*?/\\".contains($0) }.prefix(31))
        return cleaned.trimmingCharacters(in: .whitespaces).isEmpty ? "Sheet\(index)" : cleaned
    }

    private func workbookRelations(count: Int) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
            """
        for index in 1...count {
            text += "<Relationship Id=\"rId\(index)\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet\(index).xml\"/>"
        }
        text += "<Relationship Id=\"rId\(count + 1)\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles\" Target=\"styles.xml\"/>"
        return text + "</Relationships>"
    }

    /// Style 0 plain, 1 bold (the header), 2 a date and time.
    private static let styles = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">\
        <numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>\
        <fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>\
        <fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>\
        <borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>\
        <cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>\
        <cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>\
        <xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>\
        <xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>\
        <cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>\
        </styleSheet>
        """

    private func worksheet(_ sheet: Sheet) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
            """
        if sheet.headerRow > 0 && sheet.rows.count >= sheet.headerRow {
            let below = sheet.headerRow + 1
            text += "<sheetViews><sheetView workbookViewId=\"0\"><pane ySplit=\"\(sheet.headerRow)\" topLeftCell=\"A\(below)\" activePane=\"bottomLeft\" state=\"frozen\"/></sheetView></sheetViews>"
        }
        if !sheet.widths.isEmpty {
            text += "<cols>"
            for (index, width) in sheet.widths.enumerated() {
                text += "<col min=\"\(index + 1)\" max=\"\(index + 1)\" width=\"\(Self.number(width))\" customWidth=\"1\"/>"
            }
            text += "</cols>"
        }
        text += "<sheetData>"
        for (r, row) in sheet.rows.enumerated() {
            text += "<row r=\"\(r + 1)\">"
            let bold = r + 1 == sheet.headerRow ? " s=\"1\"" : ""
            for (c, cell) in row.enumerated() {
                let reference = (SheetCell(row: r + 1, column: c + 1).reference)
                switch cell {
                case .empty: continue
                case .text(let value):
                    text += "<c r=\"\(reference)\"\(bold) t=\"inlineStr\"><is><t xml:space=\"preserve\">\(Self.escape(value))</t></is></c>"
                case .number(let value):
                    text += "<c r=\"\(reference)\"\(bold)><v>\(Self.number(value))</v></c>"
                case .date(let date):
                    text += "<c r=\"\(reference)\" s=\"2\"><v>\(Self.number(Self.serial(date)))</v></c>"
                }
            }
            text += "</row>"
        }
        return text + "</sheetData></worksheet>"
    }

    /// Excel's day number: days since 1899-12-30, the time of day as the fraction (UTC).
    static func serial(_ date: Date) -> Double {
        date.timeIntervalSince1970 / 86_400 + 25_569
    }

    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Text as XML character data: markup escaped, and the control characters XML 1.0 cannot
    /// hold left out (a spreadsheet could not show them either).
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
