import Foundation

/// A question's one picture, stored like a post's image: by the hash of its bytes, so its address
/// (`/images/<sha256>.<ext>`) says nothing about the question or its answer. Width and height come
/// from the image's own header, so pages reserve its space before it loads.
public struct QuestionPicture: Sendable, Hashable {
    /// Alt text is required: a player who cannot see the picture still gets the question.
    public static let maxAltLength = 500
    /// Larger sides than any camera gives are refused: a tiny file can claim huge dimensions.
    public static let maxSide = 20_000

    public var hash: String
    public var type: PostImageType
    public var alt: String
    public var width: Int
    public var height: Int

    public init(hash: String, type: PostImageType, alt: String, width: Int, height: Int) {
        self.hash = hash
        self.type = type
        self.alt = alt
        self.width = width
        self.height = height
    }

    public var fileName: String { "\(hash).\(type.fileExtension)" }
    /// Where the server serves it: the same route as post images.
    public var url: String { "/images/\(fileName)" }
}
