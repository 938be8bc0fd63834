import Foundation
import ZIPFoundation

/// Workbooks built part by part in a test, so each reads as the spreadsheet it stands for (and a
/// hostile one can be exactly as hostile as the test needs).
enum XLSXFixture {
    static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

    /// A ZIP archive of `parts` (path → bytes), deflated.
    static func zip(_ parts: [(String, Data)]) throws -> Data {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (path, bytes) in parts {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { position, size in
                bytes.subdata(in: Int(position)..<min(Int(position) + size, bytes.count))
            }
        }
        return archive.data ?? Data()
    }

    /// A one-sheet workbook whose sheet's `<sheetData>` holds `rows` (XML), with the shared strings given.
    static func workbook(rows: String, sharedStrings: [String] = [], sheetTarget: String = "worksheets/sheet1.xml",
                         sheetXML: String? = nil) throws -> Data {
        var parts: [(String, Data)] = [
            ("[Content_Types].xml", Data("<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"/>".utf8)),
            ("xl/workbook.xml", Data("""
                <?xml version="1.0" encoding="UTF-8"?><workbook xmlns="\(main)" \
                xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">\
                <sheets><sheet name="Quiz" sheetId="1" r:id="rId1"/></sheets></workbook>
                """.utf8)),
            ("xl/_rels/workbook.xml.rels", Data("""
                <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
                <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="\(sheetTarget)"/>\
                <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>\
                </Relationships>
                """.utf8)),
            ("xl/worksheets/sheet1.xml", Data((sheetXML ?? "<worksheet xmlns=\"\(main)\"><sheetData>\(rows)</sheetData></worksheet>").utf8)),
        ]
        if !sharedStrings.isEmpty {
            parts.append(("xl/sharedStrings.xml", Data(("<sst xmlns=\"\(main)\">" + sharedStrings.joined() + "</sst>").utf8)))
        }
        return try zip(parts)
    }

    /// An inline-string cell.
    static func text(_ reference: String, _ value: String) -> String {
        let escaped = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return "<c r=\"\(reference)\" t=\"inlineStr\"><is><t>\(escaped)</t></is></c>"
    }

    static func number(_ reference: String, _ value: String) -> String {
        "<c r=\"\(reference)\"><v>\(value)</v></c>"
    }

    /// A row of inline strings from column `first` on ("" leaves a cell out).
    static func row(_ number: Int, _ values: [String], first: Character = "A") -> String {
        var cells = ""
        for (index, value) in values.enumerated() where !value.isEmpty {
            let letter = Character(UnicodeScalar(first.asciiValue! + UInt8(index)))
            cells += text("\(letter)\(number)", value)
        }
        return "<row r=\"\(number)\">\(cells)</row>"
    }

    /// Kahoot's header, in row `number` from column B, as the template has it in row 8.
    static func kahootHeader(_ number: Int = 8, first: Character = "B") -> String {
        row(number, ["Question - max 120 characters", "Answer 1 - max 75 characters", "Answer 2 - max 75 characters",
                     "Answer 3 - max 75 characters", "Answer 4 - max 75 characters",
                     "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs", "Correct answer(s) - choose at least one"],
            first: first)
    }
}
