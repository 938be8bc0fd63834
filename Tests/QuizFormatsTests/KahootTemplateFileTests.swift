import Foundation
import QuizCore
import QuizFormats
import Testing

/// Kahoot's own quiz template as teachers and tools have saved it (shared/testdata/formats/xlsx,
/// sources in SOURCES.md): Excel's shared strings, a tool's inline strings with an absolute sheet
/// path, and the template left empty.
@Suite(SharedTestData.required) struct KahootTemplateFileTests {
    private func read(_ name: String) throws(ImportError) -> ReadResult {
        let data = (try? Data(contentsOf: SharedTestData.url("xlsx/\(name)"))) ?? Data()
        return try BankFormat.detect(fileName: name, data: data).read(data, defaults: ImportDefaults())
    }

    private func questions(_ result: ReadResult) -> [Question] {
        result.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
    }

    @Test func theTemplatesOwnExampleRowIsImportedLikeAnyOther() throws {
        let found = questions(try read("qahoot-KahootQuizTemplate.xlsx"))
        #expect(found.map(\.text) == ["Which spreadsheet tools can read this sheet and export to xlsx format?"])
        #expect(found.first?.kind == .multipleChoice)
        #expect(found.first?.body.choices.map(\.text) == ["Excel", "Google Docs", "Numbers", "LibreOffice"])
        #expect(found.first?.body.choices.allSatisfy(\.isCorrect) == true)
    }

    @Test func aGeneratedTemplateWithInlineStringsReadsWhole() throws {
        let found = questions(try read("flowstate-KahootQuizTemplate.xlsx"))
        #expect(found.count == 30)
        #expect(found.allSatisfy { $0.kind == .singleChoice && $0.body.choices.count == 4 })
        #expect(found.first?.body.choices.first(where: \.isCorrect)?.text == "Unlocking Flow State")
        #expect(found.last?.text == "แนวคิดใหญ่ของงานนี้เหมาะกับประโยคใดที่สุด?")
    }

    @Test func theEmptyTemplateHasNoQuestions() {
        #expect(throws: ImportError(problems: [FormatProblem(message: "the sheet has a header but no questions")])) {
            try read("prodataman-KahootQuizTemplate.xlsx")
        }
    }
}
