import Foundation

/// Sound files' headers as common encoders write them, built byte by byte (silence for the rest):
/// only the headers are read, never the sound.
public enum SoundBytes {
    public static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    public static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// 16-bit stereo PCM at 44.1 kHz: 176,400 bytes a second.
    public static func wav(seconds: Double) -> Data {
        let dataSize = Int(seconds * 176_400)
        var b = Array("RIFF".utf8) + le32(36 + dataSize) + Array("WAVEfmt ".utf8) + le32(16)
        b += [1, 0, 2, 0] + le32(44_100) + le32(176_400) + [4, 0, 16, 0]
        b += Array("data".utf8) + le32(dataSize) + [UInt8](repeating: 0, count: dataSize)
        return Data(b)
    }

    /// MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, stereo: 417-byte frames of 1,152 samples, after an ID3v2 tag.
    public static func mp3(frames: Int, id3: Bool = true, xingFrames: Int? = nil) -> Data {
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

    public static func oggPage(granule: UInt64, packet: [UInt8]) -> [UInt8] {
        Array("OggS".utf8) + [0, 2] + (0..<8).map { UInt8((granule >> (8 * UInt64($0))) & 0xFF) }
            + [UInt8](repeating: 0, count: 12) + [1, UInt8(packet.count)] + packet
    }

    /// Opus: rate 48 kHz, a pre-skip of 312 samples, ending at granule 48,000 × seconds + 312.
    public static func opus(seconds: Int) -> Data {
        let head = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01] + le32(44_100) + [0, 0, 0]
        return Data(oggPage(granule: 0, packet: head) + oggPage(granule: 0, packet: Array("OpusTags".utf8))
            + [UInt8](repeating: 7, count: 500) + oggPage(granule: UInt64(48_000 * seconds + 312), packet: [1, 2, 3]))
    }

    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }

    /// An M4A: ftyp, then moov with mvhd (timescale 44,100), then the media.
    public static func m4a(seconds: Int, version1: Bool = false) -> Data {
        let mvhd = version1 ? [1, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + be32(44_100) + be32(0) + be32(44_100 * seconds)
                            : [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + be32(44_100) + be32(44_100 * seconds)
        return Data(box("ftyp", Array("M4A ".utf8) + be32(0) + Array("isomM4A ".utf8)) + box("moov", box("mvhd", mvhd + [UInt8](repeating: 0, count: 80)))
            + box("mdat", [UInt8](repeating: 0, count: 1_000)))
    }
}
