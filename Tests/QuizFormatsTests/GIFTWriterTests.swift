import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct GIFTWriterTests {
    private typealias S = GIFTSupport

    private func bank(_ questions: [Question], subject: String = "Geo", topic: String = "Capitals") -> Bank {
        Bank(subjects: [BankSubject(name: subject, topics: [BankTopic(name: topic, quizzes: [BankQuiz(title: "Q", questions: questions)])])])
    }

    @Test func eachKindIsWrittenAsMoodleWritesIt() {
        let output = GIFTWriter().write(bank([
            Question(text: "Capital of France?", explanation: "Since 987.", body: .singleChoice(S.choices(["Paris", "Lyon"], correct: [1]))),
            Question(text: "Which are EU capitals?", body: .multipleChoice(S.choices(["Paris", "Rome", "Oslo"], correct: [1, 2]))),
            Question(text: "Berlin is in Germany.", body: .trueFalse(true)),
            Question(text: "Capital of Italy?", body: .typedAnswer(["Rome", "Roma"])),
            Question(text: "Paris in millions?", explanation: "About 2.1.", body: .numeric(value: 2.1, tolerance: 0.2, unit: "million")),
        ]))
        #expect(output.skipped.isEmpty)
        #expect(output.text == """
            $CATEGORY: Geo/Capitals

            Capital of France?{
            =Paris
            ~Lyon
            ####Since 987.
            }

            Which are EU capitals?{
            ~%50%Paris
            ~%50%Rome
            ~%-50%Oslo
            }

            Berlin is in Germany.{TRUE}

            Capital of Italy?{
            =Rome
            =Roma
            }

            Paris in millions?{#2.1:0.2####About 2.1.}


            """)
    }

    @Test func multipleChoiceWeightsShareAHundredPercentAsMoodleRoundsThem() {
        let text = GIFTWriter().write(bank([
            Question(text: "Q?", body: .multipleChoice(S.choices(["a", "b", "c", "d"], correct: [1, 2, 3]))),
        ])).text
        #expect(text.contains("{\n~%33.33333%a\n~%33.33333%b\n~%33.33333%c\n~%-33.33333%d\n}"))
    }

    @Test func everyControlCharacterIsEscapedAndLineBreaksBecomeBackslashN() {
        let text = GIFTWriter().write(bank([
            Question(text: "a ~ = # { } : \\ b\nc\r\nd", body: .trueFalse(false)),
        ])).text
        #expect(text.contains(##"a \~ \= \# \{ \} \: \\ b\nc\nd{FALSE}"##))
    }

    @Test func textTheMoodleFormatWouldChangeIsTaggedPlain() {
        let text = GIFTWriter().write(bank([
            Question(text: "Is <b> a tag?", body: .trueFalse(true)),
            Question(text: "Plain question?", body: .singleChoice(S.choices(["x &amp; y", "z"], correct: [2]))),
            Question(text: "Nothing special?", body: .trueFalse(true)),
        ])).text
        #expect(text.contains("\n[plain]Is <b> a tag?{TRUE}\n"))
        #expect(text.contains("\n[plain]Plain question?{\n"))
        #expect(text.contains("\nNothing special?{TRUE}\n"))
    }

    @Test func questionsGIFTCannotHoldAreSkippedWithTheirPath() {
        let nameAll = Question(text: "Name the planets", body: .nameAll(items: [NameAllItem(answer: "Mars")], timeLimitSeconds: 60, typoTolerance: false))
        let oneChoice = Question(text: "Only one?", body: .singleChoice(S.choices(["a"], correct: [1])))
        let arrow = Question(text: "Arrow?", body: .typedAnswer(["a->b"]))
        let kept = Question(text: "Kept?", body: .trueFalse(true))
        let bank = Bank(subjects: [
            BankSubject(name: "S", topics: [
                BankTopic(name: "Skipped only", quizzes: [BankQuiz(title: "Q", questions: [nameAll])]),
                BankTopic(name: "T", quizzes: [BankQuiz(title: "Q", questions: [kept, oneChoice])], questions: [arrow]),
            ]),
        ])
        let output = GIFTWriter().write(bank)
        #expect(output.text == "$CATEGORY: S/T\n\nKept?{TRUE}\n\n")
        #expect(output.skipped.map(\.path) == [
            "subjects[0].topics[0].quizzes[0].questions[0]",
            "subjects[0].topics[1].quizzes[0].questions[1]",
            "subjects[0].topics[1].questions[0]",
        ])
        #expect(output.skipped.map(\.question) == ["Name the planets", "Only one?", "Arrow?"])
        #expect(output.skipped.map(\.message) == [
            "name-them-all questions have no GIFT equivalent",
            "the question is not valid (choices: needs 2 to 10 choices, has 1), so it could not be read back",
            "the accepted answer \"a->b\" contains '->', which GIFT reads as a matching question",
        ])
    }

    @Test func everyWritableKindReadsBackTheSame() throws {
        let original = Bank(subjects: [
            BankSubject(name: "Geography", topics: [
                BankTopic(name: "Capitals", quizzes: [
                    BankQuiz(title: "A", questions: [
                        Question(text: "Capital of France?", explanation: "Since 987.", body: .singleChoice(S.choices(["Paris", "Lyon", "Nice"], correct: [1]))),
                        Question(text: "EU capitals?", body: .multipleChoice(S.choices(["Paris", "Rome", "Oslo"], correct: [1, 2]))),
                        Question(text: "Nordic ones?", explanation: "Three.", body: .multipleChoice(S.choices(["Oslo", "Rome", "Helsinki", "Stockholm"], correct: [1, 3, 4]))),
                    ]),
                    BankQuiz(title: "B", questions: [
                        Question(text: "Berlin is in Germany.", explanation: "It is.", body: .trueFalse(true)),
                        Question(text: "Lyon is a capital.", body: .trueFalse(false)),
                    ]),
                ], questions: [
                    Question(text: "Capital of Italy?", explanation: "Roma in Italian.", body: .typedAnswer(["Rome", "Roma"])),
                ]),
            ]),
            BankSubject(name: "Maths/Logic", topics: [
                BankTopic(name: "Numbers \\ more", quizzes: [
                    BankQuiz(title: "Numbers", questions: [
                        Question(text: "6 × 7?", body: .numeric(value: 42, tolerance: 0.5, unit: nil)),
                        Question(text: "Minus three and a quarter?", explanation: "Exactly.", body: .numeric(value: -3.25, tolerance: 0, unit: nil)),
                        Question(text: "Tiny?", body: .numeric(value: 1e-5, tolerance: 1e-7, unit: nil)),
                        Question(text: "Huge?", body: .numeric(value: 6.02e23, tolerance: 1e21, unit: nil)),
                    ]),
                ]),
            ]),
            BankSubject(name: "Tricky text", topics: [
                BankTopic(name: "Escapes", quizzes: [
                    BankQuiz(title: "E", questions: [
                        Question(text: "a ~ = # { } : \\ b\nsecond line", explanation: "#### and ~ and \\n", body: .singleChoice(S.choices(["=x", "~y", "#z", "{w}"], correct: [4]))),
                        Question(text: "Is <b>bold</b> &amp; a<b?", explanation: "two  spaces", body: .singleChoice(S.choices(["<i>", "&lt;"], correct: [1]))),
                        Question(text: "// not a comment", body: .trueFalse(true)),
                        Question(text: "[html] is a format tag?", body: .singleChoice(S.choices(["[plain] too", "%50 off", "100%"], correct: [2]))),
                        Question(text: "::Not a title:: $CATEGORY: no", body: .typedAnswer(["%20", "[markdown] x", "T"])),
                        Question(text: "Unicode ¿ñ? «é» 日本 👍", body: .multipleChoice(S.choices(["%a", "b"], correct: [1, 2]))),
                        Question(text: "Missing word _____ stays", body: .typedAnswer(["TRUE"])),
                    ]),
                ]),
            ]),
        ])
        let output = GIFTWriter().write(original)
        #expect(output.skipped.isEmpty)
        let result = try S.read(output.text)
        #expect(result.warnings.isEmpty)
        #expect(result.bank.subjects.map(\.name) == original.subjects.map(\.name))
        #expect(result.bank.subjects.map { $0.topics.map(\.name) } == original.subjects.map { $0.topics.map(\.name) })
        for (read, written) in zip(result.bank.subjects.flatMap(\.topics), original.subjects.flatMap(\.topics)) {
            #expect(S.questions(in: Bank(subjects: [BankSubject(name: "", topics: [read])]))
                == S.questions(in: Bank(subjects: [BankSubject(name: "", topics: [written])])))
        }
    }

    @Test func controlCharactersInTextReadBackTheSame() throws {
        // Found by fuzzing: a form feed or NUL next to an escaped character came back as a space;
        // a no-break space at an end was kept or trimmed depending on the rest of the text.
        let questions = [
            Question(text: "Grant is \u{0C}buried: where?", body: .trueFalse(true)),
            Question(text: "decimal\u{0}places = 3?", body: .typedAnswer(["x\u{0B}y"])),
            Question(text: "\u{A0}Indented: yes?\u{A0}", body: .trueFalse(false)),
        ]
        let text = GIFTWriter().write(bank(questions)).text
        #expect(try S.questions(text) == questions)
    }

    @Test func answersStartingWithAnAccentedPercentSignReadBackTheSame() throws {
        // "%" with a combining accent is one Character: the writer looks at the first scalar.
        let questions = [
            Question(text: "Q?", body: .singleChoice(S.choices(["%\u{301}50%x", "b"], correct: [1]))),
            Question(text: "R?", body: .typedAnswer(["%\u{301}7%y"])),
        ]
        let text = GIFTWriter().write(bank(questions)).text
        #expect(try S.questions(text) == questions)
    }

    @Test func aMultipleChoiceQuestionWithOneCorrectAnswerReadsBackAsSingleChoice() throws {
        let choices = S.choices(["a", "b"], correct: [1])
        let text = GIFTWriter().write(bank([Question(text: "Q?", body: .multipleChoice(choices))])).text
        #expect(text.contains("{\n~%100%a\n~%-100%b\n}"))
        #expect(try S.questions(text).map(\.body) == [.singleChoice(choices)])
    }

    @Test func anEmptyBankWritesNothing() {
        let output = GIFTWriter().write(Bank())
        #expect(output.text.isEmpty)
        #expect(output.skipped.isEmpty)
    }
}
