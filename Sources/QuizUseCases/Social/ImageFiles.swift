import Crypto
import Foundation
import QuizCore
import QuizStore

/// Post images, question pictures and questions' sound clips on disk: `<data directory>/images/<sha256>.<ext>`
/// (one folder, named before clips came, so backups carry both). The same bytes are stored once;
/// a file is written to a temporary name and renamed, so a reader never sees half a file.
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

    /// Checks a clip's bytes (size, type from the first bytes, length) without storing them.
    package static func checkSound(_ data: Data) throws(AudioClip.Refusal) -> (hash: String, clip: AudioClip) {
        let clip = try AudioClip.inspect(data)
        return (SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined(), clip)
    }

    /// Checks a clip's bytes and stores them; returns the hash and what the clip is.
    package func storeSound(_ data: Data) throws -> (hash: String, clip: AudioClip) {
        let (hash, clip) = try Self.checkSound(data)
        let target = directory.appendingPathComponent("\(hash).\(clip.type.rawValue)")
        if FileManager.default.fileExists(atPath: target.path) { return (hash, clip) }
        try PrivateFiles.createFolder(directory)
        try PrivateFiles.write(data, to: target)
        return (hash, clip)
    }

    /// The stored clip named `<sha256>.<ext>`: its path, size and type, for serving in ranges;
    /// nil for any other name or a missing file.
    package func sound(named name: String) -> (path: String, size: Int, type: AudioType)? {
        let parts = name.split(separator: ".")
        guard parts.count == 2, Self.isHash(parts[0]), let type = AudioType(fileExtension: String(parts[1])) else { return nil }
        let path = directory.appendingPathComponent(name).path
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return nil }
        return (path, size, type)
    }

    /// The bytes of a stored clip, for a format that embeds it.
    package func soundData(named name: String) -> Data? {
        guard let found = sound(named: name) else { return nil }
        return try? Data(contentsOf: URL(fileURLWithPath: found.path))
    }

    private static func isHash(_ text: Substring) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Deletes a stored image's file; a file already gone is fine.
    package func remove(_ name: PostImageName) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name.fileName))
    }

    /// The stored image named `<sha256>.<ext>`; nil for any other name or a missing file.
    package func image(named name: String) -> (data: Data, type: PostImageType)? {
        let parts = name.split(separator: ".")
        guard parts.count == 2, Self.isHash(parts[0]),
              let type = PostImageType(fileExtension: String(parts[1])),
              let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else { return nil }
        return (data, type)
    }
}
