import Foundation
import QuizCore
import QuizFormats
import Testing

/// Inputs that crash swift-corelibs-foundation's XMLParser (NULL pointers from libxml2) or that it
/// would read in an encoding a byte scan cannot follow: each must be refused with a location,
/// and must not take the test process down.
@Suite struct MoodleXMLPreflightTests {
    @Test func processingInstructionWithoutContentIsRefusedInsteadOfCrashing() {
        #expect(moodleXMLProblems("<?x?><quiz/>").map(\.description) == [
            "line 1, column 1: a processing instruction <?x?> with no content: remove it",
        ])
        #expect(moodleXMLLocations(moodleXMLProblems("<quiz>\n  <?pi  ?>\n</quiz>")) == ["2:3"])
    }

    @Test func processingInstructionsWithContentAreFineEvenInText() throws {
        let xml = moodleQuiz("<?app mode=\"x\"?>\n", moodleTrueFalse(text: "<![CDATA[Is <?php echo 1; ?> PHP?]]>"))
        #expect(moodleXMLQuestions(try readMoodleXML(xml).bank).map(\.text) == ["Is PHP?"])
    }

    @Test func emptyProcessingInstructionIsRefusedEvenInsideCDATABecauseARecoveringParserMightReadIt() {
        // After the error in <q a>, libxml2 recovers and would call back for <?x?>: the crash.
        let problems = moodleXMLProblems("<quiz><q a><![CDATA[ <?x?> ]]></q></quiz>")
        #expect(problems.map(\.description) == ["line 1, column 22: a processing instruction <?x?> with no content: remove it"])
    }

    @Test func doctypeIsRefusedSoNoEntityOrNotationIsEverDeclared() {
        let doctypes = [
            "<!DOCTYPE quiz [<!NOTATION n SYSTEM \"x\">]>",
            "<!DOCTYPE quiz [<!ENTITY e SYSTEM \"x\" NDATA n>]>",
            "<!DOCTYPE quiz [<!ENTITY e \"&#60;?x?>\">]>",
            "<!DOCTYPE quiz [<!ATTLIST quiz a CDATA #IMPLIED>]>",
            "<!DOCTYPE quiz SYSTEM \"quiz.dtd\">",
        ]
        for doctype in doctypes {
            let problems = moodleXMLProblems("<?xml version=\"1.0\"?>\n" + doctype + "\n<quiz>&e;</quiz>")
            #expect(problems.map(\.description) == [
                "line 2, column 1: a <!DOCTYPE> declaration, which Moodle XML files do not have: remove it",
            ], "\(doctype)")
        }
    }

    @Test func encodingsThatAreNotASCIICompatibleAreRefused() {
        let utf16 = Data([0xFF, 0xFE]) + "<quiz/>".data(using: .utf16LittleEndian)!
        #expect(moodleXMLProblems(utf16).map(\.message) == ["the file is UTF-16: save it as UTF-8"])
        let utf16WithoutBOM = "<quiz/>".data(using: .utf16BigEndian)!
        #expect(moodleXMLProblems(utf16WithoutBOM).map(\.description) == [
            "line 1, column 1: a NUL byte, which XML does not allow (is the file UTF-16? save it as UTF-8)",
        ])
        let ebcdic = "<?xml version='1.0' encoding='IBM037'?><quiz/>"
        #expect(moodleXMLProblems(ebcdic).map(\.message) == ["the file declares the encoding \"IBM037\": save it as UTF-8"])
    }

    @Test func asciiCompatibleEncodingsAreRead() throws {
        var latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<quiz>\n".utf8)
        latin1 += moodleTrueFalse(text: "Caf\u{E9}?").data(using: .isoLatin1)!
        latin1 += Data("</quiz>\n".utf8)
        let result = try MoodleXMLReader().read(latin1)
        #expect(moodleXMLQuestions(result.bank).map(\.text) == ["Café?"])
    }
}
