import Foundation
@testable import QuizLiveProtocol
import Testing

/// Every message, both directions, written and read back through the protocol's types; the
/// hand-written encoders and the glance held to the `Codable` shape.
struct LiveProtocolRoundTripTests {
    typealias Message = LiveServerMessage

    @Test func everyServerMessageTypeHasASample() {
        #expect(Set(LiveProtocolSamples.server.map(\.kind)) == Set(Message.Kind.allCases))
        #expect(Set(LiveProtocolSamples.client.map(\.kind)) == Set(LiveClientMessage.Kind.allCases))
    }

    @Test(arguments: LiveProtocolSamples.server)
    func aServerMessageReadsBackAsItWasWritten(_ message: Message) throws {
        let text = message.text
        #expect(try Message(text: text) == message)
        #expect(text.hasPrefix("{") && text.contains(#""type":"\#(message.kind.rawValue)""#) && text.contains(#""v":1"#))
    }

    @Test(arguments: LiveProtocolSamples.server)
    func theHandWrittenEncodersWriteTheBytesCodableWrites(_ message: Message) throws {
        let codable = LiveProtocol.text(message)
        if let fast = message.fastText {
            #expect(fast == codable)
            #expect(try Message(text: fast) == message)
        }
        #expect(message.text == codable)
    }

    @Test func resultsAndAcksAreWrittenByHand() {
        let written = LiveProtocolSamples.server.filter { $0.fastText != nil }.map(\.kind)
        #expect(Set(written) == [.result, .ack])
    }

    @Test(arguments: LiveProtocolSamples.server)
    func aGlanceReadsWhatCodableReads(_ message: Message) throws {
        let glance = Message.Glance(message.text)
        #expect(glance.kind == message.kind)
        switch message {
        case .question(let question):
            #expect(glance.int("index") == question.index)
            #expect(glance.int("deadline").map(Int64.init) == question.deadline && glance.int("now").map(Int64.init) == question.now)
            #expect(glance.string("kind") == question.kind.rawValue)
            #expect(glance.ids(in: "choices") == question.choices.map(\.id))
            #expect(!glance.contains("correct") && !glance.contains("correctChoices"))
        case .result(let result):
            #expect(glance.int("index") == result.index && glance.int("score") == result.score && glance.bool("answered") == result.answered)
        case .ack(let ack):
            #expect(glance.int("question") == ack.question)
        case .error(let failure):
            #expect(glance.string("code") == failure.code)
        case .ended(let ended):
            #expect(glance.int("score", after: "you") == ended.you?.score)
        default:
            break
        }
    }

    @Test(arguments: LiveProtocolSamples.client)
    func aClientMessageReadsBackAsItWasWritten(_ message: LiveClientMessage) throws {
        let text = message.text
        #expect(try LiveClientMessage.read(text) == message)
        #expect(try JSONDecoder().decode(LiveClientMessage.self, from: Data(text.utf8)) == message)
        #expect(text.contains(#""type":"\#(message.kind.rawValue)""#) && text.contains(#""v":1"#))
    }

    /// An `html` is left out, not `null`, where a text holds no maths: a plain question's bytes are
    /// version 1's, and a client that knows no `html` reads a maths one as before.
    @Test func htmlIsSentOnlyBesideMaths() throws {
        let plain = Message.Question(index: 0, count: 1, text: "Two?", kind: .singleChoice, choices: [.init(id: 100_000_007, text: "2")],
                                     unit: nil, image: nil, points: .standard, seconds: 20, openedAt: 0, deadline: 20_000, now: 1)
        #expect(Message.question(plain).text == #"{"choices":[{"id":100000007,"text":"2"}],"count":1,"deadline":20000,"index":0,"kind":"singleChoice","now":1,"openedAt":0,"points":"standard","seconds":20,"text":"Two?","type":"question","v":1}"#)
        let reveal = Message.Reveal(index: 0, correct: "2", correctChoices: [100_000_007], explanation: "Two.",
                                    distribution: [.init(label: "2", choice: 100_000_007, count: 1, correct: true)], answered: 1, players: 1)
        #expect(!Message.reveal(reveal).text.contains("HTML") && !Message.question(plain).text.contains("html"))
        let maths = Message.question(LiveProtocolSamples.maths).text
        #expect(maths.contains(#""html":"Half of <math display=\"block\">"#))
        #expect(maths.contains(#"{"html":"<math display=\"block\"><semantics><mfrac>"#) && maths.contains(#"{"id":100000007,"text":"$2"}"#))
        let old = try JSONDecoder().decode(OldQuestion.self, from: Data(maths.utf8))
        #expect(old.text == LiveProtocolSamples.maths.text && old.choices.map(\.text) == LiveProtocolSamples.maths.choices.map(\.text))
    }

    /// A question as a client written before `html` reads it.
    private struct OldQuestion: Decodable {
        struct Choice: Decodable { var id: Int, text: String }
        var text: String
        var choices: [Choice]
    }

    @Test func anUnknownTypeIsAClearErrorBothWays() throws {
        #expect(throws: LiveProtocol.UnknownType(type: "confetti")) { try Message(text: #"{"type":"confetti","v":1}"#) }
        #expect(throws: LiveClientMessage.ReadError.unknownType("confetti")) { try LiveClientMessage.read(#"{"type":"confetti","v":1}"#) }
        #expect(throws: LiveClientMessage.ReadError.unknownType(nil)) { try LiveClientMessage.read(#"{"v":1}"#) }
    }

    @Test func unknownFieldsAreIgnored() throws {
        #expect(try Message(text: #"{"type":"ack","question":2,"v":1,"extra":{"a":[1]}}"#) == .ack(.init(question: 2)))
        #expect(try LiveClientMessage.read(#"{"type":"kick","player":2,"v":1,"confetti":true}"#) == .kick(player: 2))
    }

    /// The order of the checks is the server's: size, shape, version, answer, then missing fields.
    @Test func aClientMessageIsCheckedInOrder() {
        func error(_ text: String, accepting: (LiveClientMessage.Answer) -> Bool = { _ in true }) -> LiveClientMessage.ReadError? {
            do {
                _ = try LiveClientMessage.read(text, accepting: accepting)
                return nil
            } catch {
                return error
            }
        }
        #expect(error(#"{"type":"start","v":1,"pad":""#.padding(toLength: 4_096, withPad: "x", startingAt: 0) + #""}"#) == .tooLarge)
        #expect(error("[1]") == .malformed)
        #expect(error(#"{"type":"start","v":1"#) == .malformed)
        #expect(error(#"{"type":"join","v":1,"pin":6}"#) == .malformed)
        #expect(error(#"{"type":"join","v":1,"answer":{"choice":"a"}}"#) == .malformed)
        #expect(error(#"{"type":"settings","v":1,"settings":{"points":{"0":"triple"}}}"#) == .malformed)
        #expect(error(#"{"type":"start"}"#) == .version(type: "start"))
        #expect(error(#"{"type":"start","v":2}"#) == .version(type: "start"))
        #expect(error(#"{"type":"join","v":1,"pin":"1"}"#) == .missing(field: "nickname", type: "join"))
        #expect(error(#"{"type":"answer","v":1,"answer":{"choice":1,"text":"a"}}"#) == .badAnswer)
        #expect(error(#"{"type":"answer","v":1,"answer":{}}"#) == .badAnswer)
        #expect(error(#"{"type":"answer","v":1,"answer":{"text":""}}"#, accepting: { $0 != .text("") }) == .badAnswer)
        #expect(error(#"{"type":"answer","v":1,"answer":{"text":"a"}}"#) == .missing(field: "question", type: "answer"))
        #expect(error(#"{"type":"answer","v":1,"question":0,"answer":{"number":1.5}}"#) == nil)
        #expect(error(#"{"type":"lock","v":1,"locked":null}"#) == .missing(field: "locked", type: "lock"))
    }

    @Test func aNumberAnswerComesAsDigitsOrTyped() throws {
        #expect(try LiveClientMessage.read(#"{"type":"answer","v":1,"question":0,"answer":{"number":"1,5"}}"#)
            == .answer(question: 0, answer: .number(.digits("1,5"))))
        #expect(try LiveClientMessage.read(#"{"type":"answer","v":1,"question":0,"answer":{"number":2}}"#)
            == .answer(question: 0, answer: .number(.value(2))))
    }
}
