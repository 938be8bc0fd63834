import Foundation
@testable import QuizCore
import Testing

/// Sound files told by their bytes and measured by their headers, as made by common encoders; and
/// files that only pretend.
@Suite struct AudioClipTests {
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// 16-bit stereo PCM at 44.1 kHz: 176,400 bytes a second.
    static func wav(seconds: Double) -> Data {
        let dataSize = Int(seconds * 176_400)
        var b = Array("RIFF".utf8) + le32(36 + dataSize) + Array("WAVEfmt ".utf8) + le32(16)
        b += [1, 0, 2, 0] + le32(44_100) + le32(176_400) + [4, 0, 16, 0]
        b += Array("data".utf8) + le32(dataSize) + [UInt8](repeating: 0, count: dataSize)
        return Data(b)
    }

    /// MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, stereo: 417-byte frames of 1,152 samples, after an ID3v2 tag.
    static func mp3(frames: Int, id3: Bool = true, xingFrames: Int? = nil) -> Data {
        var b: [UInt8] = id3 ? Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 20) : []
        for index in 0..<frames {
            var frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 413)
            if index == 0, let xingFrames {
                frame.replaceSubrange(36..<48, with: Array("Xing".utf8) + [0, 0, 0, 1] + be32(xingFrames))
            }
            b += frame
        }
        return Data(b)
    }

    static func oggPage(granule: UInt64, packet: [UInt8]) -> [UInt8] {
        Array("OggS".utf8) + [0, 2] + (0..<8).map { UInt8((granule >> (8 * UInt64($0))) & 0xFF) }
            + [UInt8](repeating: 0, count: 12) + [1, UInt8(packet.count)] + packet
    }

    /// Opus: rate 48 kHz, a pre-skip of 312 samples, ending at granule 48,000 × seconds + 312.
    static func opus(seconds: Int) -> Data {
        let head = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01] + le32(44_100) + [0, 0, 0]
        return Data(oggPage(granule: 0, packet: head) + oggPage(granule: 0, packet: Array("OpusTags".utf8))
            + [UInt8](repeating: 7, count: 500) + oggPage(granule: UInt64(48_000 * seconds + 312), packet: [1, 2, 3]))
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }

    /// An M4A: ftyp, then moov with mvhd (timescale 44,100), then the media.
    static func m4a(seconds: Int, version1: Bool = false) -> Data {
        let mvhd = version1 ? [1, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + be32(44_100) + be32(0) + be32(44_100 * seconds)
                            : [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + be32(44_100) + be32(44_100 * seconds)
        return Data(box("ftyp", Array("M4A ".utf8) + be32(0) + Array("isomM4A ".utf8)) + box("moov", box("mvhd", mvhd + [UInt8](repeating: 0, count: 80)))
            + box("mdat", [UInt8](repeating: 0, count: 1_000)))
    }

    @Test func eachFormatIsToldByItsBytesAndMeasuredByItsHeaders() throws {
        #expect(try AudioClip.inspect(Self.wav(seconds: 2.5)) == AudioClip(type: .wav, seconds: 2.5))
        let constant = try AudioClip.inspect(Self.mp3(frames: 100))
        #expect(constant.type == .mp3)
        #expect(abs(constant.seconds - 100 * 1152 / 44_100.0) < 0.05)  // 2.61 s
        #expect(try AudioClip.inspect(Self.mp3(frames: 3, id3: false, xingFrames: 4_000)).seconds == 4_000 * 1152 / 44_100.0)
        #expect(try AudioClip.inspect(Self.opus(seconds: 30)) == AudioClip(type: .ogg, seconds: 30))
        #expect(try AudioClip.inspect(Self.m4a(seconds: 45)) == AudioClip(type: .m4a, seconds: 45))
        #expect(try AudioClip.inspect(Self.m4a(seconds: 12, version1: true)) == AudioClip(type: .m4a, seconds: 12))
    }

    @Test func filesThatOnlyPretendAreRefusedSayingWhy() {
        #expect(throws: AudioClip.Refusal.notAudio) { try AudioClip.inspect(Data("not a sound at all".utf8)) }
        #expect(throws: AudioClip.Refusal.notAudio) { try AudioClip.inspect(Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0])) }
        #expect(throws: AudioClip.Refusal.damaged(.wav)) { try AudioClip.inspect(Self.wav(seconds: 1).prefix(30)) }
        #expect(throws: AudioClip.Refusal.damaged(.mp3)) { try AudioClip.inspect(Self.mp3(frames: 1).prefix(35)) }
        #expect(throws: AudioClip.Refusal.damaged(.ogg)) { try AudioClip.inspect(Self.opus(seconds: 1).prefix(40)) }
        #expect(throws: AudioClip.Refusal.damaged(.m4a)) { try AudioClip.inspect(Self.m4a(seconds: 1).prefix(40)) }
        #expect(throws: AudioClip.Refusal.tooLong(seconds: 600)) { try AudioClip.inspect(Self.m4a(seconds: 600)) }
        #expect(throws: AudioClip.Refusal.tooLarge(bytes: AudioClip.maxBytes + 1)) {
            try AudioClip.inspect(Data(count: AudioClip.maxBytes + 1))
        }
        // A box that claims more than the file holds, and one of size 1 with a huge 64-bit size.
        var lying = Array(Self.m4a(seconds: 5))
        lying.replaceSubrange(0..<4, with: Self.be32(Int(Int32.max)))
        #expect(throws: AudioClip.Refusal.self) { try AudioClip.inspect(Data(lying)) }
        var huge = Array(Self.m4a(seconds: 5))
        huge.replaceSubrange(0..<4, with: Self.be32(1))
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
        let samples = [Self.wav(seconds: 0.1), Self.mp3(frames: 5), Self.opus(seconds: 2), Self.m4a(seconds: 3)]
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
