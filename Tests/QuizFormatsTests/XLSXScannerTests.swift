import Foundation
import QuizCore
import QuizFormats
import Testing

/// The sheet's own XML reader, through the workbook: what it decodes and what it calls damaged.
@Suite struct XLSXScannerTests {
    typealias F = XLSXFixture

    private func outcome(_ sheet: String) -> [String] {
        do {
            let data = try F.workbook(rows: "", sheetXML: sheet)
            let result = try BankFormat.xlsx.read(data, defaults: ImportDefaults())
            return result.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions).map(\.text)
        } catch let error as ImportError {
            return error.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    private func sheet(_ question: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <!-- written by hand --><?mso-application progid="Excel.Sheet"?>
        <x:worksheet xmlns:x="\(F.main)"><x:sheetData><x:row r="1">\
        <x:c r="A1" t='inlineStr'><x:is><x:t>\(question)</x:t></x:is></x:c>\
        <x:c r="B1" t="inlineStr"><x:is><x:t>a</x:t></x:is></x:c><x:c r="C1" t="inlineStr"><x:is><x:t>b</x:t></x:is></x:c>\
        <x:c r="F1" t="inlineStr"><x:is><x:t>a</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>
        """
    }

    @Test func entitiesReferencesCDATAPrefixesCommentsAndInstructionsRead() {
        #expect(outcome(sheet("Fish &amp; chips &lt;3 &#x41;&#66; &quot;ok&apos;")) == ["Fish & chips <3 AB \"ok'"])
        #expect(outcome(sheet("<![CDATA[A & B <i>]]>")) == ["A & B <i>"])
    }

    @Test func brokenXMLIsCalledDamagedWithItsLine() {
        #expect(outcome(sheet("unclosed <x:b>")) == ["line 3, xl/worksheets/sheet1.xml: the workbook's XML is malformed: the file is damaged"])
        #expect(outcome(sheet("&nbsp;")) == [
            "line 3, xl/worksheets/sheet1.xml: an entity XML does not define, which spreadsheets do not write: the workbook is not imported",
        ])
        #expect(outcome("<worksheet><sheetData>") == ["line 1, xl/worksheets/sheet1.xml: the workbook's XML is malformed: the file is damaged"])
        #expect(outcome("") == ["line 1, xl/worksheets/sheet1.xml: the workbook's XML is malformed: the file is damaged"])
        #expect(outcome("<a/><b/>") == ["line 1, xl/worksheets/sheet1.xml: the workbook's XML is malformed: the file is damaged"])
        #expect(outcome(String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)).first?.hasSuffix("malformed: the file is damaged") == true)
    }

    @Test func bytesThatAreNotUTF8AreDamage() throws {
        var bytes = Array(sheet("Caf\u{E9}").utf8)
        let index = try #require(bytes.firstIndex(of: 0xC3))
        bytes.remove(at: index)  // é's lead byte gone: a stray continuation byte
        let data = try F.zip([
            ("xl/workbook.xml", Data("<workbook xmlns:r=\"r\"><sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>".utf8)),
            ("xl/_rels/workbook.xml.rels", Data("<Relationships><Relationship Id=\"rId1\" Target=\"worksheets/sheet1.xml\"/></Relationships>".utf8)),
            ("xl/worksheets/sheet1.xml", Data(bytes)),
        ])
        #expect(throws: ImportError(problems: [FormatProblem(line: 3, path: "xl/worksheets/sheet1.xml",
                                                             message: "text in the workbook is not UTF-8: the file is damaged")])) {
            try BankFormat.xlsx.read(data, defaults: ImportDefaults())
        }
    }

    /// Found by the fuzzer: a cell wrapped around a row ended with no column and crashed.
    @Test func aCellAroundARowIsNoCrash() {
        let sheet = "<worksheet xmlns=\"\(F.main)\"><sheetData><c r=\"A1\"><row r=\"1\"></row><v>1</v></c></sheetData></worksheet>"
        #expect(outcome(sheet) == ["no questions found: the sheet is empty"])
    }
}
