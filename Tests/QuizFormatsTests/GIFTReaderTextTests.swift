import Foundation
import QuizCore
import QuizFormats
import Testing

/// How GIFT text is read: titles, categories, the text formats, escapes, comments and layout.
@Suite struct GIFTReaderTextTests {
    private typealias S = GIFTSupport

    // MARK: - Titles, categories

    @Test func titlesAreDroppedEvenWithEscapedColons() throws {
        let questions = try S.questions("::Numeric\\: 1:: What year?{#2006:1}\n\n::Title::\n[html]<p>Two lines?</p>{T}")
        #expect(questions.map(\.text) == ["What year?", "Two lines?"])
    }

    @Test func categoriesNameTheSubjectAndTopicOfTheQuestionsAfterThem() throws {
        let defaults = ImportDefaults(subject: "Misc", topic: "General", quizTitle: "Upload")
        let result = try S.read("""
            Before any category?{T}

            $CATEGORY: $course$/top/Science/Physics/Optics

            Light is a wave?{T}

            $CATEGORY: $system$/History

            Rome fell in 476?{T}

            $CATEGORY: Science/Optics

            Lenses bend light?{T}

            $CATEGORY: $module$/top/Maths

            1 + 1 = 2?{T}
            """, defaults: defaults)
        let bank = result.bank
        #expect(bank.subjects.map(\.name) == ["Misc", "Science", "History", "Maths"])
        #expect(bank.subjects.map { $0.topics.map(\.name) } == [["General"], ["Optics"], ["History"], ["Maths"]])
        #expect(bank.subjects[1].topics[0].quizzes.map(\.title) == ["Upload"])
        #expect(bank.subjects[1].topics[0].quizzes[0].questions.map(\.text) == ["Light is a wave?", "Lenses bend light?"])
        #expect(bank.subjects.allSatisfy { $0.topics.allSatisfy { $0.questions.isEmpty && $0.quizzes.count == 1 } })
    }

    @Test func doubledSlashesInACategoryAreASlashInTheName() throws {
        let bank = try S.read("$CATEGORY: TCP//IP/Ports \\: basics\n\nQ?{T}").bank
        #expect(bank.subjects.map(\.name) == ["TCP/IP"])
        #expect(bank.subjects[0].topics.map(\.name) == ["Ports : basics"])
    }

    // MARK: - Text formats

    @Test func htmlIsTurnedIntoPlainTextWithEntitiesDecoded() throws {
        let question = try S.question("""
            [html]<p>Is 3 &lt; 5 &amp;&amp; 5 &gt; 4?</p><br>Say &quot;yes&quot; or &#39;no&#39;: &#65;&#x42;<!-- hidden --> <b>now</b>{T}
            """)
        #expect(question.text == "Is 3 < 5 && 5 > 4?\n\nSay \"yes\" or 'no': AB now")
    }

    @Test func htmlLineBreaksAreSpacesButMoodleFormatKeepsThem() throws {
        let questions = try S.questions("[html]One\\ntwo\n<ul><li>a</li><li>b</li></ul>{T}\n\nOne\\ntwo\nthree  four{T}")
        #expect(questions.map(\.text) == ["One two\n- a\n- b", "One\ntwo\nthree four"])
    }

    @Test func plainAndMarkdownTextIsKeptAsWritten() throws {
        let questions = try S.questions("[plain]Is <b>bold</b> &amp; a<b?{T}\n\n[markdown]**Bold** &amp; <i>x</i>{T}")
        #expect(questions.map(\.text) == ["Is <b>bold</b> &amp; a<b?", "**Bold** &amp; <i>x</i>"])
    }

    @Test func controlCharactersAreWhiteSpaceInHTMLWithOrWithoutEscapesAround() throws {
        let questions = try S.questions("A\u{0C}b?{T}\n\nA\u{0C}b\\:{T}\n\n[plain]A\u{0C}b\\:{T}")
        #expect(questions.map(\.text) == ["A b?", "A b:", "A\u{0C}b:"])
        let spaced = try S.questions("\u{A0}Q?\u{A0}{T}\n\n\u{A0}Q\\:\u{A0}{T}\n\n[html]a\u{A0} b{T}")
        #expect(spaced.map(\.text) == ["Q?", "Q:", "a\u{A0} b"])
    }

    @Test func theDefaultFormatStripsOnlyKnownTags() throws {
        let question = try S.question("Is a<b, and is <stdio.h> a <b>header</b>?{T}")
        #expect(question.text == "Is a<b, and is <stdio.h> a header?")
    }

    @Test func noBreakSpacesAreKeptInsideTextAndTrimmedAtLineEnds() throws {
        let question = try S.question("[html]<p>duree&nbsp;:&nbsp;Integer&nbsp;</p><p>&nbsp;</p>{T}")
        #expect(question.text == "duree\u{A0}:\u{A0}Integer")
    }

    @Test func answersMayCarryTheirOwnFormatTag() throws {
        let question = try S.question("[html]<p>Q</p>{=[plain]<b>literal</b> ~[moodle]<i>x</i> ~<em>y</em>}")
        #expect(question.body == .singleChoice(S.choices(["<b>literal</b>", "x", "y"], correct: [1])))
    }

    // MARK: - Escapes, layout

    @Test func escapedControlCharactersAreText() throws {
        let question = try S.question(##"Which is not special\: \~ \= \# \{ \} \\n?{=\\ ~\~ ~\= ~\# ~\{ ~\} ~\: ~a\nb}"##)
        #expect(question.text == "Which is not special: ~ = # { } \\n?")
        #expect(question.body == .singleChoice(S.choices(["\\", "~", "=", "#", "{", "}", ":", "a\nb"], correct: [1])))
    }

    @Test func aBackslashBeforeAnOrdinaryCharacterStays() throws {
        let question = try S.question(#"Path C\Users\x?{=C\Users ~D\ }"#)
        #expect(question.text == #"Path C\Users\x?"#)
        #expect(question.body.choices.map(\.text) == [#"C\Users"#, "D\\"])
    }

    @Test func commentsAreIgnoredEvenInsideAQuestion() throws {
        let questions = try S.questions("""
            // question: 1011  name: Intro
            // [id:432] [tag:Advanced] [tag:ad]
            Q1?{
            // a comment between answers
            =a
            ~b
            }
            // between questions
            """)
        #expect(questions == [Question(text: "Q1?", body: .singleChoice(S.choices(["a", "b"], correct: [1])))])
    }

    @Test func aByteOrderMarkCRLFIndentationAndMultiLineTextAreRead() throws {
        let text = "\u{FEFF}\t::T::First line\r\n   second line{\r\n\t\t=right\r\n\t\t  continued\r\n\t~wrong#because\r\n   of this\r\n}\r\n\r\n  Next?{F}\r\n"
        let questions = try S.questions(text)
        #expect(questions == [
            Question(text: "First line\nsecond line", body: .singleChoice(S.choices(["right\ncontinued", "wrong"], correct: [1]))),
            Question(text: "Next?", body: .trueFalse(false)),
        ])
    }
}
