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
    /// The bytes, only while a file format carries the picture (an import before it is stored, an
    /// export that embeds it); nil for a stored picture, which its hash names.
    public var data: Data?
    /// Where a file named the picture (a CSV's `image` column), before it is downloaded: such a
    /// picture has no bytes, hash or size yet, and is never stored as it is.
    public var address: String?

    public init(hash: String, type: PostImageType, alt: String, width: Int, height: Int, data: Data? = nil, address: String? = nil) {
        self.address = address
        self.hash = hash
        self.type = type
        self.alt = alt
        self.width = width
        self.height = height
        self.data = data
    }

    /// A picture a file names by address, to download before the import stores it.
    public static func named(address: String, alt: String) -> QuestionPicture {
        QuestionPicture(hash: "", type: .png, alt: alt, width: 0, height: 0, address: address)
    }

    /// Alt text for a picture a file carried without any (Moodle's editor often writes `alt=""`):
    /// never the file's name, which may name the answer.
    public static let fallbackAlt = "Picture for this question"

    /// A picture as uploaded or carried by a file, before it is stored: its type and size read from
    /// the bytes (its hash is the store's to give), or why the bytes cannot be one.
    public static func carried(_ data: Data, alt: String) -> Result<QuestionPicture, Refusal> {
        guard data.count <= PostImageType.maxBytes else { return .failure(.tooLarge) }
        guard let type = PostImageType.sniff(data) else { return .failure(.notAnImage) }
        guard let size = PostImageType.dimensions(of: data), max(size.width, size.height) <= maxSide else {
            return .failure(.unreadableSize)
        }
        guard PostImageType.isWithinPixelLimit(size) else { return .failure(.tooManyPixels(width: size.width, height: size.height)) }
        return .success(QuestionPicture(hash: "", type: type, alt: alt.trimmingCharacters(in: .whitespacesAndNewlines),
                                        width: size.width, height: size.height, data: data))
    }

    public enum Refusal: Error, Sendable, Equatable {
        case tooLarge, notAnImage, unreadableSize
        /// More than `PostImageType.maxPixels`, though each side may be within `maxSide`.
        case tooManyPixels(width: Int, height: Int)

        public var message: String {
            switch self {
            case .tooLarge: "is larger than the limit of \(PostImageType.maxBytes >> 20) MiB"
            case .notAnImage: "is not a PNG, JPEG or WebP image (checked from its contents; SVG is not accepted)"
            case .unreadableSize: "has no readable width and height, or a side over \(QuestionPicture.maxSide) pixels"
            case .tooManyPixels(let width, let height):
                "is \(width) × \(height) pixels, over the limit of \(PostImageType.maxPixels / 1_000_000) megapixels"
            }
        }
    }

    public var fileName: String { "\(hash).\(type.fileExtension)" }
    /// Where the server serves it: the same route as post images.
    public var url: String { "/images/\(fileName)" }
}
