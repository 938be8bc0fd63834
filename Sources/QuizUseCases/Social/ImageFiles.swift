import Crypto
import Foundation
import QuizCore
import QuizStore

/// Post images on disk: `<data directory>/images/<sha256>.<ext>`. The same bytes are stored once;
/// a file is written to a temporary name and renamed, so a reader never sees half an image.
package struct ImageFiles: Sendable {
    package enum Refusal: Error, Equatable {
        case tooLarge
        case notAnImage
        /// More than `PostImageType.maxPixels`.
        case tooManyPixels(width: Int, height: Int)
    }

    package let directory: URL

    package init(dataDirectory: String) {
        directory = URL(fileURLWithPath: dataDirectory, isDirectory: true).appendingPathComponent("images", isDirectory: true)
    }

    /// Checks the bytes (size, type from the first bytes, pixels) without storing them; returns the
    /// hash and type they would be stored under.
    package static func check(_ data: Data) throws(Refusal) -> (hash: String, type: PostImageType) {
        guard data.count <= PostImageType.maxBytes else { throw Refusal.tooLarge }
        guard let type = PostImageType.sniff(data) else { throw Refusal.notAnImage }
        // A size that cannot be read could be any size.
        guard let size = PostImageType.dimensions(of: data) else { throw Refusal.notAnImage }
        guard PostImageType.isWithinPixelLimit(size) else { throw Refusal.tooManyPixels(width: size.width, height: size.height) }
        return (SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined(), type)
    }

    /// Checks the bytes (size, then type from the first bytes) and stores them; returns the hash and type.
    package func store(_ data: Data) throws -> (hash: String, type: PostImageType) {
        let (hash, type) = try Self.check(data)
        let target = directory.appendingPathComponent("\(hash).\(type.fileExtension)")
        if FileManager.default.fileExists(atPath: target.path) { return (hash, type) }
        // The owner's alone, as the database: pictures of unpublished questions name their answers.
        try PrivateFiles.createFolder(directory)
        try PrivateFiles.write(data, to: target)
        return (hash, type)
    }

    /// Deletes a stored image's file; a file already gone is fine.
    package func remove(_ name: PostImageName) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name.fileName))
    }

    /// The stored image named `<sha256>.<ext>`; nil for any other name or a missing file.
    package func image(named name: String) -> (data: Data, type: PostImageType)? {
        let parts = name.split(separator: ".")
        guard parts.count == 2, parts[0].utf8.count == 64,
              parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              let type = PostImageType(fileExtension: String(parts[1])),
              let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else { return nil }
        return (data, type)
    }
}
