import Foundation
import HTTPTypes
import HummingbirdTesting
import QuizCore
import QuizServer
import QuizStore
import Testing

/// The question form writes the new kinds and partial credit, and puts each problem next to the
/// field that has it.
@Suite struct QuestionKindsFormTests {
    @Test func theFormWritesTheNewKindsAndChoiceCredit() async throws {
        try await withApp { client, env in
            let author = try await ManagePageTests().signedIn(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let forms: [[(String, String)]] = [
                [("kind", "ordering"), ("text", "Oldest first"), ("order", "Rome\nParis\n\nHelsinki\n")],
                [("kind", "matching"), ("text", "Capitals"), ("pairs", "Finland -> Helsinki\nSweden->Stockholm"), ("extras", "Oslo")],
                [("kind", "poll"), ("text", "Tea or coffee?"), ("poll_choices", "Tea\nCoffee")],
                [("kind", "wordCloud"), ("text", "One word for Monday?"), ("answer_seconds", "45")],
                [("kind", "estimate"), ("text", "Moon landing?"), ("estimate_value", "1969"), ("estimate_min", "1900"),
                 ("estimate_max", "2000"), ("estimate_step", "1"), ("estimate_margin", "10"), ("estimate_unit", "AD")],
                [("kind", "slide"), ("text", "Round two: rivers"), ("points", "0")],
                [("kind", "singleChoice"), ("text", "Capital of Australia?"), ("choice_text", "Canberra"), ("choice_correct", "0"),
                 ("choice_fraction", ""), ("choice_text", "Sydney"), ("choice_fraction", "50"), ("choice_text", ""), ("choice_fraction", "")],
            ]
            for form in forms {
                let saved = try await author.post("/manage/questions", [("topic", "\(topicId)")] + form)
                #expect(saved.location == "/manage/topics/\(topicId)?done=created", "\(form[0]): \(saved.html)")
            }
            let bank = try #require(try await env.store.topicQuestions(topicId: topicId))
            #expect(bank.suffix(7).map(\.body) == [
                .ordering(Ordering(items: ["Rome", "Paris", "Helsinki"])),
                .matching(Matching(pairs: [.init(prompt: "Finland", answer: "Helsinki"), .init(prompt: "Sweden", answer: "Stockholm")],
                                   extras: ["Oslo"])),
                .poll(Poll(choices: ["Tea", "Coffee"])),
                .wordCloud,
                .estimate(Estimate(minimum: 1900, maximum: 2000, step: 1, value: 1969, margin: 10, unit: "AD")),
                .slide,
                .singleChoice([Choice(id: 1, text: "Canberra", isCorrect: true),
                               Choice(id: 2, text: "Sydney", isCorrect: false, fraction: Fraction(0.5))]),
            ])
            // Opened again, each shows what it holds.
            let ids = bank.suffix(7).compactMap(\.id)
            let ordering = try await author.get("/manage/questions/\(ids[0])")
            #expect(ordering.contains(">Rome\nParis\nHelsinki</textarea>"))
            #expect(try await author.get("/manage/questions/\(ids[1])").contains(">Finland -&gt; Helsinki\nSweden -&gt; Stockholm</textarea>"))
            #expect(try await author.get("/manage/questions/\(ids[6])").contains(#"name="choice_fraction" value="50""#))
            // The question's own time: kept, shown back, and left to the game where none was given.
            #expect(bank.suffix(7).map(\.timeLimitSeconds) == [nil, nil, nil, 45, nil, nil, nil])
            #expect(try await author.get("/manage/questions/\(ids[3])").contains(#"name="answer_seconds" inputmode="numeric" value="45""#))
        }
    }

    @Test func typedAnswersTakeSharesAndNumbersOtherUnits() async throws {
        try await withApp { client, env in
            let author = try await ManagePageTests().signedIn(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            for form: [(String, String)] in [
                [("kind", "typedAnswer"), ("text", "Capital of France?"), ("answers", "Paris\nLutetia | 50%\nA | B")],
                [("kind", "numeric"), ("text", "Wheat yield?"), ("value", "2,5"), ("unit", "t/ha"), ("units", "kg/ha = 1000\n")],
            ] {
                let saved = try await author.post("/manage/questions", [("topic", "\(topicId)")] + form)
                #expect(saved.location == "/manage/topics/\(topicId)?done=created", "\(saved.html)")
            }
            let bank = try #require(try await env.store.topicQuestions(topicId: topicId))
            #expect(bank.suffix(2).map(\.body) == [
                .typedAnswer(["Paris", "A | B"], partial: [Alternative("Lutetia", fraction: Fraction(0.5)!)]),
                .numeric(value: 2.5, tolerance: 0, unit: "t/ha", units: [NumericUnit(name: "kg/ha", multiplier: 1000)]),
            ])
            let ids = bank.suffix(2).compactMap(\.id)
            #expect(try await author.get("/manage/questions/\(ids[0])").contains(">Paris\nA | B\nLutetia | 50%</textarea>"))
            #expect(try await author.get("/manage/questions/\(ids[1])").contains(">kg/ha = 1000</textarea>"))

            for (form, field) in [([("kind", "typedAnswer"), ("text", "Shares"), ("answers", "Paris\nLutetia | 150%")], "error-answers"),
                                  ([("kind", "typedAnswer"), ("text", "Shares"), ("answers", "Paris\nLutetia | 0%")], "error-answers"),
                                  ([("kind", "numeric"), ("text", "Units"), ("value", "1"), ("unit", "km"), ("units", "m 1000")], "error-units"),
                                  ([("kind", "numeric"), ("text", "Units"), ("value", "1"), ("units", "m = 1000")], "error-unit")] {
                let refused = try await author.post("/manage/questions", [("topic", "\(topicId)")] + form)
                #expect(refused.status == .unprocessableContent, "\(form)")
                #expect(refused.contains(#"id="\#(field)""#), "\(form): \(refused.html)")
            }
            #expect(try await env.store.topicQuestions(topicId: topicId)?.count == bank.count)
        }
    }

    /// The form as Chromium sends it: multipart, every kind's fields, ten choice rows (the most the
    /// page's script adds). Past 50 parts the whole form was once refused as unreadable.
    @Test func theWholeFormAsABrowserSendsItIsRead() async throws {
        try await withApp { client, env in
            let author = try await ManagePageTests().signedIn(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let form = try await author.get("/manage/questions/new?topic=\(topicId)").html
            let names = Set(QuestionKindsPageTests.captures(#"<(?:input|textarea|select)[^>]* name="([a-z_]+)""#, in: form))
            #expect(names.isSuperset(of: ["answer_seconds", "units", "cloze", "estimate_min", "choice_text", "choice_fraction"]))
            var fields: [(String, String)] = []
            for name in names.sorted() where !["csrf", "picture", "choice_text", "choice_fraction", "choice_correct"].contains(name) {
                fields.append((name, ["kind": "multipleChoice", "text": "Which have rings?", "topic": "\(topicId)", "points": "1",
                                      "difficulty": "medium", "tf_answer": "true"][name] ?? ""))
            }
            for row in 0..<10 {
                fields += [("choice_text", ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn"].indices.contains(row)
                               ? ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn"][row] : ""),
                           ("choice_fraction", "")]
                if row == 4 || row == 5 { fields.append(("choice_correct", "\(row)")) }
            }
            #expect(fields.count > 50)
            let saved = try await author.postMultipart("/manage/questions", fields, file: nil, fileField: "picture")
            #expect(saved.location == "/manage/topics/\(topicId)?done=created", "\(saved.status) \(saved.html.prefix(500))")
            let stored = try #require(try await env.store.topicQuestions(topicId: topicId)?.last)
            #expect(stored.body.choices.filter(\.isCorrect).map(\.text) == ["Jupiter", "Saturn"])
        }
    }

    @Test func aGapFillIsWrittenInMoodlesClozeSyntax() async throws {
        try await withApp { client, env in
            let author = try await ManagePageTests().signedIn(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let cloze = "The {1:MULTICHOICE:=Seine~Rhine} flows through {2:SHORTANSWER:=Paris~%50%Lutetia}."
            let saved = try await author.post("/manage/questions", [("topic", "\(topicId)"), ("kind", "gapFill"), ("text", "Fill the gaps"),
                                                                     ("cloze", cloze)])
            #expect(saved.location == "/manage/topics/\(topicId)?done=created", "\(saved.html)")
            let stored = try #require(try await env.store.topicQuestions(topicId: topicId)?.last)
            #expect(stored.body == .gapFill(GapFill(text: "The [[1]] flows through [[2]].", gaps: [
                .init(.choice([Alternative("Seine"), Alternative("Rhine", fraction: .zero)]), weight: 1),
                .init(.typed([Alternative("Paris"), Alternative("Lutetia", fraction: Fraction(0.5)!)]), weight: 2),
            ])))
            // Opened again, the gaps are shown in the same syntax.
            let reopened = try await author.get("/manage/questions/\(try #require(stored.id))")
            #expect(reopened.contains("{1:MULTICHOICE:=Seine~Rhine}"), "\(reopened.html)")
            let broken = try await author.post("/manage/questions", [("topic", "\(topicId)"), ("kind", "gapFill"), ("text", "Broken"),
                                                                      ("cloze", "The {1:SHORTANSWER:=Paris")])
            #expect(broken.status == .unprocessableContent)
            #expect(broken.contains(#"id="error-cloze""#))
            #expect(broken.contains("The {1:SHORTANSWER:=Paris</textarea>"), "what was typed stays")
        }
    }

    @Test func problemsOfTheNewKindsAreShownAtTheirFields() async throws {
        try await withApp { client, env in
            let author = try await ManagePageTests().signedIn(client, env, "writer", role: .author)
            let topicId = try #require(try await env.store.outline().first?.topics.first?.id)
            let before = try await env.store.topicQuestions(topicId: topicId)?.count
            let cases: [([(String, String)], String)] = [
                ([("kind", "ordering"), ("text", "Two"), ("order", "a\nb")], "error-order"),
                ([("kind", "matching"), ("text", "One"), ("pairs", "a -> b")], "error-pairs"),
                ([("kind", "poll"), ("text", "Same"), ("poll_choices", "Tea\ntea")], "error-poll-choices"),
                ([("kind", "estimate"), ("text", "No range"), ("estimate_value", "5")], "error-minimum"),
                ([("kind", "estimate"), ("text", "Outside"), ("estimate_value", "50"), ("estimate_min", "0"), ("estimate_max", "10")],
                 "error-estimate-value"),
                ([("kind", "singleChoice"), ("text", "Credit"), ("choice_text", "a"), ("choice_correct", "0"), ("choice_fraction", "lots"),
                  ("choice_text", "b"), ("choice_fraction", "")], "error-choices"),
                ([("kind", "wordCloud"), ("text", "Too long"), ("answer_seconds", "300")], "error-answer-seconds"),
                ([("kind", "wordCloud"), ("text", "Not a number"), ("answer_seconds", "soon")], "error-answer-seconds"),
            ]
            for (form, field) in cases {
                let refused = try await author.post("/manage/questions", [("topic", "\(topicId)")] + form)
                #expect(refused.status == .unprocessableContent, "\(form)")
                #expect(refused.contains(#"id="\#(field)""#), "\(form): \(refused.html)")
            }
            #expect(try await env.store.topicQuestions(topicId: topicId)?.count == before)
        }
    }
}
