import Foundation
import HTTPTypes
import Hummingbird
import QuizCore
import QuizUseCases

/// Questions' sound clips at `/sounds/<sha256>.<ext>`, with range requests so a browser's player
/// can seek and read a long clip in parts. Streamed from disk: a clip is never held whole.
enum SoundRoute {
    static func register(on router: Router<AppRequestContext>, files: ImageFiles) {
        let fileIO = FileIO()
        // Not a page: no visit to work out. Public like the pictures: the name is the hash of the bytes.
        router.get("/sounds/:file") { request, context -> Response in
            guard let sound = files.sound(named: try context.parameters.require("file")) else { throw HTTPError(.notFound) }
            var headers = HTTPFields()
            headers[.contentType] = sound.type.mimeType
            headers[.cacheControl] = "public, max-age=31536000, immutable"
            headers[.xContentTypeOptions] = "nosniff"
            headers[.acceptRanges] = "bytes"
            switch ByteRange.parse(request.headers[.range], size: sound.size) {
            case .whole:
                headers[.contentLength] = String(sound.size)
                let body = sound.size == 0 ? ResponseBody() : try await fileIO.loadFile(path: sound.path, range: 0...(sound.size - 1), context: context)
                return Response(status: .ok, headers: headers, body: body)
            case .part(let range):
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(sound.size)"
                headers[.contentLength] = String(range.count)
                return Response(status: .partialContent, headers: headers,
                                body: try await fileIO.loadFile(path: sound.path, range: range, context: context))
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(sound.size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
        }
    }
}

/// A `Range` header as RFC 9110 reads it, for one range of bytes. Several ranges, other units or
/// a header that does not parse get the whole file (the server may ignore Range); a range that
/// starts past the end is unsatisfiable.
enum ByteRange: Equatable {
    case whole
    case part(ClosedRange<Int>)
    case unsatisfiable

    static func parse(_ header: String?, size: Int) -> ByteRange {
        guard let header, header.utf8.count <= 200, header.hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces), last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        func number(_ text: String) -> Int? {
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(text)
        }
        if first.isEmpty {
            // The last N bytes.
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)...(size - 1))
        }
        guard let start = number(first) else { return .whole }
        var end = size - 1
        if !last.isEmpty {
            guard let written = number(last), written >= start else { return .whole }
            end = min(written, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .part(start...end)
    }
}
