import Foundation
import QuizCore
import QuizFormats
import Testing

@Suite struct BundleCodecTests {
    static let everyKind: Bank = Bank(subjects: [
        BankSubject(name: "General", description: "A bit of everything", topics: [
            BankTopic(name: "Mixed", description: "Every kind", quizzes: [
                BankQuiz(title: "Warm-up", description: "Easy start", questions: [
                    singleChoice("Capital of France?", ["Lyon", "Paris"], correct: 2, difficulty: .easy, explanation: "Since 508."),
                    Question(text: "Primes?", points: 3, body: .multipleChoice([
                        Choice(id: 1, text: "2", isCorrect: true), Choice(id: 2, text: "4", isCorrect: false),
                        Choice(id: 3, text: "5", isCorrect: true),
                    ])),
                    Question(text: "Water is wet.", difficulty: .hard, points: 0, body: .trueFalse(false)),
                ]),
            ], questions: [
                Question(text: "Seat of the Dutch government?", body: .typedAnswer(["The Hague", "Den Haag"]), timeLimitSeconds: 45),
                Question(text: "π to two places?", body: .numeric(value: 3.14, tolerance: 0.005, unit: nil)),
                Question(text: "Everest, in metres?", body: .numeric(value: 8_849, tolerance: 10, unit: "m",
                                                                      units: [NumericUnit(name: "km", multiplier: 0.001)])),
                Question(text: "Capital of France?", body: .typedAnswer(["Paris"], partial: [Alternative("Lutetia", fraction: Fraction(0.5)!)])),
                Question(text: "Name the Beatles", body: .nameAll(
                    items: [NameAllItem(answer: "John", alternates: ["John Lennon"]), NameAllItem(answer: "Paul")],
                    timeLimitSeconds: 120, typoTolerance: true)),
                Question(text: "Capital of Australia?", body: .singleChoice([
                    Choice(id: 1, text: "Canberra", isCorrect: true), Choice(id: 2, text: "Sydney", isCorrect: false, fraction: Fraction(0.5)),
                ])),
                Question(text: "Oldest first", points: 3, body: .ordering(Ordering(items: ["Rome", "Paris", "Helsinki"])), timeLimitSeconds: 90),
                Question(text: "Capitals", body: .matching(Matching(pairs: [.init(prompt: "fi", answer: "Helsinki"),
                                                                             .init(prompt: "se", answer: "Stockholm")], extras: ["Oslo"]))),
                Question(text: "Fill in", body: .gapFill(GapFill(text: "The [[1]] flows through [[2]], [[3]] km.", gaps: [
                    .init(.choice([Alternative("Seine"), Alternative("Rhine", fraction: .zero)])),
                    .init(.typed([Alternative("Paris"), Alternative("Lutetia", fraction: Fraction(0.5)!)]), weight: 2),
                    .init(.number(value: 777, tolerance: 5, units: [NumericUnit(name: "km"), NumericUnit(name: "m", multiplier: 1000)])),
                ]))),
                Question(text: "Tea or coffee?", body: .poll(Poll(choices: ["Tea", "Coffee"]))),
                Question(text: "One word for Monday?", points: 0, body: .wordCloud),
                Question(text: "Moon landing?", body: .estimate(Estimate(minimum: 1900, maximum: 2000, step: 1, value: 1969, margin: 10, unit: "AD"))),
                Question(text: "Round two", points: 0, body: .slide),
            ]),
        ]),
        BankSubject(name: "Empty", topics: []),
    ])

    @Test func everyKindRoundTripsToAnEqualBank() throws {
        let codec = BundleCodec()
        let data = codec.write(Self.everyKind)
        #expect(try codec.read(data) == Self.everyKind)
    }

    @Test func writingIsStablePrettyAndSorted() throws {
        let codec = BundleCodec()
        let first = codec.write(Self.everyKind)
        #expect(codec.write(try codec.read(first)) == first)
        let text = String(decoding: first, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"format\": \"quizbox-bundle\",\n  \"subjects\": [\n"))
        #expect(text.hasSuffix("  \"version\": 1\n}\n"))
        #expect(text.contains("\"tolerance\": 0.005"))
        #expect(text.contains("\"value\": 8849"))
    }

    @Test func writesTheDocumentedShapeForAQuestion() throws {
        let bank = Bank(subjects: [BankSubject(name: "S", topics: [BankTopic(name: "T", questions: [
            Question(text: "Q?", body: .trueFalse(true)),
        ])])])
        let text = String(decoding: BundleCodec().write(bank), as: UTF8.self)
        #expect(text == """
            {
              "format": "quizbox-bundle",
              "subjects": [
                {
                  "description": "",
                  "name": "S",
                  "topics": [
                    {
                      "description": "",
                      "name": "T",
                      "questions": [
                        {
                          "answer": true,
                          "difficulty": "medium",
                          "kind": "trueFalse",
                          "points": 1,
                          "text": "Q?"
                        }
                      ],
                      "quizzes": []
                    }
                  ]
                }
              ],
              "version": 1
            }

            """)
    }

    @Test func omittedOptionalFieldsTakeTheirDefaults() throws {
        let json = """
            {"format": "quizbox-bundle", "version": 1, "subjects": [{"name": "S", "topics": [{"name": "T",
              "questions": [
                {"kind": "singleChoice", "text": "Q1?", "choices": [{"text": "a", "correct": true}, {"text": "b"}]},
                {"kind": "numeric", "text": "Q2?", "value": 4},
                {"kind": "nameAll", "text": "Q3?", "items": [{"answer": "x"}], "explanation": null}
              ]}]}]}
            """
        let bank = try BundleCodec().read(Array(json.utf8))
        let topic = try #require(bank.subjects.first?.topics.first)
        #expect(bank.subjects[0].description == "")
        #expect(topic.quizzes.isEmpty)
        #expect(topic.questions == [
            singleChoice("Q1?", ["a", "b"], correct: 1),
            Question(text: "Q2?", body: .numeric(value: 4, tolerance: 0, unit: nil)),
            Question(text: "Q3?", body: .nameAll(items: [NameAllItem(answer: "x")], timeLimitSeconds: 300, typoTolerance: false)),
        ])
    }

    @Test func escapesAndNonASCIITextSurviveARoundTrip() throws {
        let text = "Quote \" backslash \\ tab \t newline \n bell \u{7} emoji 🎉 and \"東京\""
        let bank = Bank(subjects: [BankSubject(name: text, topics: [BankTopic(name: "T", questions: [
            Question(text: text, body: .typedAnswer([text])),
        ])])])
        let codec = BundleCodec()
        #expect(try codec.read(codec.write(bank)) == bank)
    }

    @Test func acceptsAByteOrderMarkAndUnicodeEscapes() throws {
        let json = #"{"format":"quizbox-bundle","version":1,"subjects":[{"name":"caf\u00e9 \ud83c\udf89"}]}"#
        let bank = try BundleCodec().read([0xEF, 0xBB, 0xBF] + Array(json.utf8))
        #expect(bank.subjects.map(\.name) == ["café 🎉"])
    }
}
