import Foundation

/// Refuses, before `XMLParser` sees them, the constructs that crash swift-corelibs-foundation's
/// `XMLParser` on Linux: it hands libxml2's NULL pointers to Swift parameters declared non-null,
/// so a processing instruction without data (`<?x?>`), a `<!NOTATION>`, an unparsed entity or an
/// `<!ATTLIST … #IMPLIED>` kills the process, even with a delegate that ignores them. Moodle XML
/// has no use for a DOCTYPE, so any `<!DOCTYPE` is refused (which also rules out entity tricks),
/// and so is a processing instruction whose data is blank, wherever they are: even inside a
/// comment or CDATA section, since after an error libxml2 recovers and keeps going, and may then
/// read them as markup.
///
/// The scan is byte-level, so it must see the bytes as libxml2 will: text in an encoding that is
/// not ASCII-compatible (UTF-16/32 with or without BOM, EBCDIC, or declared so) is refused too,
/// and so is a declared encoding libxml2 would convert with iconv (see `isASCIICompatible`).
/// It uses `memchr`, so even a 20 MB file costs milliseconds in a debug build.
enum MoodleXMLPreflight {
    static func problem(
        in data: Data, doctype: String = "a <!DOCTYPE> declaration, which Moodle XML files do not have: remove it"
    ) -> FormatProblem? {
        data.withUnsafeBytes { raw in
            Scanner(bytes: raw.bindMemory(to: UInt8.self), doctype: doctype).problem()
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let doctype: String

        func problem() -> FormatProblem? {
            if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
                return located(0, "the file is UTF-16: save it as UTF-8")
            }
            if bytes.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) {
                return located(0, "the file is EBCDIC: save it as UTF-8")
            }
            if let nul = index(of: 0, from: 0) {
                return located(nul, "a NUL byte, which XML does not allow (is the file UTF-16? save it as UTF-8)")
            }
            if let encoding = declaredEncoding(), !isASCIICompatible(encoding) {
                return located(0, "the file declares the encoding \"\(encoding)\": save it as UTF-8")
            }
            // Comments and CDATA sections are not skipped: after its first error libxml2 recovers
            // and keeps calling back, so it may read as markup what a well-formed reading calls text.
            var from = 0
            while let open = index(of: UInt8(ascii: "<"), from: from) {
                from = open + 1
                let next = from < bytes.count ? bytes[from] : 0
                if next == UInt8(ascii: "!") && matches("<!DOCTYPE", at: open) {
                    return located(open, doctype)
                }
                guard next == UInt8(ascii: "?") else { continue }
                // libxml2 passes NULL data only for "<?target?>"; blank data is refused too, to be safe.
                var after = open + 2
                while after < bytes.count, !isXMLSpace(bytes[after]), bytes[after] != UInt8(ascii: "?"),
                      bytes[after] != UInt8(ascii: "<") {
                    after += 1
                }
                let target = String(decoding: bytes[(open + 2)..<after], as: UTF8.self)
                while after < bytes.count, isXMLSpace(bytes[after]) { after += 1 }
                if matches("?>", at: after) {
                    return located(open, "a processing instruction <?\(target)?> with no content: remove it")
                }
            }
            return nil
        }

        /// The `encoding` of an XML declaration at the start (after a UTF-8 byte order mark), if
        /// any; "?" when it is there but cannot be read. A declaration never closed by "?>" counts
        /// too: libxml2 switches encodings as soon as it has read the name.
        private func declaredEncoding() -> String? {
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            guard matches("<?xml", at: start) else { return nil }
            let end = find("?>", from: start + 5) ?? bytes.count
            guard let name = find("encoding", from: start + 5, before: end) else { return nil }
            var position = name + "encoding".utf8.count
            func skipSpace() { while position < end, isXMLSpace(bytes[position]) { position += 1 } }
            skipSpace()
            guard position < end, bytes[position] == UInt8(ascii: "=") else { return "?" }
            position += 1
            skipSpace()
            guard position < end, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'"),
                  let close = bytes[(position + 1)..<end].firstIndex(of: bytes[position])
            else { return "?" }
            return String(decoding: bytes[(position + 1)..<close], as: UTF8.self)
        }

        /// Encodings in which every ASCII character is its ASCII byte and no other byte is one, and
        /// which libxml2 reads whatever the bytes: UTF-8 and ASCII (it decodes those itself) and
        /// Latin-1 (every byte is a character). It hands other encodings to iconv, and a byte they
        /// leave undefined (0x81 in windows-1252, 0xA5 in ISO-8859-3) then crashes it, a NULL
        /// dereference in xmlSwitchToEncoding: so the other ISO-8859 parts and windows-125x are refused.
        private func isASCIICompatible(_ encoding: String) -> Bool {
            ["utf-8", "utf8", "us-ascii", "ascii", "latin1", "latin-1", "iso-8859-1", "iso8859-1", "iso_8859-1"]
                .contains(encoding.lowercased())
        }

        private func isXMLSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        /// The first `byte` at or after `start` and before `end`.
        private func index(of byte: UInt8, from start: Int, before end: Int? = nil) -> Int? {
            let end = min(end ?? bytes.count, bytes.count)
            guard let base = bytes.baseAddress, start < end,
                  let found = memchr(base + start, Int32(byte), end - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }

        private func matches(_ text: String, at position: Int) -> Bool {
            position <= bytes.count && bytes[position...].starts(with: text.utf8)
        }

        private func find(_ needle: String, from start: Int, before end: Int? = nil) -> Int? {
            guard let first = needle.utf8.first else { return nil }
            var position = start
            while let found = index(of: first, from: position, before: end) {
                if matches(needle, at: found), found + needle.utf8.count <= (end ?? bytes.count) { return found }
                position = found + 1
            }
            return nil
        }

        /// The 1-based line and column (in characters) of a byte offset.
        private func located(_ offset: Int, _ message: String) -> FormatProblem {
            var line = 1
            var lineStart = 0
            while let newline = index(of: UInt8(ascii: "\n"), from: lineStart, before: offset) {
                line += 1
                lineStart = newline + 1
            }
            // A UTF-8 continuation byte does not start a character.
            let column = 1 + bytes[lineStart..<offset].count(where: { $0 & 0xC0 != 0x80 })
            return FormatProblem(line: line, column: column, message: message)
        }
    }
}
