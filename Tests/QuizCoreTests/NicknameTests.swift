import Foundation
import QuizCore
import Testing

struct NicknameTests {
    @Test func aNicknameIsWhatShowsTrimmedAndWithinItsLength() throws {
        #expect(try Nickname.checked("  Ann ") == "Ann")
        #expect(try Nickname.checked("Ässä Åke") == "Ässä Åke")
        #expect(try Nickname.checked("北京的朋友") == "北京的朋友")
        #expect(try Nickname.checked("🦊🦊🦊") == "🦊🦊🦊")
        #expect(try Nickname.checked(String(repeating: "a", count: 20)).count == 20)
        #expect(throws: LiveGameError.nicknameInvalid) { try Nickname.checked(String(repeating: "a", count: 21)) }
        #expect(throws: LiveGameError.nicknameInvalid) { try Nickname.checked("   ") }
        #expect(throws: LiveGameError.nicknameInvalid) { try Nickname.checked("a\u{0007}b") }
    }

    @Test func stackedMarksAreRefusedThoughTheyShowAsFewCharacters() throws {
        // 20 "characters" of about 3.5 KB: what made a 500-player roster 1.7 MB.
        let zalgo = String(repeating: "Z" + String(repeating: "\u{0301}\u{0316}\u{0338}", count: 58), count: 20)
        #expect(zalgo.count == 20 && zalgo.utf8.count > 3_400)
        #expect(throws: LiveGameError.nicknameInvalid) { try Nickname.checked(zalgo) }
        #expect(throws: LiveGameError.nicknameInvalid) { try Nickname.checked("Z\u{0301}\u{0302}\u{0303}\u{0304}\u{0305}\u{0306}") }
        // Marks a language needs are fine (decomposed Vietnamese, a keycap).
        #expect(try Nickname.checked("Nguye\u{0302}\u{0303}n") == "Nguyễn")
        #expect(try Nickname.checked("1\u{FE0F}\u{20E3}") == "1\u{FE0F}\u{20E3}")
        // Twenty four-byte characters fit; more bytes than that do not.
        #expect(throws: LiveGameError.nicknameInvalid) { try Nickname.checked(String(repeating: "🇫🇮", count: 11)) }
    }

    @Test func invisibleNamesAreRefused() {
        for invisible in ["\u{3164}", "\u{2800}\u{2800}", "\u{115F}\u{1160}", "\u{FFA0}", "\u{200B}", "a\u{3164}b", "\u{1D159}"] {
            #expect(throws: LiveGameError.nicknameInvalid, "\(invisible.unicodeScalars.map { String($0.value, radix: 16) })") {
                try Nickname.checked(invisible)
            }
        }
    }

    @Test func lookAlikesHaveOneKey() {
        let alice = Nickname.key("alice")
        // Cyrillic а and е, Greek ο, full-width letters, capitals, accents, a capital I for an l.
        for same in ["\u{0430}lic\u{0435}", "ALICE", "Ａｌｉｃｅ", "Alicé", "aIice", "a l i c e", "al\u{200B}ice", "а1ice"] {
            #expect(Nickname.key(same) == alice, "\(same)")
        }
        #expect(Nickname.key("Bob") != alice)
        #expect(Nickname.key("ΒΟΒ") == Nickname.key("bob"))
        #expect(Nickname.key("Ian") == Nickname.key("ian"))
    }

    @Test func aGameRefusesALookAlikeOfANicknameTaken() throws {
        var game = LiveGame(id: 1, pin: "123456", quizId: 1, hostUserId: 1, title: "Q",
                            questions: [Question(id: 1, text: "Q", body: .trueFalse(true))], settings: LiveSettings())
        _ = try game.join(nickname: "alice", userId: nil)
        #expect(throws: LiveGameError.nicknameTaken) { try game.join(nickname: "\u{0430}lice", userId: nil) }
        #expect(throws: LiveGameError.nicknameTaken) { try game.join(nickname: "ALICE", userId: nil) }
        // A rejoin finds the player by the same key.
        #expect(game.player(nickname: "Alice")?.id == 1)
    }

    @Test func aSignedInPlayerIsNeverLockedOutOfTheirUsername() throws {
        var game = LiveGame(id: 1, pin: "123456", quizId: 1, hostUserId: 1, title: "Q",
                            questions: [Question(id: 1, text: "Q", body: .trueFalse(true))], settings: LiveSettings())
        _ = try game.join(nickname: "\u{0430}lice", userId: nil)  // a look-alike came first
        let alice = try game.join(nickname: "alice", userId: 42)
        #expect(alice.nickname == "alice (2)" && alice.userId == 42)
        // A username of 21–32 characters, as registration allows.
        let long = try game.join(nickname: "a_rather_long_username_of_thirty", userId: 43)
        #expect(long.nickname == "a_rather_long_username_of_thirty")
    }
}
