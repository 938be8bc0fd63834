import Foundation

/// Reads a `multipart/form-data` body (RFC 7578) into text fields and uploaded files. Bounded:
/// the body is already limited by `BodyLimitMiddleware`; here the number of parts and the size
/// of each part's headers are too, so a hostile body costs at most one pass over its bytes.
struct MultipartForm {
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    struct Part {
        var name: String
        /// Present (possibly empty) when the part is a file input.
        var fileName: String?
        var body: ArraySlice<UInt8>
    }

    /// The question form alone sends about 55 (every kind's fields, ten choice rows of three).
    static let maxParts = 100
    static let maxHeaderBytes = 8 * 1024

    private(set) var parts: [Part] = []

    /// The boundary named in a `multipart/form-data` Content-Type, or nil for any other type.
    static func boundary(inContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            // RFC 2046: 1 to 70 characters.
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    init(_ body: [UInt8], boundary: String) throws(Invalid) {
        let delimiter = Array("--\(boundary)".utf8)
        let next = Array("\r\n--\(boundary)".utf8)
        guard var index = Self.find(delimiter, in: body[...], from: 0) else { throw Invalid(description: "no part boundary found") }
        index += delimiter.count
        while true {
            // After a boundary: "--" ends the body, CRLF starts a part.
            if body[index...].starts(with: [0x2D, 0x2D]) { return }
            guard body[index...].starts(with: [0x0D, 0x0A]) else { throw Invalid(description: "a boundary is not followed by a line break") }
            index += 2
            guard parts.count < Self.maxParts else { throw Invalid(description: "more than \(Self.maxParts) parts") }
            let headerLimit = min(body.count, index + Self.maxHeaderBytes)
            guard let headerEnd = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: body[..<headerLimit], from: index) else {
                throw Invalid(description: "a part's headers are missing or too long")
            }
            let headers = String(decoding: body[index..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let contentEnd = Self.find(next, in: body[...], from: contentStart) else {
                throw Invalid(description: "the body ends inside a part")
            }
            guard let disposition = Self.disposition(in: headers), let name = disposition["name"] else {
                throw Invalid(description: "a part has no form-data name")
            }
            parts.append(Part(name: name, fileName: disposition["filename"], body: body[contentStart..<contentEnd]))
            index = contentEnd + next.count
        }
    }

    /// The parameters of the part's Content-Disposition header, when it is `form-data`.
    private static func disposition(in headers: String) -> [String: String]? {
        for line in headers.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":"),
                  line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            var parameters: [String: String] = [:]
            var rest = Substring(line[line.index(after: colon)...])
            var kind = ""
            var first = true
            while !rest.isEmpty {
                rest = rest.drop { $0 == " " || $0 == "\t" }
                let key = rest.prefix { $0 != "=" && $0 != ";" }
                rest = rest.dropFirst(key.count)
                var value = ""
                if rest.first == "=" {
                    rest = rest.dropFirst()
                    if rest.first == "\"" {
                        // Browsers send a quote inside a name as %22 and never escape with "\".
                        rest = rest.dropFirst()
                        value = String(rest.prefix { $0 != "\"" })
                        rest = rest.dropFirst(value.count + 1)
                    } else {
                        value = String(rest.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces)
                        rest = rest.dropFirst(value.count)
                    }
                }
                rest = rest.drop { $0 != ";" }.dropFirst()
                if first { kind = key.trimmingCharacters(in: .whitespaces).lowercased() } else {
                    parameters[key.trimmingCharacters(in: .whitespaces).lowercased()] = value
                }
                first = false
            }
            return kind == "form-data" ? parameters : nil
        }
        return nil
    }

    /// First index of `needle` in `haystack` at or after `start`.
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first, start >= haystack.startIndex else { return nil }
        return haystack.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = start - haystack.startIndex
            while offset + needle.count <= buffer.count {
                guard let hit = memchr(base + offset, Int32(first), buffer.count - offset) else { return nil }
                let found = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if found + needle.count > buffer.count { return nil }
                if memcmp(base + found, needle, needle.count) == 0 { return haystack.startIndex + found }
                offset = found + 1
            }
            return nil
        }
    }
}
