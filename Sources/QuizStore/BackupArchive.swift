import Foundation

/// A backup with its pictures in one file: a POSIX (ustar) tar, so `tar -xf` opens it too. The
/// database comes first (`quizbox.sqlite` or `quizbox.dump`), then `images/<sha256>.<ext>`.
enum BackupArchive {
    static let block = 512

    struct Writer {
        let handle: FileHandle

        /// Adds the file at `path` under `name`, read a block at a time.
        func add(_ name: String, file path: String) throws {
            guard let input = FileHandle(forReadingAtPath: path) else { throw DatabaseBackup.Failure.cannotWrite("cannot read \(path)") }
            defer { try? input.close() }
            let size = Int(try input.seekToEnd())
            try input.seek(toOffset: 0)
            try handle.write(contentsOf: BackupArchive.header(name: name, size: size, folder: false))
            var left = size
            while left > 0, let chunk = try input.read(upToCount: min(left, 1 << 20)), !chunk.isEmpty {
                try handle.write(contentsOf: chunk)
                left -= chunk.count
            }
            // A file that shrank while read would leave the archive misaligned: refuse it.
            guard left == 0 else { throw DatabaseBackup.Failure.cannotWrite("\(path) changed while it was copied") }
            try pad(size)
        }

        func addFolder(_ name: String) throws {
            try handle.write(contentsOf: BackupArchive.header(name: name, size: 0, folder: true))
        }

        /// Two empty blocks end a tar.
        func finish() throws {
            try handle.write(contentsOf: Data(count: 2 * BackupArchive.block))
        }

        private func pad(_ size: Int) throws {
            let rest = size % BackupArchive.block
            if rest > 0 { try handle.write(contentsOf: Data(count: BackupArchive.block - rest)) }
        }
    }

    /// Whether `head` (the file's first 263 bytes or more) is a tar.
    static func isArchive(_ head: Data) -> Bool {
        head.count >= 262 && head.subdata(in: 257..<262) == Data("ustar".utf8)
    }

    /// Calls `entry` with each regular file's name, size and a handle positioned at its bytes;
    /// `entry` reads exactly `size` bytes or none.
    static func read(_ path: String, _ entry: (_ name: String, _ size: Int, _ input: FileHandle) throws -> Void) throws {
        guard let input = FileHandle(forReadingAtPath: path) else { throw DatabaseBackup.Failure.notABackup(path) }
        defer { try? input.close() }
        while true {
            let start = try input.offset()
            guard let header = try input.read(upToCount: block), header.count == block else { throw damaged(path) }
            if header.allSatisfy({ $0 == 0 }) { return }
            let bytes = [UInt8](header)
            guard let size = number(bytes[124..<136]), checksum(bytes) == number(bytes[148..<156]) else { throw damaged(path) }
            var name = text(bytes[0..<100])
            let prefix = text(bytes[345..<500])
            if !prefix.isEmpty { name = prefix + "/" + name }
            let type = bytes[156]
            if type == UInt8(ascii: "0") || type == 0 { try entry(name, size, input) }
            let next = start + UInt64(block) + UInt64((size + block - 1) / block * block)
            try input.seek(toOffset: next)
        }
    }

    static func damaged(_ path: String) -> DatabaseBackup.Failure { .damagedArchive(path) }

    static func header(name: String, size: Int, folder: Bool) -> Data {
        var bytes = [UInt8](repeating: 0, count: block)
        func put(_ value: [UInt8], at offset: Int) { bytes.replaceSubrange(offset..<offset + value.count, with: value) }
        func octal(_ value: Int, width: Int) -> [UInt8] {
            Array(String(String(value, radix: 8).suffix(width - 1)).leftPadded(to: width - 1).utf8) + [0]
        }
        put(Array(name.utf8.prefix(100)), at: 0)
        put(octal(folder ? 0o700 : 0o600, width: 8), at: 100)
        put(octal(0, width: 8), at: 108)
        put(octal(0, width: 8), at: 116)
        if size < 0o77777777777 {
            put(octal(size, width: 12), at: 124)
        } else {
            // GNU's base-256 size, for a database of 8 GiB or more.
            var field = [UInt8](repeating: 0, count: 12)
            var rest = size
            for index in (1..<12).reversed() { field[index] = UInt8(rest & 0xFF); rest >>= 8 }
            field[0] = 0x80
            put(field, at: 124)
        }
        put(octal(Int(Date().timeIntervalSince1970), width: 12), at: 136)
        bytes[156] = folder ? UInt8(ascii: "5") : UInt8(ascii: "0")
        put(Array("ustar\u{0}00".utf8), at: 257)
        put(Array(repeating: UInt8(ascii: " "), count: 8), at: 148)
        put(octal(checksum(bytes), width: 7) + [UInt8(ascii: " ")], at: 148)
        return Data(bytes)
    }

    /// The sum of the header's bytes with the checksum field read as spaces.
    private static func checksum(_ bytes: [UInt8]) -> Int {
        bytes.enumerated().reduce(0) { sum, item in sum + ((148..<156).contains(item.offset) ? 32 : Int(item.element)) }
    }

    private static func number(_ field: ArraySlice<UInt8>) -> Int? {
        if let first = field.first, first & 0x80 != 0 {
            return field.dropFirst().reduce(Int(first & 0x7F)) { $0 << 8 | Int($1) }
        }
        let digits = String(decoding: field.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return digits.isEmpty ? 0 : Int(digits, radix: 8)
    }

    private static func text(_ field: ArraySlice<UInt8>) -> String {
        String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
