import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct XLSXReaderTests {
    typealias F = XLSXFixture

    private func read(_ data: Data, skipInvalid: Bool = false) throws(ImportError) -> ReadResult {
        try BankFormat.xlsx.read(data, defaults: ImportDefaults(skipInvalid: skipInvalid))
    }

    private func problems(_ data: Data) -> [String] {
        do {
            let result = try read(data)
            return ["read \(result.bank.questionCount) questions"]
        } catch {
            return error.problems.map(\.description)
        }
    }

    private func questions(_ result: ReadResult) -> [Question] {
        result.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).flatMap(\.questions)
    }

    private func kahootSheet(_ rows: [[String]]) throws -> Data {
        var xml = F.row(2, ["Quiz template"], first: "B") + F.kahootHeader()
        for (index, values) in rows.enumerated() {
            xml += "<row r=\"\(9 + index)\">" + F.number("A\(9 + index)", String(index + 1))
                + F.row(9 + index, values, first: "B").dropFirst("<row r=\"\(9 + index)\">".count)
        }
        return try F.workbook(rows: xml)
    }

    @Test func kahootRowsBecomeSingleMultipleAndTrueFalseQuestions() throws {
        let data = try kahootSheet([
            ["Capital of Finland?", "Turku", "Helsinki", "Oulu", "", "20", "2"],
            ["Which are prime?", "2", "3", "4", "9", "30", "1, 2"],
            ["The sun is a star.", "True", "False", "", "", "10", "1"],
            ["Pick the colour", "Red", "Blue", "", "", "", "2"],
        ])
        let result = try read(data)
        let found = questions(result)
        #expect(found.map(\.text) == ["Capital of Finland?", "Which are prime?", "The sun is a star.", "Pick the colour"])
        #expect(found[0].body == .singleChoice([Choice(id: 1, text: "Turku", isCorrect: false), Choice(id: 2, text: "Helsinki", isCorrect: true),
                                                Choice(id: 3, text: "Oulu", isCorrect: false)]))
        #expect(found[1].kind == .multipleChoice)
        #expect(found[1].body.choices.filter(\.isCorrect).map(\.text) == ["2", "3"])
        #expect(found[2].body == .trueFalse(true))
        #expect(found[3].kind == .singleChoice)
        // Each time limit is the question's own; an empty one leaves it to the game.
        #expect(found.map(\.timeLimitSeconds) == [20, 30, 10, nil])
        #expect(result.warnings.isEmpty)
    }

    @Test func aTimeLimitKahootWouldNotTakeIsAProblemAtItsCell() throws {
        let data = try kahootSheet([
            ["Capital of Finland?", "Turku", "Helsinki", "", "", "20 sec", "2"],
            ["Capital of Sweden?", "Oslo", "Stockholm", "", "", "300", "2"],
            ["Capital of Norway?", "Oslo", "Bergen", "", "", "soon", "1"],
        ])
        #expect(problems(data) == [
            "row 10, column G: time limit \"300\" is not a number of seconds from 5 to 240 (question \"Capital of Sweden?\")",
            "row 11, column G: time limit \"soon\" is not a number of seconds from 5 to 240 (question \"Capital of Norway?\")",
        ])
        let kept = questions(try read(data, skipInvalid: true))
        #expect(kept.map(\.timeLimitSeconds) == [20])
    }

    @Test func headerIsFoundByTextWithPlainHyphensAndNoNumberColumn() throws {
        let xml = F.row(1, ["Question - max 120 characters", "Answer 1 - max 75 characters", "Answer 2 - max 75 characters",
                            "Answer 3 - max 75 characters", "Answer 4 - max 75 characters", "Time limit (sec) - 5, 10, 20",
                            "Correct answer(s) - choose at least one"])
            + F.row(2, ["Is water wet?", "false", "TRUE", "", "", "5", "2"])
        let found = questions(try read(try F.workbook(rows: xml)))
        #expect(found.map(\.body) == [.trueFalse(true)])
    }

    @Test func cellsReadAsThePersonSeesThem() throws {
        // Shared string with rich-text runs and a phonetic run left out; a number, a boolean, a
        // formula's cached text and a number as the correct answer.
        let strings = [
            "<si><t>Question - max 120 characters</t></si>", "<si><t>Answer 1</t></si>", "<si><t>Answer 2</t></si>",
            "<si><t>Answer 3</t></si>", "<si><t>Correct answer(s)</t></si>",
            "<si><r><rPr><b/></rPr><t xml:space=\"preserve\">When did </t></r><r><t>Apollo 11 land?</t></r><rPh><t>x</t></rPh></si>",
        ]
        let rows = """
            <row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>\
            <c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>\
            <row r="2"><c r="A2" t="s"><v>5</v></c><c r="B2"><v>1969</v></c><c r="C2" t="b"><v>1</v></c>\
            <c r="D2" t="str"><f>CONCAT("19","70")</f><v>1970</v></c><c r="E2"><v>1</v></c></row>\
            <row r="3"><c r="A3" t="inlineStr"><is><r><t>Half of one?</t></r></is></c><c r="B3"><v>0.5</v></c>\
            <c r="C3"><v>0.30000000000000004</v></c><c r="E3"><v>1</v></c></row>
            """
        let found = questions(try read(try F.workbook(rows: rows, sharedStrings: strings)))
        #expect(found.map(\.text) == ["When did Apollo 11 land?", "Half of one?"])
        #expect(found[0].body.choices.map(\.text) == ["1969", "TRUE", "1970"])
        #expect(found[1].body.choices.map(\.text) == ["0.5", "0.3"])
    }

    @Test func problemsNameTheirCell() throws {
        let data = try kahootSheet([
            ["", "a", "b", "", "", "20", "1"],
            ["Q2?", "a", "b", "", "", "20", "3"],
            ["Q3?", "a", "b", "", "", "20", ""],
            ["Q4?", "only", "", "", "", "20", "1"],
            ["Q5?", String(repeating: "x", count: 501), "b", "", "", "20", "1"],
            ["Q6?", "a", "b", "", "", "20", "first"],
        ])
        #expect(problems(data) == [
            "row 9, column B: the question is empty",
            "row 10, column H: correct answer 3 names an empty answer (question \"Q2?\")",
            "row 11, column H: no correct answer: give the number of the correct answer (1–4), several separated by commas (question \"Q3?\")",
            "row 12, column D: the question has only one answer: it needs at least two (question \"Q4?\")",
            "row 13, column C: answer 1 is longer than 500 characters (question \"Q5?\")",
            "row 14, column H: correct answer \"first\" is not the number of an answer (1–4) (question \"Q6?\")",
        ])
    }

    @Test func skipInvalidKeepsTheGoodRowsAndListsTheOthers() throws {
        let data = try kahootSheet([["Good?", "a", "b", "", "", "20", "1"], ["Bad?", "a", "b", "", "", "20", ""]])
        let result = try read(data, skipInvalid: true)
        #expect(questions(result).map(\.text) == ["Good?"])
        #expect(result.skipped.map { $0.cell?.reference } == ["H10"])
    }

    @Test func quizboxColumnsInASheetReadAsTheCSVDoes() throws {
        let xml = F.row(1, ["", "question", "option1", "option2", "option3", "option4", "answer", "topic", "difficulty"], first: "A")
            + F.row(2, ["", "Largest ocean?", "Pacific", "Atlantic", "", "", "pacific", "Oceans", "easy"], first: "A")
            + F.row(3, ["", "Smallest?", "Arctic", "Indian", "", "", "Baltic", "Oceans", ""], first: "A")
        #expect(problems(try F.workbook(rows: xml)) == [
            "row 3, column G: answer \"Baltic\" is not one of the options",
        ])
        let good = F.row(1, ["", "question", "option1", "option2", "option3", "option4", "answer", "topic", "difficulty"], first: "A")
            + F.row(2, ["", "Largest ocean?", "Pacific", "Atlantic", "", "", "pacific", "Oceans", "easy"], first: "A")
        let result = try read(try F.workbook(rows: good))
        #expect(result.bank.subjects.first?.topics.first?.name == "Oceans")
        #expect(questions(result).first?.difficulty == .easy)
        #expect(questions(result).first?.body.choices.first(where: \.isCorrect)?.text == "Pacific")
    }

    @Test func aSheetWithoutHeaderIsReadInTheCSVsFixedColumns() throws {
        let xml = F.row(1, ["Largest ocean?", "Pacific", "Atlantic", "", "", "Pacific"])
        #expect(questions(try read(try F.workbook(rows: xml))).map(\.text) == ["Largest ocean?"])
    }

    @Test func anUnusableQuizboxHeaderFailsTheWholeSheet() throws {
        let xml = F.row(1, ["question", "option1", "answer", "colour"]) + F.row(2, ["Q?", "a", "a", "red"])
        let found = problems(try F.workbook(rows: xml))
        #expect(found.first?.hasPrefix("row 1: header lacks the column(s) option2") == true)
        #expect(found.last == "row 1, column D: unknown column \"colour\"")
    }

    @Test func anEmptyTemplateHasNoQuestions() throws {
        let xml = F.kahootHeader() + "<row r=\"9\">" + F.number("A9", "1") + "</row>"
        #expect(problems(try F.workbook(rows: xml)) == ["the sheet has a header but no questions"])
        #expect(problems(try F.workbook(rows: "")) == ["no questions found: the sheet is empty"])
    }

    @Test func problemsAreSaidInFinnishWithTheCell() {
        let problem = FormatProblem(cell: SheetCell(row: 12, column: 8), message: "the question is empty")
        #expect(problem.cell?.reference == "H12")
        #expect(SheetCell(row: 1, column: 27).columnLetters == "AA")
        #expect(SheetCell(row: 1, column: 16_384).columnLetters == "XFD")
    }

    @Test func aWorkbookIsRecognisedByItsBytesWhateverItsName() throws {
        let data = try kahootSheet([["Q?", "a", "b", "", "", "20", "1"]])
        #expect(BankFormat.detect(fileName: "quiz.gift", data: data) == .xlsx)
        #expect(BankFormat.detect(fileName: "", data: data) == .xlsx)
        #expect(BankFormat.detect(fileName: "quiz.xlsx", data: Data("question,option1".utf8)) == .xlsx)
        // Read as GIFT by name, it used to be refused for its NUL bytes; by its bytes it reads.
        #expect(try BankFormat.detect(fileName: "KahootQuizTemplate.gift", data: data)
            .read(data, defaults: ImportDefaults()).bank.questionCount == 1)
    }
}
