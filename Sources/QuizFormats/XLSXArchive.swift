import Foundation
import ZIPFoundation

/// The ZIP archive an `.xlsx` file is, opened in memory, with the limits that keep a hostile file
/// (a ZIP bomb, thousands of entries, a part named outside the archive) from costing more than a
/// clear refusal. Sizes are checked from the central directory before anything is inflated, and
/// the bytes actually inflated are counted as they come, so a directory that lies is caught too.
struct XLSXArchive {
    /// Real workbooks hold a few dozen parts.
    static let maxEntries = 10_000
    /// One XML part (a sheet, the shared strings) inflated: libxml2 reads 10 MB without complaint
    /// and a 100,000-row sheet is well under this.
    static let maxPartBytes = 64 << 20
    /// Everything this reader inflates from one file.
    static let maxTotalBytes = 128 << 20
    /// XML compresses about ten to one; a part that claims far more is a bomb.
    static let maxRatio: UInt64 = 200
    /// Parts under this size are not held to the ratio (an empty part compresses absurdly well).
    static let ratioFloor: UInt64 = 1 << 20

    private let archive: Archive
    private var entries: [String: Entry] = [:]
    private(set) var inflated = 0

    /// Throws the reason the bytes are not a workbook this reader opens.
    init(_ data: Data) throws(ImportError) {
        if XLSXArchive.isEncryptedOffice(data) {
            // An encrypted .xlsx is a compound file holding an "EncryptionInfo" stream; other
            // compound files are the old binary workbooks.
            let name = Data("EncryptionInfo".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
            if data.range(of: name) != nil {
                throw .file("the workbook is protected with a password: open it in Excel or LibreOffice, save it without a password and import it again")
            }
            throw .file("the file is an old Excel workbook (.xls): save it as an Excel workbook (.xlsx) and import it again")
        }
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw .file("the file is not a readable .xlsx workbook (its ZIP structure is damaged): save it again as an Excel workbook (.xlsx)")
        }
        var count = 0
        for entry in archive {
            count += 1
            guard count <= Self.maxEntries else {
                throw .file("the workbook holds more than \(Self.maxEntries) parts, which no spreadsheet needs: it is not imported")
            }
            if entries[entry.path] == nil { entries[entry.path] = entry }
        }
        guard entries["xl/workbook.xml"] != nil else {
            throw .file("the ZIP file holds no xl/workbook.xml, so it is not an Excel workbook (.xlsx)")
        }
    }

    /// An encrypted Office document (a workbook saved with a password) is an OLE compound file.
    static func isEncryptedOffice(_ data: Data) -> Bool {
        data.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
    }

    func contains(_ path: String) -> Bool { entries[path] != nil }

    /// The inflated bytes of the part at `path` (a path inside the archive, no leading "/"); nil
    /// when the archive has no such part.
    mutating func part(_ path: String) throws(ImportError) -> Data? {
        guard let entry = entries[path] else { return nil }
        let declared = entry.uncompressedSize
        guard declared <= UInt64(Self.maxPartBytes) else {
            throw .file("the workbook's part \(path) would take \(declared >> 20) MiB unpacked, over the limit of \(Self.maxPartBytes >> 20) MiB: it is not imported")
        }
        if declared >= Self.ratioFloor && declared / max(entry.compressedSize, 1) > Self.maxRatio {
            throw .file("the workbook's part \(path) unpacks to over \(Self.maxRatio) times its packed size, as a ZIP bomb does: it is not imported")
        }
        guard inflated + Int(declared) <= Self.maxTotalBytes else {
            throw .file("the workbook unpacks to more than \(Self.maxTotalBytes >> 20) MiB: it is not imported")
        }
        var bytes = Data()
        bytes.reserveCapacity(Int(declared))
        // No more than the directory says: a part that inflates past its declared size is refused
        // at the first byte over, whatever the limits would still allow.
        let budget = Int(declared)
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard bytes.count + chunk.count <= budget else { throw Overflow() }
                bytes.append(chunk)
            }
        } catch is Overflow {
            throw .file("the workbook's part \(path) unpacks to more than its directory says, as a ZIP bomb does: it is not imported")
        } catch {
            throw .file("the workbook's part \(path) cannot be unpacked (the file is damaged, or encrypted): save it again as an Excel workbook (.xlsx)")
        }
        inflated += bytes.count
        return bytes
    }

    private struct Overflow: Error {}

    /// A relationship's target resolved against the folder of the part that names it, as a path
    /// inside the archive; nil when it climbs out of the archive (`../../etc/passwd`) or is an address.
    static func resolve(_ target: String, from folder: String) -> String? {
        guard !target.contains("://"), !target.hasPrefix("\\") else { return nil }
        var parts: [Substring] = target.hasPrefix("/") ? [] : folder.split(separator: "/")
        for component in target.split(separator: "/") {
            switch component {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(component)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}

extension ImportError {
    /// A problem with the file as a whole: no question can be skipped past it.
    static func file(_ message: String) -> ImportError {
        ImportError(problems: [FormatProblem(message: message)])
    }
}
