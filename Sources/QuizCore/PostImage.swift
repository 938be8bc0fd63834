import Foundation

/// The picture formats a post may carry, told apart by their first bytes, never by a file name.
public enum PostImageType: String, Sendable, Hashable, CaseIterable {
    case png, jpeg, webp

    /// At most 5 MiB, however the image arrives.
    public static let maxBytes = 5 << 20
    /// At most 40 megapixels (width × height), whatever kind of picture: a few hundred bytes can
    /// claim a picture that takes gigabytes to show in every browser that shows it.
    public static let maxPixels = 40_000_000

    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }

    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    public init?(fileExtension: String) {
        guard let type = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = type
    }

    /// The type the bytes say they are: PNG's eight-byte signature, JPEG's SOI marker followed by
    /// another marker, or a RIFF container of kind WEBP. Anything else is nil.
    public static func sniff<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> PostImageType? {
        let head = Array(bytes.prefix(16))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count >= 4, head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.count >= 16, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8),
           Array(head[12..<15]) == Array("VP8".utf8) { return .webp }
        return nil
    }
}

/// What a post may say: up to 2,000 characters, and not nothing unless it carries an image.
public enum PostText {
    public static let maxCharacters = 2_000

    public struct Invalid: Error, Sendable, Equatable {
        public var message: String
    }

    /// The text as stored: trimmed of surrounding blank space, line breaks made `\n`.
    public static func normalize(_ text: String, hasImage: Bool) throws(Invalid) -> String {
        let trimmed = text.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty && !hasImage { throw Invalid(message: "Write something or add an image: an empty post says nothing.") }
        if trimmed.count > maxCharacters {
            throw Invalid(message: "A post holds at most \(maxCharacters) characters; this one has \(trimmed.count).")
        }
        // Characters can hide any number of combining marks: bound the bytes too.
        if trimmed.utf8.count > maxCharacters * 8 { throw Invalid(message: "This post is too long to store.") }
        return trimmed
    }
}
