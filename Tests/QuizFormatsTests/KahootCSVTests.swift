import Foundation
import QuizCore
import QuizFormats
import Testing

/// /work/shared/testdata/formats/csv/qas-kahoot.csv is a Kahoot-style export: a numbering column,
/// "Answer1"–"Answer4", a "Time" limit and a "Correct" option *number*, which is not the Quizbox
/// layout. The reader must refuse it with one clear message rather than import garbage.
@Suite(SharedTestData.required) struct KahootCSVTests {
    private static let file = SharedTestData.url("csv/qas-kahoot.csv")

    @Test func kahootExportIsRejectedWithOneMessageNamingTheExpectedHeader() throws {
        let data = try Data(contentsOf: Self.file)
        do {
            let bank = try CSVReader().read(data)
            Issue.record("expected the Kahoot layout to be rejected, got \(bank.questionCount) questions")
        } catch {
            #expect(error.problems.first?.line == 1)
            #expect(error.problems.first?.column == nil)
            #expect(error.problems.first?.message.hasPrefix("header lacks the column(s) option1, option2, answer;") == true)
            // Then each column the header does not know, so the author sees what to rename.
            #expect(error.problems.dropFirst().map(\.column) == [1, 3, 4, 5, 6, 7, 8])
            #expect(error.problems.dropFirst().map(\.message).last == "unknown column \"Correct\"")
        }
    }
}
