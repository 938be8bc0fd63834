import Foundation

/// A question's one sound clip (a music round's "name the song"), stored like its picture: by the
/// hash of its bytes, so its address (`/sounds/<sha256>.<ext>`) says nothing about the question.
/// The description is required: a player who cannot hear the clip still gets the question.
public struct QuestionAudio: Sendable, Hashable {
    public static let maxDescriptionLength = 500

    public var hash: String
    public var type: AudioType
    public var description: String
    public var seconds: Double
    /// The bytes, only while a file format carries the clip (an import before it is stored, an
    /// export that embeds it); nil for a stored clip, which its hash names.
    public var data: Data?

    public init(hash: String, type: AudioType, description: String, seconds: Double, data: Data? = nil) {
        self.hash = hash
        self.type = type
        self.description = description
        self.seconds = seconds
        self.data = data
    }

    /// The description of a clip a file carried without one: never the file's name, which may
    /// name the answer.
    public static let fallbackDescription = "Sound clip for this question"

    /// The file it is stored as.
    public var fileName: String { "\(hash).\(type.rawValue)" }
    /// Where the server serves it, with range requests.
    public var url: String { "/sounds/\(fileName)" }

    /// A clip as uploaded or carried by a file, before it is stored: its type and length read from
    /// the bytes (its hash is the store's to give), or why the bytes cannot be one.
    public static func carried(_ data: Data, description: String) -> Result<QuestionAudio, AudioClip.Refusal> {
        do {
            let clip = try AudioClip.inspect(data)
            return .success(QuestionAudio(hash: "", type: clip.type, description: description.trimmingCharacters(in: .whitespacesAndNewlines),
                                          seconds: clip.seconds, data: data))
        } catch {
            return .failure(error)
        }
    }

    /// The clip's length as a player reads it: "0:42", "2:05".
    public var duration: String {
        let whole = max(1, Int(seconds.rounded()))
        return "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
    }
}

extension AudioType {
    public init?(fileExtension: String) {
        self.init(rawValue: fileExtension)
    }
}
