import Foundation
@testable import QuizServer
import QuizText
import Testing

/// How a live game's CSV is split for a spreadsheet: by the page's language unless asked.
@Suite struct LiveResultsExportTests {
    @Test func finnishPagesGetSemicolonsAndAParameterOverridesTheLanguage() {
        typealias Separator = LiveResultsExport.Separator
        #expect(Separator(parameter: nil, language: .en) == .comma)
        #expect(Separator(parameter: nil, language: .fi) == .semicolon)
        #expect(Separator(parameter: "comma", language: .fi) == .comma)
        #expect(Separator(parameter: ";", language: .en) == .semicolon)
        #expect(Separator(parameter: "SEMICOLON", language: .en) == .semicolon)
        #expect(Separator(parameter: "tab", language: .en) == .comma, "an unknown value falls back to the language's")
    }

    @Test func aFieldIsQuotedForItsOwnSeparatorAndFormulasAreDefused() {
        #expect(LiveResultsExport.field("a;b", separator: ";") == "\"a;b\"")
        #expect(LiveResultsExport.field("a;b", separator: ",") == "a;b")
        #expect(LiveResultsExport.field("a,b", separator: ";") == "a,b")
        #expect(LiveResultsExport.field("=SUM(A1)", separator: ";") == "'=SUM(A1)")
        #expect(LiveResultsExport.field("say \"hi\"\n", separator: ",") == "\"say \"\"hi\"\"\n\"")
    }
}
