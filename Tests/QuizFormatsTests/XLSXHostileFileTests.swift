import Foundation
import QuizCore
import QuizFormats
import Testing

/// Spreadsheets built to hurt: each is refused with one clear sentence, and nothing is read.
@Suite struct XLSXHostileFileTests {
    typealias F = XLSXFixture

    private func refusal(_ data: Data, maxBytes: Int = 20 << 20) -> [String] {
        do {
            let result = try BankFormat.xlsx.read(data, defaults: ImportDefaults(maxBytes: maxBytes))
            return ["read \(result.bank.questionCount) questions"]
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func aZipBombIsRefusedBeforeItIsInflated() throws {
        // 8 MiB of one repeated byte packs to a few KiB: far past any ratio a sheet has.
        let sheet = "<worksheet xmlns=\"\(F.main)\"><sheetData>" + String(repeating: " ", count: 8 << 20) + "</sheetData></worksheet>"
        let data = try F.workbook(rows: "", sheetXML: sheet)
        #expect(data.count < 100_000)
        #expect(refusal(data) == [
            "the workbook's part xl/worksheets/sheet1.xml unpacks to over 200 times its packed size, as a ZIP bomb does: it is not imported",
        ])
    }

    @Test func aPartThatInflatesPastItsDeclaredSizeIsStoppedThere() throws {
        let rows = String(repeating: "<row r=\"1\"></row>", count: 1)
        let sheet = "<worksheet xmlns=\"\(F.main)\"><sheetData>\(rows)" + String(repeating: " ", count: 20_000) + "</sheetData></worksheet>"
        var data = [UInt8](try F.workbook(rows: "", sheetXML: sheet))
        // The directory and the local header both claim 100 bytes for the sheet.
        let name = Array("xl/worksheets/sheet1.xml".utf8)
        func patch(signature: [UInt8], sizeOffset: Int, nameOffset: Int) {
            var index = 0
            while index + nameOffset + name.count <= data.count {
                if Array(data[index..<index + 4]) == signature, Array(data[index + nameOffset..<index + nameOffset + name.count]) == name {
                    data.replaceSubrange(index + sizeOffset..<index + sizeOffset + 4, with: [100, 0, 0, 0])
                }
                index += 1
            }
        }
        patch(signature: [0x50, 0x4B, 0x03, 0x04], sizeOffset: 22, nameOffset: 30)
        patch(signature: [0x50, 0x4B, 0x01, 0x02], sizeOffset: 24, nameOffset: 46)
        let found = refusal(Data(data))
        #expect(found == ["the workbook's part xl/worksheets/sheet1.xml unpacks to more than its directory says, as a ZIP bomb does: it is not imported"]
                || found == ["the workbook's part xl/worksheets/sheet1.xml cannot be unpacked (the file is damaged, or encrypted): save it again as an Excel workbook (.xlsx)"],
                "\(found)")
    }

    @Test func entitiesAreRefused() throws {
        let sheet = """
            <?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\
            <worksheet xmlns="\(F.main)"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol2;</t></is></c></row></sheetData></worksheet>
            """
        let found = refusal(try F.workbook(rows: "", sheetXML: sheet))
        #expect(found == ["line 1, xl/worksheets/sheet1.xml: a <!DOCTYPE> declaration (entities), which spreadsheets do not write: the workbook is not imported"])
        let external = "<worksheet xmlns=\"\(F.main)\"><sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>&xxe;</t></is></c></row></sheetData></worksheet>"
        #expect(refusal(try F.workbook(rows: "", sheetXML: external)).first?.contains("an entity XML does not define") == true)
    }

    @Test func aSheetPathOutsideTheArchiveIsRefused() throws {
        let data = try F.workbook(rows: F.row(1, ["Q?", "a", "b", "", "", "a"]), sheetTarget: "../../../etc/passwd")
        #expect(refusal(data) == ["the workbook names its sheet \"Quiz\" at ../../../etc/passwd, outside the file: it is not imported"])
        // An absolute target is the archive's own root, as some writers put it.
        let rooted = try F.workbook(rows: F.row(1, ["Q?", "a", "b", "", "", "a"]), sheetTarget: "/xl/worksheets/sheet1.xml")
        #expect(refusal(rooted) == ["read 1 questions"])
    }

    @Test func aPasswordProtectedWorkbookIsToldApartFromAnOldXLS() {
        let header: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
        let encrypted = Data(header + [UInt8](repeating: 0, count: 500) + "EncryptionInfo".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(BankFormat.detect(fileName: "quiz.xlsx", data: encrypted) == .xlsx)
        #expect(refusal(encrypted) == [
            "the workbook is protected with a password: open it in Excel or LibreOffice, save it without a password and import it again",
        ])
        let old = Data(header + [UInt8](repeating: 0, count: 500))
        #expect(BankFormat.detect(fileName: "quiz.gift", data: old) == .xlsx)
        #expect(refusal(old) == ["the file is an old Excel workbook (.xls): save it as an Excel workbook (.xlsx) and import it again"])
    }

    @Test func aZipThatIsNoWorkbookOrIsDamagedIsSaidSo() throws {
        let other = try F.zip([("word/document.xml", Data("<w/>".utf8))])
        #expect(refusal(other) == ["the ZIP file holds no xl/workbook.xml, so it is not an Excel workbook (.xlsx)"])
        var damaged = try F.workbook(rows: F.row(1, ["Q?", "a", "b", "", "", "a"]))
        damaged = damaged.prefix(damaged.count - 30)
        #expect(refusal(damaged) == ["the file is not a readable .xlsx workbook (its ZIP structure is damaged): save it again as an Excel workbook (.xlsx)"])
    }

    @Test func aHugeSheetIsRefusedAtItsRowLimit() throws {
        var rows = ""
        rows.reserveCapacity(4 << 20)
        for number in 1...100_001 { rows += "<row r=\"\(number)\"><c r=\"A\(number)\"><v>1</v></c></row>" }
        #expect(refusal(try F.workbook(rows: rows)) == ["row 100001: the sheet has more than 100000 rows: split it into several files"])
    }

    @Test func aCellPastTheLastColumnOrARowOutOfOrderIsDamage() throws {
        let wide = "<row r=\"1\"><c r=\"XFE1\"><v>1</v></c></row>"
        #expect(refusal(try F.workbook(rows: wide)).first?.contains("past the last column") == true)
        let backwards = "<row r=\"5\"><c r=\"A5\"><v>1</v></c></row><row r=\"2\"><c r=\"A2\"><v>1</v></c></row>"
        #expect(refusal(try F.workbook(rows: backwards)) == ["row 2: row 2 is out of order: the file is damaged"])
    }

    @Test func aFileOverTheImportLimitIsRefusedUnread() throws {
        let data = try F.workbook(rows: F.row(1, ["Q?", "a", "b", "", "", "a"]))
        #expect(refusal(data, maxBytes: 100).first?.hasPrefix("the file is ") == true)
    }

    @Test func aMissingSharedStringIsDamage() throws {
        let rows = "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>7</v></c></row>"
        #expect(refusal(try F.workbook(rows: rows, sharedStrings: ["<si><t>a</t></si>"])) == [
            "row 1, column A: the cell names a shared string the workbook lacks: the file is damaged",
        ])
    }

    /// Found by the fuzzer: ZIPFoundation's in-memory archive crashed reading past the end after
    /// a seek to an offset its directory named. Every offset is checked before it is opened.
    @Test func aDirectoryPointingPastTheEndIsDamageNotACrash() throws {
        let good = [UInt8](try F.workbook(rows: F.row(1, ["Q?", "a", "b", "", "", "a"])))
        let end = try #require((0...(good.count - 22)).reversed().first { Array(good[$0..<$0 + 4]) == [0x50, 0x4B, 0x05, 0x06] })
        let directory = Int(good[end + 16]) | Int(good[end + 17]) << 8 | Int(good[end + 18]) << 16 | Int(good[end + 19]) << 24
        let damaged = ["the file is not a readable .xlsx workbook (its ZIP structure is damaged): save it again as an Excel workbook (.xlsx)"]
        var farLocal = good
        farLocal.replaceSubrange((directory + 42)..<(directory + 46), with: [0x00, 0x00, 0x00, 0x7F])
        #expect(refusal(Data(farLocal)) == damaged)
        var farDirectory = good
        farDirectory.replaceSubrange((end + 16)..<(end + 20), with: [0xF0, 0xFF, 0x00, 0x00])
        #expect(refusal(Data(farDirectory)) == damaged)
        var moreEntries = good
        moreEntries.replaceSubrange((end + 10)..<(end + 12), with: [0xFF, 0x00])
        #expect(refusal(Data(moreEntries)) == damaged)
        var bigData = good
        bigData.replaceSubrange((directory + 20)..<(directory + 24), with: [0xFF, 0xFF, 0xFF, 0x00])
        #expect(refusal(Data(bigData)) == damaged)
        var zip64 = good
        zip64.replaceSubrange((directory + 24)..<(directory + 28), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(refusal(Data(zip64)).first?.contains("ZIP64") == true)
    }
}
