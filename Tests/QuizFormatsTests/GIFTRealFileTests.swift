import Foundation
import QuizCore
import QuizFormats
import Testing

/// The GIFT files in /work/shared/testdata/formats/gift/ (see SOURCES.md there): real exports and
/// a parser project's test cases, read where they are.
@Suite(SharedTestData.required) struct GIFTRealFileTests {
    private typealias S = GIFTSupport

    private func read(_ name: String) throws -> ReadResult {
        try GIFTReader().read(S.realFile(name))
    }

    @Test func everyControlCharacterEscapeReadsAsTheExpectedParseHasIt() throws {
        let result = try read("peg-escapeAll.gift")
        let question = try #require(S.questions(in: result.bank).first)
        // The PEG project's expected parse, for the choices' texts and which one is right.
        let expected = try #require(JSONSerialization.jsonObject(with: S.realFile("peg-escapeAll.expected.json")) as? [[String: Any]])
        let choices = try #require(expected.first?["choices"] as? [[String: Any]])
        let texts = choices.compactMap { ($0["text"] as? [String: Any])?["text"] as? String }
        let correct = choices.compactMap { $0["isCorrect"] as? Bool }
        #expect(texts == ["~", "=", "#", "{", "}", ":", "\\"])
        #expect(question.text == "Which of the following is NOT a control character for the GIFT import format?")
        #expect(question.body.choices.map(\.text) == texts)
        #expect(question.body.choices.map(\.isCorrect) == correct)
        // The right answer's feedback, continued on a second line, which the default format keeps.
        #expect(question.explanation == "Correct! \\ (backslash) is not a control character. BUT,\nit is used to escape the control characters.")
        #expect(result.warnings.isEmpty)
    }

    @Test func trueFalseFeedbackFollowsMoodlesOrder() throws {
        let questions = S.questions(in: try read("peg-TFTwoFeedback.gift").bank)
        #expect(questions.map(\.body) == [.trueFalse(false), .trueFalse(true), .trueFalse(true)])
        // {FALSE#for true #for false}: the second is for the right answer. {TRUE#for true}: only the
        // wrong answer's feedback, so nothing explains. {TRUE# #for false}: the right one's.
        #expect(questions.map(\.explanation) == ["feedback for false", nil, "feedback for false"])
    }

    @Test func numericalEdgeCasesAreRead() throws {
        let result = try read("peg-numerical1.gift")
        let questions = S.questions(in: result.bank)
        #expect(questions.count == 10)
        let values = questions.compactMap { question -> (Double, Double)? in
            guard case .numeric(let value, let tolerance, nil, _) = question.body else { return nil }
            return (value, tolerance)
        }
        let expected: [(Double, Double)] = [
            (1822, 0), (-1, 0), (3.1415, 0.0005), (-3.142, 0.001), (3.1415, 0.0005), (-3.1415, 0.0005),
            (3, 2), (0, 5), (1822, 0), (9, 0),
        ]
        #expect(values.count == expected.count)
        for (got, want) in zip(values, expected) {
            #expect(abs(got.0 - want.0) < 1e-9 && abs(got.1 - want.1) < 1e-9, "\(got) is not \(want)")
        }
        // "{#3.1415:0.0005}." continues after the block: a missing-word stem.
        #expect(questions[2].text == "What is the value of pi (to 3 decimal places)? _____.")
        // The [html] GRASP question: its 100% answer's French feedback explains it.
        #expect(questions[9].text == "Combien de principes GRASP y a-t-il?")
        #expect(questions[9].explanation == "Correct. Il y a neuf (9) principes GRASP.")
        // Only the 50% answer is worth a warning; the 0% ones are wrong answers with feedback.
        #expect(S.located(result.warnings) == ["21:5 the answer \"1822:2\" worth 50% is dropped: Quizbox accepts only fully correct answers"])
    }

    @Test func aSpanishHTMLExportBecomesPlainText() throws {
        let question = try #require(S.questions(in: try read("peg-mcHTMLComment.gift").bank).first)
        #expect(question.text == "¿En qué supuestos podría el Fiscal autorizar a la Policía Judicial la práctica de una diligencia de entrada y registro?")
        #expect(question.body == .singleChoice(S.choices([
            "En ausencia del Juez de Instrucción, titular de la actuaciones, y por razones de urgencia, debidamente acreditadas.",
            "Cuando se trate de delitos de terrorismo.", "Nunca.",
        ], correct: [3])))
        let explanation = try #require(question.explanation)
        #expect(explanation.hasPrefix("Artículo 5 Estatuto Orgánico del Ministerio Fiscal:\nDos. Igualmente,"))
        #expect(explanation.contains("según la Ley de Enjuiciamiento Criminal, las cuales"))
        #expect(!explanation.contains("<") && !explanation.contains("LE0000017566"))  // tags and the <!-- comment --> are gone
    }

    @Test func feedbackOverSeveralLinesAndWordHTMLAreRead() throws {
        let questions = S.questions(in: try read("peg-multiLineFeedback1.gift").bank)
        #expect(questions.count == 2)
        #expect(questions[0].explanation == "Global feedback split\non multiple lines")
        #expect(questions[0].body.choices.map(\.isCorrect) == [false, false, true])
        #expect(questions[1].text.hasPrefix("CU4-1 demarrerAbonnement(duree\u{A0}:Integer)\u{A0}: Comment réalise t’on la post-condition\u{A0}:"))
        #expect(questions[1].body == .singleChoice(S.choices(
            ["Client", "ConditionAbonnement", "Paiement", "Emprunt", "ContrôleurAbonnement", "CléAccess"], correct: [5])))
        #expect(questions[1].explanation == nil)  // the general feedback is only an image
    }

    @Test func arrowsInsideChoicesStayChoices() throws {
        let result = try read("peg-shortAnswerNotMatching.gift")
        let questions = S.questions(in: result.bank)
        #expect(result.warnings.isEmpty)
        #expect(questions.map(\.kind) == [.singleChoice, .singleChoice])
        #expect(questions[0].body.choices.map(\.text) == ["go to starbucks -> order a coffee", "get coffee powder -> add water"])
        #expect(questions[1].text == "¿Cómo se cambia la orientación de la página en Word 2003 y 2007?:")
    }

    @Test func aFullMoodleBankKeepsWhatQuizboxCanPlayAndSaysWhatItLeftOut() throws {
        let result = try read("qas-all.gift")
        let bank = result.bank
        #expect(bank.subjects.map(\.name) == ["qas editor"])
        #expect(bank.subjects[0].topics.map(\.name) == ["descriptions", "True-False", "Numericals", "Missing Words", "Matching", "Shorts", "Multichoice"])
        #expect(bank.subjects[0].topics.map(\.questionCount) == [1, 4, 4, 1, 2, 4, 4])
        #expect(S.located(result.warnings).map { String($0.prefix(60)) } == [
            "12:2 essay questions are not supported by Quizbox",
            "14:2 essay questions are not supported by Quizbox",
            "41:3 Quizbox keeps one number per question: \"-7:0\" is kept, ",
            "80:3 '*' in \"*manually*\" is a wildcard in Moodle but not in ",
        ])

        var topics = bank.subjects[0].topics.map { $0.quizzes.flatMap(\.questions) }
        #expect(topics[0].map(\.kind) == [.slide])
        let matching = topics[4]
        #expect(matching.first?.text == "Match the cool Moodle features with the version in which they first appeared:")
        #expect(matching.first?.body == .matching(Matching(pairs: [
            Matching.Pair(prompt: "Drag and drop files", answer: "Moodle 2.3"), Matching.Pair(prompt: "Groupings", answer: "Moodle 1.9"),
            Matching.Pair(prompt: "Repositories", answer: "Moodle 2.0"),
        ], extras: ["Moodle 2.5"])))
        if case .matching(let second)? = matching.last?.body {
            #expect(second.pairs.count == 5 && second.answers.count == 4)  // two prompts share "Moodle 3.8"
        } else {
            Issue.record("the second matching question is not a matching")
        }
        topics.remove(at: 4)
        topics.remove(at: 0)
        let trueFalse = topics[0]
        #expect(trueFalse.map(\.body) == [.trueFalse(true), .trueFalse(false), .trueFalse(true), .trueFalse(false)])
        #expect(trueFalse[0].explanation?.hasPrefix("This question is operating with Interactive with multiple tries behaviour – but") == true)
        #expect(trueFalse[2].explanation?.hasPrefix("Yes. Did you just know?") == true)  // the second '#', for the right answer

        let numeric = topics[1]
        #expect(numeric[0].text.hasPrefix("This is an example of a simple numerical question.\n"))  // title "Numeric\: 1" dropped
        #expect(numeric.map(\.body) == [
            .numeric(value: 2006, tolerance: 1, unit: nil), .numeric(value: -7, tolerance: 0, unit: nil),
            .numeric(value: 3, tolerance: 2, unit: nil), .numeric(value: 3, tolerance: 2, unit: nil),
        ])
        #expect(numeric[1].explanation?.hasPrefix("The quadratic equation is $$\\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}$$\na = 1, b = 3") == true)

        #expect(topics[2].map(\.text) == ["Moodle costs _____ to download from moodle.org."])
        #expect(topics[3].map(\.body) == [
            .typedAnswer(["*manually*"]), .typedAnswer(["four", "4"]), .typedAnswer(["Crete"]),
            .typedAnswer(["Grant", "Ulysses S. Grant", "Ulysses Grant"]),
        ])
        #expect(topics[4].map(\.kind) == [.multipleChoice, .singleChoice, .singleChoice, .multipleChoice])
        #expect(topics[4][3].body.choices.map(\.isCorrect) == [true, false, true, false, false, true])  // ±33.33333%
    }

    @Test(arguments: GIFTSupport.realFiles)
    func whatIsReadFromARealFileIsWrittenAndReadBackTheSame(_ name: String) throws {
        let bank = try read(name).bank
        let written = GIFTWriter().write(bank)
        #expect(written.skipped.isEmpty)
        let again = try S.read(written.text).bank
        #expect(again.subjects.map(\.name) == bank.subjects.map(\.name))
        #expect(again.subjects.map { $0.topics.map(\.name) } == bank.subjects.map { $0.topics.map(\.name) })
        #expect(S.questions(in: again) == S.questions(in: bank))
    }

    @Test func aFrenchExamIsReadWithItsCategoriesWeightsAndEntities() throws {
        let result = try read("rgiftparser-french-exam.gift")
        let bank = result.bank
        #expect(bank.subjects.map(\.name) == ["IDEA"])
        #expect(bank.subjects[0].topics.map(\.name) == [
            "Alerte-Investigation", "Schemas", "Biostatistiques", "Surveillance", "Enquetes", "EpidemiesVaccins", "Environnement",
        ])
        #expect(bank.subjects[0].topics.map(\.questionCount) == [6, 12, 7, 4, 5, 3, 2])
        #expect(bank.questionCount == 39)
        let questions = S.questions(in: bank)
        #expect(questions.count(where: { $0.kind == .multipleChoice }) == 12)
        #expect(questions[0].text.hasSuffix("Le taux d'attaque parmi les participants est :"))
        #expect(questions[0].body.choices.map(\.text) == [
            "0,4%", "5,5%", "14,3%", "40,0%", "l’information donnée ne permet pas de calculer le taux d’attaque",
        ])
        // ~%33.33333% three times and ~%-50% twice, with no '=': the three are the answer.
        #expect(questions[3].body.choices.map(\.isCorrect) == [true, true, true, false, false])
        // "&lt;" is decoded, "<br />" ends a line.
        #expect(questions.contains { $0.text.contains("se conclut par l’expression : p < 0,02. Si alpha = 5%") })
        #expect(questions.contains { $0.text.hasSuffix("dont 100 hommes.\nQuel est le taux de mortalité brut en 1960?") })
        // Two '=' answers: Moodle accepts either, Quizbox asks for both, and says so.
        #expect(S.located(result.warnings).map { String($0.prefix(30)) } == ["334:1 2 answers are marked '='"])
    }
}
