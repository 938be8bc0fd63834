import QuizCore
import QuizFormats
import Testing

@Suite struct CSVWriterTests {
    private func bank(_ questions: [Question], loose: [Question] = []) -> Bank {
        Bank(subjects: [BankSubject(name: "Geography", topics: [
            BankTopic(name: "Capitals", quizzes: [BankQuiz(title: "Imported questions", questions: questions)], questions: loose),
        ])])
    }

    @Test func writesAHeaderAndOneCRLFTerminatedRowPerQuestion() {
        let output = CSVWriter().write(bank([
            singleChoice("Capital of France?", ["Lyon", "Paris"], correct: 2, difficulty: .easy, explanation: "Since 508."),
        ]))
        #expect(output.csv == """
            question,option1,option2,option3,option4,answer,subject,topic,difficulty,explanation\r
            Capital of France?,Lyon,Paris,,,Paris,Geography,Capitals,easy,Since 508.\r

            """)
        #expect(output.skipped.isEmpty)
    }

    @Test func quotesFieldsWithCommasQuotesOrNewlines() {
        let output = CSVWriter().write(bank([
            singleChoice("Who said \"veni, vidi, vici\"?", ["Julius\nCaesar", "Cicero"], correct: 1),
        ]))
        let row = output.csv.split(separator: "\r\n")[1]
        #expect(row == "\"Who said \"\"veni, vidi, vici\"\"?\",\"Julius\nCaesar\",Cicero,,,\"Julius\nCaesar\",Geography,Capitals,medium,")
    }

    @Test func questionsThatDoNotFitTheFormatAreSkippedWithAReason() {
        let five = singleChoice("Five?", ["a", "b", "c", "d", "e"], correct: 1)
        let truth = Question(text: "True?", body: .trueFalse(true))
        let output = CSVWriter().write(bank([five, singleChoice("Fine?", ["a", "b"], correct: 1)], loose: [truth]))
        #expect(output.skipped.map(\.question) == ["Five?", "True?"])
        #expect(output.skipped.map(\.reason) == [
            "has 5 options; CSV holds at most 4",
            "a trueFalse question; CSV holds single-choice questions only",
        ])
        #expect(output.skipped.first?.subject == "Geography")
        #expect(output.csv.split(separator: "\r\n").count == 2)
    }

    @Test func whatItWritesReadsBackToTheSameBank() throws {
        let original = Bank(subjects: [
            BankSubject(name: "History", topics: [
                BankTopic(name: "Rome", quizzes: [BankQuiz(title: "Imported questions", questions: [
                    singleChoice("Who said \"veni, vidi, vici\"?", ["Julius\nCaesar", "Cicero", "Nero"], correct: 1, difficulty: .hard),
                    singleChoice("question", ["a, b", "c"], correct: 2, explanation: "It's \"c\"."),
                ])]),
                BankTopic(name: "Greece", quizzes: [BankQuiz(title: "Imported questions", questions: [
                    singleChoice("Ἀθῆναι?", ["ναι", "όχι", "ίσως", "ποτέ"], correct: 4),
                ])]),
            ]),
            BankSubject(name: "Science", topics: [
                BankTopic(name: "Physics", quizzes: [BankQuiz(title: "Imported questions", questions: [
                    singleChoice("c ≈ ?", ["3e8 m/s", "3e6 m/s"], correct: 1, difficulty: .easy),
                ])]),
            ]),
        ])
        let output = CSVWriter().write(original)
        #expect(try readCSV(output.csv) == original)
    }
}
