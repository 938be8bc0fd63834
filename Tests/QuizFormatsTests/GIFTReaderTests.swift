import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct GIFTReaderTests {
    private typealias S = GIFTSupport

    // MARK: - Multiple choice

    @Test func equalsMarksTheRightAnswerOfASingleChoiceQuestion() throws {
        let question = try S.question("Capital of France?{=Paris ~Lyon ~Nice}")
        #expect(question == Question(text: "Capital of France?", body: .singleChoice(S.choices(["Paris", "Lyon", "Nice"], correct: [1]))))
    }

    @Test func severalPositiveWeightsWithoutEqualsMakeAMultipleChoiceQuestion() throws {
        let question = try S.question("Which are prime?{~%50%2 ~%50%3 ~%-100%4}")
        // -100 takes more away than a right answer gives: the weights are kept as partial credit.
        #expect(question.body == .multipleChoice(zip(S.choices(["2", "3", "4"], correct: [1, 2]), [0.5, 0.5, -1]).map {
            Choice(id: $0.id, text: $0.text, isCorrect: $0.isCorrect, fraction: Fraction($1))
        }))
    }

    @Test func negativeAndDecimalWeightsAreRead() throws {
        let question = try S.question("""
            Pick the signals{
            ~%33.33333% surveillance
            ~%33.33333% reports
            ~%33.33333% press
            ~%-50% phone taps
            ~%-33.33333%census
            }
            """)
        let percents = [33.33333, 33.33333, 33.33333, -50, -33.33333]
        #expect(question.body == .multipleChoice(zip(S.choices(["surveillance", "reports", "press", "phone taps", "census"], correct: [1, 2, 3]), percents).map {
            Choice(id: $0.id, text: $0.text, isCorrect: $0.isCorrect, fraction: Fraction(percent: $1))
        }))
    }

    @Test func oneWeightedAnswerWithoutEqualsIsASingleChoiceQuestion() throws {
        let question = try S.question("Pick one{~%100%a ~b ~%-50%c}")
        #expect(question.body == .singleChoice(S.choices(["a", "b", "c"], correct: [1])))  // -50% takes nothing from nothing
    }

    @Test func partialCreditBesideAnEqualsIsKeptAsTheChoicesFraction() throws {
        let result = try S.read("Best?{\n=a\n~%50%b\n~c\n}")
        #expect(S.questions(in: result.bank).map(\.body) == [.singleChoice(zip(S.choices(["a", "b", "c"], correct: [1]), [1, 0.5, 0]).map {
            Choice(id: $0.id, text: $0.text, isCorrect: $0.isCorrect, fraction: Fraction($1))
        })])
        #expect(result.warnings.isEmpty)
    }

    @Test func severalEqualsBecomeAMultipleChoiceQuestionWithAWarning() throws {
        let result = try S.read("Either?{=a =b ~c}")
        #expect(S.questions(in: result.bank).map(\.body) == [.multipleChoice(S.choices(["a", "b", "c"], correct: [1, 2]))])
        #expect(S.located(result.warnings) == [
            "1:8 2 answers are marked '=': in Moodle any one of them is right, in Quizbox the player must choose all of them",
        ])
    }

    @Test func anArrowInsideChoicesDoesNotMakeAMatchingQuestion() throws {
        let result = try S.read("How to make coffee?{~go to starbucks -> order =powder -> add water}")
        #expect(result.warnings.isEmpty)
        #expect(S.questions(in: result.bank).map(\.body) == [
            .singleChoice(S.choices(["go to starbucks -> order", "powder -> add water"], correct: [2])),
        ])
    }

    // MARK: - True/false

    @Test func trueFalseIsReadInEverySpelling() throws {
        let questions = try S.questions("A?{T}\n\nB?{TRUE}\n\nC?{F}\n\nD?{FALSE}")
        #expect(questions.map(\.body) == [.trueFalse(true), .trueFalse(true), .trueFalse(false), .trueFalse(false)])
    }

    @Test func theSecondTrueFalseFeedbackIsForTheRightAnswerAndExplainsIt() throws {
        let questions = try S.questions("""
            Grant is buried in Grant's tomb.{FALSE#shown to who says true#shown to who says false}

            Grant is buried in Grant's tomb.{TRUE#shown to who says false}
            """)
        #expect(questions.map(\.explanation) == ["shown to who says false", nil])
    }

    // MARK: - Feedback

    @Test func generalFeedbackBecomesTheExplanationBeforeAnyAnswerFeedback() throws {
        let question = try S.question("Q?{=a#right ~b#wrong ####Because.}")
        #expect(question.explanation == "Because.")
    }

    @Test func withoutGeneralFeedbackTheCorrectAnswersFeedbackExplains() throws {
        #expect(try S.question("Q?{~b#wrong =a#right}").explanation == "right")
        #expect(try S.question("Q?{=a =b =c#third}").explanation == "third")
        #expect(try S.question("Q?{#42#exactly}").explanation == "exactly")
        #expect(try S.question("Q?{=a ~b#wrong}").explanation == nil)
    }

    // MARK: - Short answer

    @Test func equalsAnswersWithoutChoicesAreTypedAnswers() throws {
        let question = try S.question("Two plus two equals {=four =4}")
        #expect(question == Question(text: "Two plus two equals", body: .typedAnswer(["four", "4"])))
    }

    @Test func partialShortAnswersAreKeptAndWorthlessOnesDroppedSilently() throws {
        let result = try S.read("Capital?{\n=Paris\n=%50%Paris city#close\n=%0%Lyon#no\n}")
        #expect(S.questions(in: result.bank).map(\.body) == [.typedAnswer(["Paris"], partial: [Alternative("Paris city", fraction: Fraction(0.5)!)])])
        #expect(result.warnings.isEmpty)
    }

    @Test func aWildcardInAShortAnswerIsKeptWithAWarning() throws {
        let result = try S.read("Graded how?{=%100%*manually*#yes =%0%*#no}")
        #expect(S.questions(in: result.bank).map(\.body) == [.typedAnswer(["*manually*"])])
        #expect(result.warnings.map(\.message) == [
            "'*' in \"*manually*\" is a wildcard in Moodle but not in Quizbox: only what is around it is accepted",
        ])
    }

    // MARK: - Numerical

    @Test func numericalAnswersAreReadInEveryForm() throws {
        let questions = try S.questions("""
            Born?{#1822}

            Minus one?{#-1}

            Pi?{#3.1415:0.0005}

            One to five?{#1..5}

            Minus five to five?{#-5..5}

            Minus pi?{#-3.142..-3.141}

            Big?{#1e3:1E1}
            """)
        #expect(questions.map(\.body) == [
            .numeric(value: 1822, tolerance: 0, unit: nil),
            .numeric(value: -1, tolerance: 0, unit: nil),
            .numeric(value: 3.1415, tolerance: 0.0005, unit: nil),
            .numeric(value: 3, tolerance: 2, unit: nil),
            .numeric(value: 0, tolerance: 5, unit: nil),
            .numeric(value: (-3.142 + -3.141) / 2, tolerance: (-3.141 - -3.142) / 2, unit: nil),
            .numeric(value: 1000, tolerance: 10, unit: nil),
        ])
    }

    @Test func ofSeveralNumericalAnswersTheFullCreditOneIsKept() throws {
        let result = try S.read("When was Grant born?{#\n    =%50%1822:2#close\n    =1822:0#yes\n    ~#no\n}")
        #expect(S.questions(in: result.bank) == [
            Question(text: "When was Grant born?", explanation: "yes", body: .numeric(value: 1822, tolerance: 0, unit: nil)),
        ])
        #expect(S.located(result.warnings) == [
            "2:5 the answer \"1822:2\" worth 50% is dropped: Quizbox accepts only fully correct answers",
        ])
    }

    @Test func aSecondFullCreditNumberIsDroppedWithAWarning() throws {
        let result = try S.read("Roots?{#\n=%100%-7:0\n=%100%4:0\n}")
        #expect(S.questions(in: result.bank).map(\.body) == [.numeric(value: -7, tolerance: 0, unit: nil)])
        #expect(result.warnings.map(\.message) == ["Quizbox keeps one number per question: \"-7:0\" is kept, \"4:0\" dropped"])
        #expect(result.warnings.first?.line == 3)
    }

    // MARK: - Missing word, unsupported kinds

    @Test func textAfterTheAnswerBlockMakesAMissingWordQuestion() throws {
        let questions = try S.questions("""
            Moodle costs {~lots of money =nothing ~a small amount} to download from moodle.org.

            Pi to 3 decimals? {#3.142}.
            """)
        #expect(questions.map(\.text) == ["Moodle costs _____ to download from moodle.org.", "Pi to 3 decimals? _____."])
    }

    @Test func essaysAreLeftOutWithAWarningEachWhileMatchingAndDescriptionsAreRead() throws {
        let result = try S.read("""
            Match these{
            =cat -> meow
            =dog -> woof
            }

            Write an essay about cats.{}

            Essay with feedback{####Good essays cite sources.}

            ::intro::Welcome to the quiz.

            Kept?{T}
            """)
        // Matching (two pairs are enough for Quizbox) and descriptions (slides) are read now.
        #expect(S.questions(in: result.bank).map(\.text) == ["Match these", "Welcome to the quiz.", "Kept?"])
        #expect(S.questions(in: result.bank).map(\.kind) == [.matching, .slide, .trueFalse])
        #expect(S.located(result.warnings) == [
            "6:1 essay questions are not supported by Quizbox",
            "8:1 essay questions are not supported by Quizbox",
        ])
        #expect(result.warnings.map(\.question) == ["Write an essay about cats.", "Essay with feedback"])
    }

    @Test func aFileWithoutQuestionsIsAnErrorAsInEveryOtherFormat() throws {
        #expect(S.problems("// only a comment\n\n$CATEGORY: Empty\n").map(\.message) == ["the file holds no questions"])
        #expect(S.problems("").map(\.message) == ["the file holds no questions"])
        #expect(S.problems("\u{FEFF}\r\n  \r\n").map(\.message) == ["the file holds no questions"])
    }

    @Test func aFileOfOnlyUnsupportedQuestionsGivesAnEmptyBankAndSaysWhy() throws {
        let result = try S.read("Write an essay about cats.{}\n")
        #expect(result.bank.subjects.isEmpty)
        #expect(result.warnings.map(\.message).last == "the file holds no questions Quizbox can import")
    }

    @Test func readingDataGivesTheSameAsReadingBytes() throws {
        let text = "Q?{=a ~b}"
        #expect(try GIFTReader().read(Data(text.utf8)) == S.read(text))
    }
}
