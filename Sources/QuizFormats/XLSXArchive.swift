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
        try Self.checkBounds(data)
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

    /// Every place ZIPFoundation will read, checked to lie inside the bytes first: its in-memory
    /// archive does not check a seek past the end, and then crashes the process on the read
    /// (found by the fuzzer with three bytes of a directory overwritten). So the directory is
    /// walked here as ZIPFoundation walks it: the end record it finds (the last one), each entry of
    /// the central directory, each local header and the data and descriptor after it. ZIP64,
    /// which no workbook of 20 MiB needs, is refused rather than followed.
    static func checkBounds(_ data: Data) throws(ImportError) {
        let bytes = [UInt8](data)
        let count = bytes.count
        let damaged = ImportError.file("the file is not a readable .xlsx workbook (its ZIP structure is damaged): save it again as an Excel workbook (.xlsx)")
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end of central directory record, searched from the end as ZIPFoundation does.
        guard count >= 22 else { throw damaged }
        var end = count - 22
        while end >= 0, u32(end) != 0x0605_4B50 { end -= 1 }
        guard end >= 0 else { throw damaged }
        if end >= 20, u32(end - 20) == 0x0706_4B50 {
            throw .file("the workbook is a ZIP64 archive, which no spreadsheet of this size needs: save it again as an Excel workbook (.xlsx)")
        }
        let entries = u16(end + 10), directorySize = u32(end + 12), directoryStart = u32(end + 16)
        guard entries <= maxEntries else {
            throw .file("the workbook holds more than \(maxEntries) parts, which no spreadsheet needs: it is not imported")
        }
        guard directoryStart + directorySize <= end else { throw damaged }
        var at = directoryStart
        for _ in 0..<entries {
            guard at + 46 <= count, u32(at) == 0x0201_4B50 else { throw damaged }
            let flags = u16(at + 8), method = u16(at + 10)
            let packed = u32(at + 20), unpacked = u32(at + 24), local = u32(at + 42)
            guard packed != 0xFFFF_FFFF, unpacked != 0xFFFF_FFFF, local != 0xFFFF_FFFF else {
                throw .file("the workbook is a ZIP64 archive, which no spreadsheet of this size needs: save it again as an Excel workbook (.xlsx)")
            }
            let next = at + 46 + u16(at + 28) + u16(at + 30) + u16(at + 32)
            guard next <= count, local + 30 <= count, u32(local) == 0x0403_4B50 else { throw damaged }
            let dataStart = local + 30 + u16(local + 26) + u16(local + 28)
            let size = method == 0 ? unpacked : packed
            let localSize = method == 0 ? u32(local + 22) : u32(local + 18)
            guard dataStart + max(size, localSize) <= count, flags & 8 == 0 || dataStart + size + 24 <= count else { throw damaged }
            at = next
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
