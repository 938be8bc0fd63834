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

    /// The question page writes its values by hand for speed: they must be what `Encodable` gives.
    @Test(arguments: [false, true])
    func theQuestionPageWritesWhatItsEncodingWould(answered: Bool) {
        var page = PlayPages.QuestionPage(attemptId: 1, id: 2, quizTitle: "Q & A", position: 3, questionCount: 4,
                                          questionHead: PageHTML("<p>head</p>"), feedback: nil, answered: answered)
        if answered {
            page.verdictClass = "right"
            page.verdictText = "Right! +1 point"
            page.given = "Paris"
            page.correctAnswer = "Paris"
            page.explanation = "It is."
            page.nextId = 9
        } else {
            page.questionFields = PageHTML("<input>")
            page.timed = true
            page.secondsLeft = 20
            page.deadline = 1_800_000_000_000
            page.allAnswered = true
            page.feedback = "Choose one."
        }
        let direct = page.mustacheValues
        let generic = MustacheEncoder.encodeGenerically(page)
        #expect(direct.keys.sorted() == generic.keys.sorted())
        for (key, value) in generic { #expect(String(describing: direct[key]!) == String(describing: value), "\(key)") }
    }
}
