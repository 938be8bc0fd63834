import Foundation

/// The sound formats a question's clip may be in, told from the bytes, never from a name.
public enum AudioType: String, Sendable, Codable, CaseIterable, Hashable {
    case mp3, ogg, m4a, wav

    public var mimeType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .ogg: "audio/ogg"
        case .m4a: "audio/mp4"
        case .wav: "audio/wav"
        }
    }
}

/// What a sound file's own headers say: its type and length. Reads headers and frame headers
/// only, never decodes sound.
public struct AudioClip: Sendable, Hashable {
    public static let maxBytes = 8 << 20
    /// A music round's clip, not a whole album.
    public static let maxSeconds = 180.0

    public var type: AudioType
    public var seconds: Double

    public enum Refusal: Error, Equatable, Sendable {
        case notAudio
        case damaged(AudioType)
        case tooLarge(bytes: Int)
        case tooLong(seconds: Double)

        public var message: String {
            switch self {
            case .notAudio: "is not a sound file Quizbox plays: use MP3, Ogg (Vorbis or Opus), M4A (AAC) or WAV"
            case .damaged(let type): "looks like \(type.rawValue.uppercased()) but its headers are cut short or damaged"
            case .tooLarge: "is larger than \(AudioClip.maxBytes >> 20) MiB"
            case .tooLong(let seconds): "lasts \(Int(seconds.rounded())) s; a clip lasts at most \(Int(AudioClip.maxSeconds)) s"
            }
        }
    }

    /// The clip's type and length, or why it cannot be a question's clip.
    public static func inspect(_ data: Data) throws(Refusal) -> AudioClip {
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count) }
        let bytes = [UInt8](data)
        guard let type = sniff(bytes) else { throw .notAudio }
        let seconds: Double? = switch type {
        case .wav: wavSeconds(bytes)
        case .mp3: mp3Seconds(bytes)
        case .ogg: oggSeconds(bytes)
        case .m4a: mp4Seconds(bytes)
        }
        guard let seconds, seconds.isFinite, seconds > 0 else { throw .damaged(type) }
        guard seconds <= maxSeconds else { throw .tooLong(seconds: seconds) }
        return AudioClip(type: type, seconds: seconds)
    }

    public static func sniff(_ b: [UInt8]) -> AudioType? {
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WAVE".utf8) { return .wav }
        if b.starts(with: Array("OggS".utf8)) { return .ogg }
        if b.count >= 12, Array(b[4..<8]) == Array("ftyp".utf8) { return .m4a }
        if b.starts(with: Array("ID3".utf8)) { return .mp3 }
        if b.count >= 4, let header = MP3Frame(b, at: 0), header.length > 4 { return .mp3 }
        return nil
    }

    // MARK: Reading integers

    static func be32(_ b: [UInt8], _ i: Int) -> Int? {
        guard i >= 0, i + 4 <= b.count else { return nil }
        return Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    static func be64(_ b: [UInt8], _ i: Int) -> Int? {
        guard let high = be32(b, i), let low = be32(b, i + 4), high < 1 << 30 else { return nil }
        return high << 32 | low
    }

    static func le32(_ b: [UInt8], _ i: Int) -> Int? {
        guard i >= 0, i + 4 <= b.count else { return nil }
        return Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
    }

    static func le64(_ b: [UInt8], _ i: Int) -> UInt64? {
        guard i >= 0, i + 8 <= b.count else { return nil }
        return (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[i + $1]) << (8 * UInt64($1)) }
    }

    // MARK: WAV

    /// The "fmt " chunk's byte rate and the "data" chunk's size.
    static func wavSeconds(_ b: [UInt8]) -> Double? {
        var i = 12
        var byteRate: Int?
        while i + 8 <= b.count {
            guard let size = le32(b, i + 4) else { return nil }
            let id = String(decoding: b[i..<i + 4], as: UTF8.self)
            if id == "fmt " { byteRate = le32(b, i + 16) }
            if id == "data" {
                guard let byteRate, byteRate > 0 else { return nil }
                // A stream still being written says 0 or too much: count what is there.
                let present = min(size, b.count - i - 8)
                return Double(present) / Double(byteRate)
            }
            i += 8 + size + (size & 1)
        }
        return nil
    }

    // MARK: MP3

    struct MP3Frame {
        var length: Int
        var samples: Int
        var sampleRate: Int
        var bitrate: Int
        var isMPEG1: Bool
        var mono: Bool

        init?(_ b: [UInt8], at i: Int) {
            guard i + 4 <= b.count, b[i] == 0xFF, b[i + 1] & 0xE0 == 0xE0 else { return nil }
            let version = (b[i + 1] >> 3) & 3, layer = (b[i + 1] >> 1) & 3
            let bitrateIndex = Int(b[i + 2] >> 4), rateIndex = Int((b[i + 2] >> 2) & 3), padding = Int((b[i + 2] >> 1) & 1)
            // Layer III only (MP3), no "free" or bad bitrate, a known sample rate.
            guard version != 1, layer == 1, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
            isMPEG1 = version == 3
            let rates = [44_100, 48_000, 32_000]
            sampleRate = rates[rateIndex] >> (version == 3 ? 0 : version == 2 ? 1 : 2)
            let kbps = isMPEG1 ? [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
                               : [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
            bitrate = kbps[bitrateIndex] * 1000
            samples = isMPEG1 ? 1152 : 576
            length = samples / 8 * bitrate / sampleRate + padding
            mono = (b[i + 3] >> 6) == 3
        }
    }

    /// Past an ID3v2 tag, the first frame; a Xing/Info or VBRI header gives the frame count,
    /// otherwise the stream is taken as constant bitrate. Two frames in a row must agree, so a
    /// stray 0xFF in other bytes is not taken for a frame.
    static func mp3Seconds(_ b: [UInt8]) -> Double? {
        var i = 0
        if b.starts(with: Array("ID3".utf8)) {
            guard b.count >= 10 else { return nil }
            let size = (Int(b[6]) & 0x7F) << 21 | (Int(b[7]) & 0x7F) << 14 | (Int(b[8]) & 0x7F) << 7 | (Int(b[9]) & 0x7F)
            i = 10 + size + (b[5] & 0x10 != 0 ? 10 : 0)
        }
        // The first frame within 64 KiB of the tag's end.
        var frame: MP3Frame?
        let limit = min(b.count, i + (64 << 10))
        while i < limit {
            if let found = MP3Frame(b, at: i), found.length > 4, let next = MP3Frame(b, at: i + found.length),
               next.sampleRate == found.sampleRate {
                frame = found
                break
            }
            i += 1
        }
        guard let frame else { return nil }
        let side = frame.isMPEG1 ? (frame.mono ? 17 : 32) : (frame.mono ? 9 : 17)
        let xing = i + 4 + side
        if xing + 12 <= b.count, ["Xing", "Info"].contains(String(decoding: b[xing..<xing + 4], as: UTF8.self)),
           b[xing + 7] & 1 == 1, let frames = be32(b, xing + 8), frames > 0 {
            return Double(frames * frame.samples) / Double(frame.sampleRate)
        }
        let vbri = i + 36
        if vbri + 18 <= b.count, String(decoding: b[vbri..<vbri + 4], as: UTF8.self) == "VBRI", let frames = be32(b, vbri + 14), frames > 0 {
            return Double(frames * frame.samples) / Double(frame.sampleRate)
        }
        return Double(b.count - i) * 8 / Double(frame.bitrate)
    }

    // MARK: Ogg

    /// The first page's header packet gives the rate (Opus counts at 48 kHz); the last page's
    /// granule position is the stream's length in samples.
    static func oggSeconds(_ b: [UInt8]) -> Double? {
        guard b.count >= 28 else { return nil }
        let segments = Int(b[26])
        let packet = 27 + segments
        guard packet + 19 <= b.count else { return nil }
        let rate: Double, preSkip: Double
        if String(decoding: b[packet..<packet + 8], as: UTF8.self) == "OpusHead" {
            rate = 48_000
            preSkip = Double(Int(b[packet + 10]) | Int(b[packet + 11]) << 8)
        } else if b[packet] == 1, String(decoding: b[packet + 1..<packet + 7], as: UTF8.self) == "vorbis",
                  let sampleRate = le32(b, packet + 12), sampleRate > 0 {
            rate = Double(sampleRate)
            preSkip = 0
        } else {
            return nil
        }
        // The last page: the last "OggS" whose header fits.
        var i = b.count - 27
        while i > 0 {
            if b[i] == 0x4F, b[i + 1] == 0x67, b[i + 2] == 0x67, b[i + 3] == 0x53, let granule = le64(b, i + 6),
               granule != UInt64.max, granule < 1 << 52 {
                return (Double(granule) - preSkip) / rate
            }
            i -= 1
        }
        return nil
    }

    // MARK: MP4 / M4A

    /// `moov` → `mvhd`: the movie's timescale and duration.
    static func mp4Seconds(_ b: [UInt8]) -> Double? {
        guard let moov = box("moov", in: b, from: 0, to: b.count), let mvhd = box("mvhd", in: b, from: moov.start, to: moov.end) else { return nil }
        let version = mvhd.start < b.count ? b[mvhd.start] : 0
        if version == 1 {
            guard let scale = be32(b, mvhd.start + 20), scale > 0, let duration = be64(b, mvhd.start + 24) else { return nil }
            return Double(duration) / Double(scale)
        }
        guard let scale = be32(b, mvhd.start + 12), scale > 0, let duration = be32(b, mvhd.start + 16) else { return nil }
        return Double(duration) / Double(scale)
    }

    /// The payload range of the first box of `type` among the boxes from `start` to `end`.
    static func box(_ type: String, in b: [UInt8], from start: Int, to end: Int) -> (start: Int, end: Int)? {
        var i = start
        while i + 8 <= end {
            guard var size = be32(b, i) else { return nil }
            var header = 8
            if size == 1 {
                guard let large = be64(b, i + 8) else { return nil }
                size = large
                header = 16
            } else if size == 0 {
                size = end - i
            }
            guard size >= header, i + size <= end || String(decoding: b[i + 4..<i + 8], as: UTF8.self) == "mdat" else { return nil }
            if String(decoding: b[i + 4..<i + 8], as: UTF8.self) == type { return (i + header, min(i + size, end)) }
            i += size
        }
        return nil
    }
}
