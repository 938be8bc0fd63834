import Foundation
@testable import QuizServer
import Testing

/// Page models become the values Mustache renders: nested structs as dictionaries, lists as
/// arrays, a nil optional as no key at all (so `{{#key}}` skips it), HTML as itself.
@Suite struct MustacheEncoderTests {
    enum Colour: String, Encodable { case red }

    struct Row: Encodable {
        var id: Int64
        var label: String
        var hint: String?
    }

    struct Model: Encodable {
        var title: String
        var count: Int
        var shown: Bool
        var missing: String?
        var colour: Colour
        var rows: [Row]
        var html: PageHTML
    }

    @Test func aModelBecomesTheValuesMustacheReads() throws {
        let model = Model(title: "Quiz <1>", count: 3, shown: false, missing: nil, colour: .red,
                          rows: [Row(id: 7, label: "a", hint: "h"), Row(id: 8, label: "b", hint: nil)], html: PageHTML("<b>x</b>"))
        let values = MustacheEncoder.encode(model)
        #expect(values["title"] as? String == "Quiz <1>")
        #expect(values["count"] as? Int == 3)
        #expect(values["shown"] as? Bool == false)
        #expect(values.keys.contains("missing") == false)
        #expect(values["colour"] as? String == "red")
        #expect(values["html"] as? String == "<b>x</b>")
        let rows = try #require(values["rows"] as? [Any])
        #expect(rows.count == 2)
        let first = try #require(rows.first as? [String: Any])
        #expect(first["id"] as? Int64 == 7)
        #expect(first["hint"] as? String == "h")
        let second = try #require(rows.last as? [String: Any])
        #expect(second.keys.sorted() == ["id", "label"])
    }
}

/// The question page writes its values itself (it is the most requested page); they must be the
/// values the encoder would have made, or the page would render differently.
@Suite struct MustacheFieldsTests {
    typealias QuestionPage = PlayPages.QuestionPage

    static let unanswered = QuestionPage(
        attemptId: 4, id: 9, quizTitle: "Capitals <EU>", position: 2, questionCount: 10, questionHead: PageHTML("<h1>Q</h1>"),
        feedback: "Choose one", answered: false, questionFields: PageHTML("<fieldset></fieldset>"), timed: true, secondsLeft: 30,
        deadline: 1_700_000_000_000)
    static let answered = QuestionPage(
        attemptId: 4, id: 9, quizTitle: "Capitals", position: 10, questionCount: 10, questionHead: PageHTML("<h1>Q</h1>"),
        answered: true, verdictClass: "right", verdictText: "Right! +1 point", given: "Paris", correctAnswer: "Paris",
        explanation: "It is.", nextId: 11, allAnswered: true,
        answeredTiles: [.init(variant: 1, shape: "diamond", path: "M1", text: "Paris", isRight: true, isYours: true),
                        .init(variant: 0, shape: "triangle", path: "M2", text: "Rome")],
        hasAnsweredTiles: true, twoTiles: true, streak: "3 right in a row")

    @Test(arguments: [unanswered, answered])
    func theQuestionPageWritesWhatTheEncoderWould(page: QuestionPage) {
        var written: [String: Any] = [:]
        page.write(into: &written)
        let encoded = MustacheEncoder.encode(page)
        #expect(Set(written.keys) == Set(encoded.keys))
        for (key, value) in encoded {
            #expect(Self.canonical(written[key]!) == Self.canonical(value), "\(key)")
        }
    }

    /// A value as text with its dictionaries' keys sorted and every value's type named, so two
    /// equal values read the same whatever order their dictionaries hash in.
    static func canonical(_ value: Any) -> String {
        switch value {
        case let dictionary as [String: Any]:
            "{" + dictionary.keys.sorted().map { "\($0): \(canonical(dictionary[$0]!))" }.joined(separator: ", ") + "}"
        case let array as [Any]:
            "[" + array.map(canonical).joined(separator: ", ") + "]"
        default:
            "\(type(of: value))(\(value))"
        }
    }
}
