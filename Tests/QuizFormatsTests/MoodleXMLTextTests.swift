import Foundation
import QuizCore
import QuizFormats
import Testing

/// What HTML and other formatted texts become once imported.
@Suite(.timeLimit(.minutes(1))) struct MoodleXMLTextTests {
    private func text(_ raw: String, format: String = "html") throws -> String {
        try onlyMoodleXMLQuestion(moodleQuiz(moodleTrueFalse(text: raw, format: format))).text
    }

    @Test func paragraphsAndLineBreaksBecomeNewlinesAndOtherTagsVanish() throws {
        let html = "<![CDATA[<p>First <b>bold</b>\n   paragraph.</p><p style=\"x\">Second<br>line<br/>three</p><div>Last</div>]]>"
        #expect(try text(html) == "First bold paragraph.\nSecond\nline\nthree\nLast")
    }

    @Test func entitiesAreDecodedWhetherInCDATAOrEscapedXML() throws {
        #expect(try text("<![CDATA[caf&eacute; &#233; &#xE9; &amp; &lt;tag&gt; &pi;&nbsp;r&sup2;]]>") == "café é é & <tag> π r²")
        // Without CDATA the XML is decoded first and the HTML second: &amp;lt; is a "<" to show.
        #expect(try text("&lt;p&gt;a &amp;lt; b&lt;/p&gt;") == "a < b")
    }

    @Test func textThatOnlyLooksLikeMarkupIsKept() throws {
        #expect(try text("<![CDATA[Is 3 < 5 & 5 > 3? &foo; x<y]]>") == "Is 3 < 5 & 5 > 3? &foo; x<y")
    }

    @Test func commentsScriptsAndStylesAreDropped() throws {
        let html = "<![CDATA[<!-- note --><style>p { color: red }</style>Shown<SCRIPT>alert('x')</SCRIPT> text]]>"
        #expect(try text(html) == "Shown text")
    }

    @Test func listItemsAndTableCellsStaySeparate() throws {
        let html = "<![CDATA[Pick:<ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr></table>]]>"
        #expect(try text(html) == "Pick:\n- one\n- two\na b")
    }

    @Test func xhtmlWrittenWithoutCDATAIsConvertedToo() throws {
        #expect(try text("<p>Unescaped <b>XHTML</b> &amp; more</p><p>Two</p>") == "Unescaped XHTML & more\nTwo")
    }

    @Test func autoFormatKeepsLineBreaksAndPlainTextKeepsMarkup() throws {
        #expect(try text("One\nTwo <b>bold</b>", format: "moodle_auto_format") == "One\nTwo bold")
        #expect(try text("<![CDATA[  Keep <b>this</b> as is  ]]>", format: "plain_text") == "Keep <b>this</b> as is")
        #expect(try text("**Markdown** stays", format: "markdown") == "**Markdown** stays")
    }

    @Test func blankLinesCollapseToOne() throws {
        #expect(try text("<![CDATA[<p>A</p><br><br><br><br><p>B</p>]]>") == "A\n\nB")
    }

    @Test func unclosedMarkupCostsLinearTime() {
        let hostile = String(repeating: "<a", count: 50_000) + String(repeating: "&amp", count: 50_000) + "<!--"
        let problems = moodleXMLProblems(moodleQuiz(moodleTrueFalse(text: "<![CDATA[x" + hostile + "]]>")))
        #expect(problems.map(\.message) == ["question text is longer than 2000 characters"])
    }
}
