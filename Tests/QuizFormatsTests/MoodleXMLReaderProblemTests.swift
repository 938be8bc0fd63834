import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite(.timeLimit(.minutes(1))) struct MoodleXMLReaderProblemTests {
    @Test func unclosedTagIsReportedWhereTheParserNoticedItNamingTheOpenTagsLine() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <quiz>
              <question type="truefalse">
                <name><text>Broken</text>
                <questiontext><text>Q</text></questiontext>
              </question>
            </quiz>
            """
        let problems = moodleXMLProblems(xml)
        #expect(problems.map(\.description) == [
            "line 6, column 14: closing tag does not match <name> opened at line 4",
        ])
    }

    @Test func fileEndingInsideAnElementNamesIt() {
        let problems = moodleXMLProblems("<quiz>\n  <question type=\"truefalse\">\n")
        #expect(problems.count == 1)
        #expect(problems.first?.line == 2)
        #expect(problems.first?.message == "the file ends before <question> opened at line 2 is closed")
    }

    @Test func fractionOf37IsRejectedAtTheAnswersLine() {
        let problems = moodleXMLProblems(moodleQuiz("""
              <question type="multichoice">
                <name><text>Odd grade</text></name>
                <questiontext format="plain_text"><text>Q?</text></questiontext>
                <answer fraction="100"><text>A</text></answer>
                <answer fraction="37"><text>B</text></answer>
              </question>

            """))
        #expect(moodleXMLLocations(problems) == ["7:-"])
        #expect(problems.first?.question == "Odd grade")
        #expect(problems.first?.message.hasPrefix("answer 2 has fraction 37, which is not a Moodle grade (100, 90, 83.33333,") == true)
    }

    @Test func fractionThatIsNotANumberIsRejected() {
        let problems = moodleXMLProblems(moodleQuiz(
            "<question type=\"truefalse\"><questiontext><text>Q</text></questiontext>\n"
                + "<answer fraction=\"full\"><text>true</text></answer></question>\n"))
        #expect(problems.map(\.description).first == "line 4: answer 1 has fraction \"full\", which is not a number (question \"Q\")")
    }

    @Test func multichoiceWithNoCorrectAnswerIsRejectedAtTheQuestionsLine() {
        let problems = moodleXMLProblems(moodleQuiz(moodleTrueFalse(text: "Fine"), """
              <question type="multichoice">
                <name><text>Nothing right</text></name>
                <questiontext format="plain_text"><text>Q?</text></questiontext>
                <answer fraction="0"><text>A</text></answer>
                <answer fraction="-50"><text>B</text></answer>
              </question>

            """))
        #expect(problems.map(\.description) == [
            "line 9: answers needs exactly one correct choice, has 0 (question \"Nothing right\")",
        ])
    }

    @Test func multipleAnswerQuestionWithNoPositiveFractionIsRejected() {
        let problems = moodleXMLProblems(moodleQuiz("""
              <question type="multichoice">
                <questiontext format="plain_text"><text>Q?</text></questiontext>
                <single>false</single>
                <answer fraction="0"><text>A</text></answer>
                <answer fraction="0"><text>B</text></answer>
              </question>

            """))
        #expect(problems.map(\.description) == ["line 3: answers needs at least one correct choice (question \"Q?\")"])
    }

    @Test func everyBrokenQuestionIsReportedInOnePass() {
        let problems = moodleXMLProblems(moodleQuiz("""
              <question type="truefalse">
                <questiontext><text>No right answer</text></questiontext>
                <answer fraction="0"><text>true</text></answer>
              </question>
              <question type="numerical">
                <questiontext><text>How many?</text></questiontext>
                <answer fraction="100"><text>about ten</text></answer>
              </question>
              <question type="multichoice">
                <questiontext><text>Same twice</text></questiontext>
                <answer fraction="100"><text>Paris</text></answer>
                <answer fraction="0"><text>PARIS</text></answer>
              </question>
              <question type="shortanswer">
                <questiontext><text>   </text></questiontext>
                <answer fraction="100"><text>x</text></answer>
              </question>

            """))
        #expect(problems.map(\.description) == [
            "line 3: a truefalse question needs one answer, \"true\" or \"false\", with fraction 100 (question \"No right answer\")",
            "line 9: answer 1 (\"about ten\") is not a number (question \"How many?\")",
            "line 11: answer 2 repeats choices[0] (\"Paris\") (question \"Same twice\")",
            "line 16: question text is empty",
        ])
    }

    @Test func questionsThatAreOnlyImagesAreRejectedSayingWhy() {
        let problems = moodleXMLProblems(moodleQuiz("""
              <question type="multichoice">
                <name><text>Flags</text></name>
                <questiontext format="html"><text><![CDATA[<p><img src="@@PLUGINFILE@@/flag.png"></p>]]></text></questiontext>
                <answer fraction="100" format="html"><text><![CDATA[<img src="@@PLUGINFILE@@/fr.png">]]></text></answer>
                <answer fraction="0"><text>Italy</text></answer>
              </question>

            """))
        #expect(problems.map(\.description) == [
            "line 3: the question text is only an image, which Quizbox cannot import (question \"Flags\")",
            "line 6: answer 1 is only an image, which Quizbox cannot import (question \"Flags\")",
        ])
    }

    @Test func badToleranceAndDefaultGradeAreReportedAtTheirLines() {
        let problems = moodleXMLProblems(moodleQuiz("""
              <question type="numerical">
                <questiontext><text>How many?</text></questiontext>
                <defaultgrade>lots</defaultgrade>
                <answer fraction="100"><text>10</text>
                  <tolerance>-1</tolerance></answer>
              </question>

            """))
        #expect(problems.map(\.description) == [
            "line 5: defaultgrade \"lots\" is not a number (question \"How many?\")",
            "line 7: tolerance \"-1\" is not a number of 0 or more (question \"How many?\")",
        ])
    }

    @Test func htmlEntityOutsideCDATAIsAnXMLErrorWithItsColumn() {
        let problems = moodleXMLProblems("<quiz>\n<question type=\"truefalse\"><questiontext><text>a&nbsp;b</text>")
        #expect(moodleXMLLocations(problems) == ["2:55"])
        #expect(problems.first?.message.contains("inside <![CDATA[ ]]>") == true)
    }

    @Test func bareAmpersandIsAnXMLError() {
        let problems = moodleXMLProblems("<quiz>\n\n<question><name><text>Salt & pepper</text></name></question></quiz>")
        #expect(problems.first?.line == 3)
        #expect(problems.first?.message == "a \"<\" or \"&\" that starts no tag or entity (write &lt; and &amp;, or use CDATA)")
    }

    @Test func fileThatIsNotAMoodleExportIsRejected() {
        #expect(moodleXMLProblems("<html>\n<body/></html>").map(\.description) == [
            "line 1: the root element is <html>, not <quiz>: is this a Moodle XML export?",
        ])
        #expect(moodleXMLProblems("question,answer\nQ?,A\n").map(\.message) == [
            "the file holds no XML element: is it a Moodle XML export?",
        ])
    }

    @Test func emptyFilesAreRejected() {
        #expect(moodleXMLProblems("").map(\.message) == ["the file is empty"])
        #expect(moodleXMLProblems(" \n\t\r\n").map(\.message) == ["the file is empty"])
        #expect(moodleXMLProblems("<?xml version=\"1.0\"?>\n<quiz>\n</quiz>\n").map(\.message) == ["the file holds no questions"])
    }

    @Test func fileWithOnlyUnsupportedQuestionsReadsAsAnEmptyBankSayingWhy() throws {
        let result = try readMoodleXML(moodleQuiz(
            "  <question type=\"category\"><category><text>$course$/top/A</text></category></question>\n",
            "  <question type=\"essay\"><name><text>Write</text></name></question>\n"))
        #expect(result.bank == Bank())
        #expect(result.warnings.map(\.description) == ["line 4: essay questions are not supported by Quizbox (question \"Write\")"])
    }

    @Test func fileOverTheSizeLimitIsRejectedBeforeParsing() {
        let xml = moodleQuiz(moodleTrueFalse(text: "Q"))
        let problems = moodleXMLProblems(xml, defaults: ImportDefaults(maxBytes: 100))
        #expect(problems.map(\.message) == ["the file is \(xml.utf8.count) bytes, over the import limit of 100 bytes"])
    }

    @Test func entityExpansionBombIsRefusedQuickly() {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE quiz [\n <!ENTITY a \"aaaaaaaaaa\">\n"
        for level in 1...12 {
            let name = Character(Unicode.Scalar(UInt8(97 + level)))
            let previous = Character(Unicode.Scalar(UInt8(96 + level)))
            xml += " <!ENTITY \(name) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        xml += "]>\n<quiz><question type=\"truefalse\"><questiontext><text>&m;</text></questiontext></question></quiz>\n"
        let problems = moodleXMLProblems(xml)
        #expect(problems.count == 1)
        #expect(problems.first?.line != nil)
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE quiz [ <!ENTITY secret SYSTEM "file:///etc/hostname"> ]>
            <quiz><question type="truefalse"><questiontext><text>Q&secret;</text></questiontext>
            <answer fraction="100"><text>true</text></answer></question></quiz>
            """
        // Either rejected or read without the file's content: never with it.
        let texts = (try? readMoodleXML(xml)).map { moodleXMLQuestions($0.bank).map(\.text) }
        #expect(texts == nil || texts == ["Q"])
    }
}
