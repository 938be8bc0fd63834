import Crypto
import Foundation
import QuizCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stored picture's or sound clip's file name, `<sha256 of its bytes>.<ext>`; nil for any other name.
struct PictureName {
    let name: String
    let hash: String
    /// A question's sound clip (they share the pictures' folder).
    let isSound: Bool

    init?(_ name: String) {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64,
              parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              PostImageType(fileExtension: String(parts[1])) != nil || AudioType(fileExtension: String(parts[1])) != nil else { return nil }
        self.name = name
        hash = String(parts[0])
        isSound = AudioType(fileExtension: String(parts[1])) != nil
    }

    /// Whether `data` is the picture this name promises.
    func matches(_ data: Data) -> Bool {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() == hash
    }
}

/// The pictures a backup takes, hard-linked into a folder of its own inside the pictures folder:
/// a link keeps a file's bytes even when the server deletes it meanwhile, costs no copy, and is
/// on the same file system by construction. Where links are refused, the file is copied.
final class PictureStaging {
    let pictures: URL
    let folder: URL
    private(set) var names: [String] = []
    private var linked = Set<String>()

    init(pictures: URL) {
        self.pictures = pictures
        folder = pictures.appendingPathComponent(".backup-\(UUID().uuidString)", isDirectory: true)
    }

    /// Links each picture not linked yet; a folder that does not exist holds none.
    func link() throws {
        guard let found = try? FileManager.default.contentsOfDirectory(atPath: pictures.path) else { return }
        for name in found.sorted() where !linked.contains(name) && PictureName(name) != nil {
            if linked.isEmpty { try PrivateFiles.createFolder(folder) }
            let source = pictures.appendingPathComponent(name).path, target = folder.appendingPathComponent(name).path
            if hardLink(source, target) != 0 {
                // Gone since listed (deleted with its last row: not in the snapshot to come), or no links here.
                guard errno != ENOENT else { continue }
                do { try PrivateFiles.copy(source, to: target) } catch where errno == ENOENT { continue }
            }
            linked.insert(name)
            names.append(name)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// link(2), out of reach of `PictureStaging.link()`'s name.
private func hardLink(_ source: String, _ target: String) -> Int32 { link(source, target) }
