import Foundation
@testable import QuizCore
import QuizTestSupport
import Testing

/// Sound files told by their bytes and measured by their headers, as made by common encoders; and
/// files that only pretend.
@Suite struct AudioClipTests {
    @Test func eachFormatIsToldByItsBytesAndMeasuredByItsHeaders() throws {
        #expect(try AudioClip.inspect(SoundBytes.wav(seconds: 2.5)) == AudioClip(type: .wav, seconds: 2.5))
        let constant = try AudioClip.inspect(SoundBytes.mp3(frames: 100))
        #expect(constant.type == .mp3)
        #expect(abs(constant.seconds - 100 * 1152 / 44_100.0) < 0.05)  // 2.61 s
        #expect(try AudioClip.inspect(SoundBytes.mp3(frames: 3, id3: false, xingFrames: 4_000)).seconds == 4_000 * 1152 / 44_100.0)
        #expect(try AudioClip.inspect(SoundBytes.opus(seconds: 30)) == AudioClip(type: .ogg, seconds: 30))
        #expect(try AudioClip.inspect(SoundBytes.m4a(seconds: 45)) == AudioClip(type: .m4a, seconds: 45))
        #expect(try AudioClip.inspect(SoundBytes.m4a(seconds: 12, version1: true)) == AudioClip(type: .m4a, seconds: 12))
    }

    @Test func filesThatOnlyPretendAreRefusedSayingWhy() {
        #expect(throws: AudioClip.Refusal.notAudio) { try AudioClip.inspect(Data("not a sound at all".utf8)) }
        #expect(throws: AudioClip.Refusal.notAudio) { try AudioClip.inspect(Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0])) }
        #expect(throws: AudioClip.Refusal.damaged(.wav)) { try AudioClip.inspect(SoundBytes.wav(seconds: 1).prefix(30)) }
        #expect(throws: AudioClip.Refusal.damaged(.mp3)) { try AudioClip.inspect(SoundBytes.mp3(frames: 1).prefix(35)) }
        #expect(throws: AudioClip.Refusal.damaged(.ogg)) { try AudioClip.inspect(SoundBytes.opus(seconds: 1).prefix(40)) }
        #expect(throws: AudioClip.Refusal.damaged(.m4a)) { try AudioClip.inspect(SoundBytes.m4a(seconds: 1).prefix(40)) }
        #expect(throws: AudioClip.Refusal.tooLong(seconds: 600)) { try AudioClip.inspect(SoundBytes.m4a(seconds: 600)) }
        #expect(throws: AudioClip.Refusal.tooLarge(bytes: AudioClip.maxBytes + 1)) {
            try AudioClip.inspect(Data(count: AudioClip.maxBytes + 1))
        }
        // A box that claims more than the file holds, and one of size 1 with a huge 64-bit size.
        var lying = Array(SoundBytes.m4a(seconds: 5))
        lying.replaceSubrange(0..<4, with: SoundBytes.be32(Int(Int32.max)))
        #expect(throws: AudioClip.Refusal.self) { try AudioClip.inspect(Data(lying)) }
        var huge = Array(SoundBytes.m4a(seconds: 5))
        huge.replaceSubrange(0..<4, with: SoundBytes.be32(1))
        #expect(throws: AudioClip.Refusal.self) { try AudioClip.inspect(Data(huge)) }
    }

    /// The same bytes every run (a fixed seed), so a failure can be repeated.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func damagedBytesNeverCrashTheInspector() {
        var generator = SplitMix(state: 42)
        let samples = [SoundBytes.wav(seconds: 0.1), SoundBytes.mp3(frames: 5), SoundBytes.opus(seconds: 2), SoundBytes.m4a(seconds: 3)]
        for sample in samples {
            for _ in 0..<300 {
                var bytes = Array(sample)
                for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
                _ = try? AudioClip.inspect(Data(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))))
            }
        }
    }

    @Test func aClipNeedsADescriptionForPeopleWhoCannotHearIt() {
        func question(_ description: String) -> Question {
            Question(text: "Name the song", body: .trueFalse(true),
                     audio: QuestionAudio(hash: String(repeating: "b", count: 64), type: .mp3, description: description, seconds: 9))
        }
        #expect(question("A piano waltz, eight bars").validationErrors().isEmpty)
        #expect(question("  ").validationErrors().map(\.field) == ["audio.description"])
        #expect(question(String(repeating: "x", count: 501)).validationErrors().map(\.field) == ["audio.description"])
        #expect(question("x").audio?.fileName == String(repeating: "b", count: 64) + ".mp3")
    }
}
