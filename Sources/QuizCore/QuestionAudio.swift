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

    /// The file it is stored as.
    public var fileName: String { "\(hash).\(type.rawValue)" }
}
