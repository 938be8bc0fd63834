import Foundation
import QuizCore
import QuizFormats

/// Reading a 10,000-row Kahoot template (`scripts/bench inprocess`): questions a second, and the
/// peak resident memory of the process after reading it (run first, so nothing else set it).
enum SpreadsheetBench {
    static func run(rows: Int = 10_000) throws {
        let workbook = kahootWorkbook(rows: rows)
        var read = 0
        let seconds = try QuizBench.bestThrowing {
            read = try BankFormat.xlsx.read(workbook, defaults: ImportDefaults()).bank.questionCount
        }
        precondition(read == rows, "read \(read) of \(rows) questions")
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("| xlsx parse, Kahoot template of \(rows) rows (\(workbook.count / 1024) KB packed; target ≥ 100,000 q/s) "
              + "| \(Int(Double(rows) / seconds)) | | \(QuizBench.ms(seconds)), peak \(usage.ru_maxrss / 1024) MB | |")
    }

    /// Kahoot's layout, half the texts shared strings as Excel writes them, half inline as tools do.
    static func kahootWorkbook(rows: Int) -> Data {
        var strings = "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
        var sheet = "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData><row r=\"8\">"
        let header = SpreadsheetBankWriter.kahootHeader
        for (index, title) in header.enumerated() {
            sheet += "<c r=\"\(Character(UnicodeScalar(66 + index)!))8\" t=\"inlineStr\"><is><t>\(title)</t></is></c>"
        }
        sheet += "</row>"
        var shared = 0
        for i in 0..<rows {
            let r = 9 + i
            sheet += "<row r=\"\(r)\"><c r=\"A\(r)\"><v>\(i + 1)</v></c>"
            let texts = ["What is \(i) plus \(i % 7), written out?", "\(i + i % 7)", "\(i + 1 + i % 7)", "Answer \(i) C", "Answer \(i) D"]
            for (column, text) in zip(["B", "C", "D", "E", "F"], texts) {
                if i % 2 == 0 {
                    strings += "<si><t>\(text)</t></si>"
                    sheet += "<c r=\"\(column)\(r)\" t=\"s\"><v>\(shared)</v></c>"
                    shared += 1
                } else {
                    sheet += "<c r=\"\(column)\(r)\" t=\"inlineStr\"><is><t>\(text)</t></is></c>"
                }
            }
            sheet += "<c r=\"G\(r)\"><v>20</v></c><c r=\"H\(r)\" t=\"inlineStr\"><is><t>\(i % 4 + 1)</t></is></c></row>"
        }
        sheet += "</sheetData></worksheet>"
        strings += "</sst>"
        return XLSXWriter.archive([
            ("xl/workbook.xml", Data("""
                <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
                xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>
                """.utf8)),
            ("xl/_rels/workbook.xml.rels", Data("""
                <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
                <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>\
                <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>\
                </Relationships>
                """.utf8)),
            ("xl/worksheets/sheet1.xml", Data(sheet.utf8)),
            ("xl/sharedStrings.xml", Data(strings.utf8)),
        ])
    }
}
