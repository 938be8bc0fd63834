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
