import Foundation
import QuizCore
import QuizFormats
import Testing

/// `--skip-invalid`: the valid questions are read, the invalid ones listed where they are; a
/// problem with the file as a whole still fails it.
@Suite struct SkipInvalidTests {
    static let skipping = ImportDefaults(skipInvalid: true)

    static func read(_ format: BankFormat, _ text: String, defaults: ImportDefaults = skipping) throws(ImportError) -> ReadResult {
        try format.read(Data(text.utf8), defaults: defaults)
    }

    static func problems(_ format: BankFormat, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        do {
            let result = try read(format, text)
            Issue.record("expected the file to be refused, but it read \(result.bank.questionCount) questions", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    static func texts(_ result: ReadResult) -> [String] {
        result.bank.subjects.flatMap(\.topics).flatMap { $0.quizzes.flatMap(\.questions) + $0.questions }.map(\.text)
    }

    static let csv = """
        question,option1,option2,option3,option4,answer
        Largest ocean?,Pacific,Atlantic,,,Pacific
        Broken?,One,Two,,,Three
        Red planet?,Venus,Mars,,,Mars
        No options?,,,,,
        """

    @Test func csvRowsWithProblemsAreSkippedAndListedWithTheirLineAndColumn() throws {
        let result = try Self.read(.csv, Self.csv)
        #expect(Self.texts(result) == ["Largest ocean?", "Red planet?"])
        #expect(result.skipped.map(\.description) == [
            #"line 3, column 6: answer "Three" is not one of the options"#,
            "line 5, column 2: option1 is empty: a question needs at least two options",
            "line 5, column 3: option2 is empty: a question needs at least two options",
            "line 5, column 6: answer is empty: it must be the text of the correct option",
        ])
    }

    @Test func withoutSkippingTheSameFileStillStoresNothing() {
        do {
            let result = try Self.read(.csv, Self.csv, defaults: ImportDefaults())
            Issue.record("read \(result.bank.questionCount) questions")
        } catch {
            #expect(error.problems.map(\.line) == [3, 5, 5, 5])
        }
    }

    @Test func aCSVHeaderThatCannotBeReadFailsTheFileEvenWhenSkipping() {
        let text = "question,option1,option2,answer,colour\nOK?,Yes,No,Yes,red\n"
        #expect(Self.problems(.csv, text) == [#"line 1, column 5: unknown column "colour""#])
    }

    @Test func anUnclosedQuoteFailsTheFileBecauseItSwallowedTheRowsAfterIt() {
        let text = "OK?,Yes,No,,,Yes\n\"Open?,Yes,No,,,Yes\nLost?,A,B,,,A\n"
        let problems = Self.problems(.csv, text)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("line 2, column 1: quoted field is never closed") == true)
    }

    @Test func aFileWhoseEveryQuestionIsInvalidFailsWithEveryProblem() {
        #expect(Self.problems(.csv, "A?,x,x,,,x\nB?,y,,,,y\n").count == 2)
    }

    @Test func giftQuestionsWithProblemsAreSkipped() throws {
        let text = "::ok:: Capital of France? {=Paris ~Lyon}\n\n::bad:: Broken {=A ~B\n\n::ok2:: 2+2? {#4}\n"
        let result = try Self.read(.gift, text)
        #expect(Self.texts(result) == ["Capital of France?", "2+2?"])
        #expect(result.skipped.count == 1)
        #expect(result.skipped.first?.line == 3)
    }

    @Test func aikenQuestionsWithProblemsAreSkipped() throws {
        let text = "Good?\nA. Yes\nB. No\nANSWER: A\n\nBad?\nA. Yes\nB. No\nANSWER: C\n\nAlso good?\nA) One\nB) Two\nANSWER: B\n"
        let result = try Self.read(.aiken, text)
        #expect(Self.texts(result) == ["Good?", "Also good?"])
        #expect(result.skipped.map(\.line) == [9])
    }

    @Test func moodleXMLQuestionsWithProblemsAreSkippedButABrokenDocumentIsNot() throws {
        let question = { (name: String, answer: String) in
            """
            <question type="shortanswer"><name><text>\(name)</text></name><questiontext format="html"><text>\(name)?</text></questiontext>
            <answer fraction="100"><text>\(answer)</text></answer></question>
            """
        }
        let text = "<quiz>\n\(question("First", "one"))\n\(question("Second", ""))\n\(question("Third", "three"))\n</quiz>\n"
        let result = try Self.read(.moodleXML, text)
        #expect(Self.texts(result) == ["First?", "Third?"])
        #expect(result.skipped.count == 1)
        #expect(result.skipped.first?.description.contains("Second") == true)
        #expect(Self.problems(.moodleXML, "<quiz>\n\(question("First", "one"))\n").count == 1)
    }

    @Test func openTriviaResultsWithProblemsAreSkipped() throws {
        let text = """
            {"response_code": 0, "results": [
              {"type": "boolean", "difficulty": "easy", "category": "Science", "question": "Water is wet?", "correct_answer": "True", "incorrect_answers": ["False"]},
              {"type": "boolean", "difficulty": "easy", "category": "Science", "question": "Broken?", "correct_answer": "Maybe", "incorrect_answers": ["False"]}
            ]}
            """
        let result = try Self.read(.openTriviaDB, text)
        #expect(Self.texts(result) == ["Water is wet?"])
        #expect(result.skipped.first?.path?.hasPrefix("results[1]") == true)
    }

    @Test func remotePayloadsInAnArrayAreSkippedOneByOne() throws {
        let text = #"[{"question": "Name the planets", "answer": ["Mercury", "Venus"]}, {"question": "", "answer": ["x"]}]"#
        let result = try Self.read(.remote, text)
        #expect(Self.texts(result) == ["Name the planets"])
        #expect(result.skipped.first?.path?.hasPrefix("[1]") == true)
    }

    @Test func aBundleIsAlwaysAllOrNothing() throws {
        let bank = Bank(subjects: [BankSubject(name: "S", topics: [BankTopic(name: "T", quizzes: [BankQuiz(title: "Q", questions: [
            Question(text: "Fine?", body: .trueFalse(true)), Question(text: "Also fine?", body: .trueFalse(false)),
        ])])])])
        let good = String(decoding: BankFormat.bundle.write(bank)!.data, as: UTF8.self)
        let broken = good.replacingOccurrences(of: "\"Also fine?\"", with: "\"\"")
        #expect(try Self.read(.bundle, good).bank.questionCount == 2)
        #expect(!Self.problems(.bundle, broken).isEmpty)
    }

    @Test func theBatchReaderHandsOutTheSameQuestionsAsReadingTheWholeFile() throws {
        var text = "question,option1,option2,option3,option4,answer,subject,topic\n"
        for i in 0..<250 { text += "Q\(i)?,a\(i),b\(i),,,a\(i),S\(i % 2),T\(i % 3)\n" }
        var reader = CSVBatchReader(data: Data(text.utf8), options: .init())
        var batches: [[BankEntry]] = []
        while let batch = try reader.next(limit: 100) { batches.append(batch) }
        #expect(batches.map(\.count) == [100, 100, 50])
        let streamed = batches.flatMap { $0 }.map(\.question)
        #expect(streamed.map(\.text) == (0..<250).map { "Q\($0)?" })
        #expect(batches.flatMap { $0 }.map(\.topic).prefix(4) == ["T0", "T1", "T2", "T0"])
        #expect(Set(streamed) == Set(allQuestions(try readCSV(text))))
    }

    @Test func theBatchReaderFailsAtTheEndWithEveryProblemUnlessSkipping() throws {
        var text = ""
        for i in 0..<30 { text += i % 10 == 9 ? "Bad \(i)?,x,y,,,z\n" : "Q\(i)?,x,y,,,x\n" }
        var strict = CSVBatchReader(data: Data(text.utf8), options: .init())
        var handedOut = 0
        do {
            while let batch = try strict.next(limit: 4) { handedOut += batch.count }
            Issue.record("the file was accepted")
        } catch {
            #expect(error.problems.map(\.line) == [10, 20, 30])
        }
        #expect(handedOut < 27, "questions after the first problem are not handed out to be stored")

        var skipping = CSVBatchReader(data: Data(text.utf8), options: .init(skipInvalid: true))
        var kept = 0
        while let batch = try skipping.next(limit: 4) { kept += batch.count }
        #expect(kept == 27)
        #expect(skipping.skippedProblems.map(\.line) == [10, 20, 30])
    }
}
