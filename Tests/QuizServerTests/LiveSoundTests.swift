import Foundation
@testable import QuizCore
import QuizLiveProtocol
@testable import QuizServer
@testable import QuizUseCases
import Testing

/// A question's sound clip in a live game: the host's screen gets it to play as the question
/// opens; phones get the question without it, unless the host plays sound on phones too.
struct LiveSoundTests {
    static let audio = QuestionAudio(hash: String(repeating: "c", count: 64), type: .mp3, description: "Four piano notes", seconds: 12.5)

    static func view(soundOnPhones: Bool) throws -> LiveQuestionView {
        var settings = LiveSettings()
        settings.soundOnPhones = soundOnPhones
        let question = Question(id: 9, text: "Name the song", body: .typedAnswer(["Imagine"]), audio: audio)
        var game = LiveGame(id: 42, pin: "048213", quizId: 7, hostUserId: 5, title: "Music", questions: [question], settings: settings)
        _ = try game.join(nickname: "Ann", userId: nil)
        try game.start(now: Date(timeIntervalSince1970: 1_700_000_000))
        return LiveQuestionView(game: game, question: question, ids: ChoiceIds(publicIds: [[:]], seed: 1))
    }

    static func decoded(_ text: String) throws -> LiveServerMessage.Question {
        guard case .question(let question) = try LiveServerMessage(text: text) else {
            Issue.record("not a question: \(text)")
            throw CancellationError()
        }
        return question
    }

    @Test func theHostsScreenGetsTheClipAndPhonesDoNotByDefault() throws {
        let view = try Self.view(soundOnPhones: false)
        let now = Date(timeIntervalSince1970: 1_700_000_001)
        let host = try Self.decoded(LiveMessages.question(view, now: now, host: true))
        #expect(host.audio == .init(url: Self.audio.url, description: "Four piano notes", seconds: 12.5))
        #expect(host.audio?.url.hasPrefix("/sounds/") == true)
        let phone = LiveMessages.question(view, now: now, host: false)
        #expect(try Self.decoded(phone).audio == nil)
        #expect(!phone.contains("sounds") && !phone.contains("audio"), "no clip, not even an empty field: \(phone)")
        // The shared path the hub sends to each audience says the same.
        #expect(try Self.decoded(try #require(LiveMessages.shared(.question(view, shuffle: false), host: true, now: now))).audio != nil)
        #expect(try Self.decoded(try #require(LiveMessages.shared(.question(view, shuffle: false), host: false, now: now))).audio == nil)
    }

    @Test func withSoundOnPhonesEveryPhoneGetsTheClipToo() throws {
        let view = try Self.view(soundOnPhones: true)
        let now = Date(timeIntervalSince1970: 1_700_000_001)
        #expect(try Self.decoded(LiveMessages.question(view, now: now, host: false)).audio?.url == Self.audio.url)
        #expect(try Self.decoded(LiveMessages.question(view.shuffled(playerId: 1), now: now, host: false)).audio?.url == Self.audio.url)
    }

    @Test func theSettingTravelsOnlyWhenOnSoOldMessagesStayByteForByte() throws {
        var settings = LiveSettings()
        #expect(!(try String(decoding: JSONEncoder().encode(LiveMessages.settings(settings)), as: UTF8.self)).contains("soundOnPhones"))
        settings.soundOnPhones = true
        #expect(LiveMessages.settings(settings).soundOnPhones == true)
        #expect(LiveMessages.settings(LiveProtocol.Settings(soundOnPhones: true)).soundOnPhones == true)
        let decoded = try JSONDecoder().decode(LiveSettings.self, from: Data(#"{"soundOnPhones":true}"#.utf8))
        #expect(decoded.soundOnPhones && decoded.secondsPerQuestion == 20)
    }
}
