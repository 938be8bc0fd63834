import Foundation
import QuizCore
import Testing

/// The one stored form of an answer: written once per answer, read by the pages afterwards.
@Suite struct GivenAnswerTests {
    static let answers: [GivenAnswer] = [
        GivenAnswer(.choice(3)), GivenAnswer(.choices([4, 1, 2])), GivenAnswer(.bool(false)),
        GivenAnswer(.text("Say \"hi\"\\ \n\t\u{1}é 😀")), GivenAnswer(.number(42)), GivenAnswer(.number(-0.000_01)),
        GivenAnswer(.number(1e300)), GivenAnswer(.choice(2), late: true), GivenAnswer(.text(""), late: true),
    ]

    @Test(arguments: answers)
    func whatIsStoredReadsBackAsItWas(_ given: GivenAnswer) throws {
        #expect(GivenAnswer(stored: given.stored) == given, "\(given.stored)")
    }

    @Test(arguments: answers)
    func theStoredFormIsTheCodableForm(_ given: GivenAnswer) throws {
        let direct = try JSONSerialization.jsonObject(with: Data(given.stored.utf8)) as? NSDictionary
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(given)) as? NSDictionary
        #expect(direct == encoded, "\(given.stored)")
    }

    @Test func theStoredFormUsesTheAPIsNames() {
        #expect(GivenAnswer(.choice(3)).stored == #"{"choiceId":3}"#)
        #expect(GivenAnswer(.choices([3, 1])).stored == #"{"choiceIds":[1,3]}"#)
        #expect(GivenAnswer(.bool(true), late: true).stored == #"{"tooLate":true,"value":true}"#)
        #expect(GivenAnswer(.text("a\"b")).stored == #"{"text":"a\"b"}"#)
    }

    @Test func rowsWithoutAnAnswerAreNotRead() {
        for row in ["", "{}", #"{"tooLate":true}"#, "[1]", #"{"choiceId":"x"}"#, "not json"] {
            #expect(GivenAnswer(stored: row) == nil, "\(row)")
        }
    }

    @Test func aNumberTooLongForADoubleIsKeptAsText() throws {
        let question = Question(text: "How far?", body: .numeric(value: 1, tolerance: 0, unit: nil))
        let digits = String(repeating: "9", count: 400)
        #expect(try question.normalized(.text(digits)) == .text(digits))
        #expect(try question.normalized(.text("1,5")) == .number(1.5))
        #expect(GivenAnswer(stored: GivenAnswer(.number(.infinity)).stored) == GivenAnswer(.text("inf")))
    }
}
