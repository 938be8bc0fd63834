import CompressNIO
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizText

/// The files under /static, read once at start. Text files are also kept gzipped: a phone on a
/// slow network loads a page's stylesheets and scripts at about a quarter of their size. Each has
/// an ETag, so a browser that has one asks again for nothing but a 304.
struct StaticFile: Sendable {
    var type: String
    var data: ByteBuffer
    /// The gzipped bytes, when smaller.
    var gzipped: ByteBuffer?
    var etag: String

    init(type: String, data: Data) {
        self.type = type
        self.data = ByteBuffer(bytes: data)
        etag = "\"" + SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
        if !type.hasPrefix("image/png") {
            var input = self.data
            if let packed = try? input.compress(with: .gzip), packed.readableBytes < data.count { gzipped = packed }
        }
    }

    static let all: [String: StaticFile] = {
        let script = "text/javascript; charset=utf-8"
        let types = ["app.css": "text/css; charset=utf-8", "live.css": "text/css; charset=utf-8",
                     "texts.js": script, "countdown.js": script, "tiles.js": script, "kinds.js": script, "question-editor.js": script, "time.js": script,
                     "name-all.js": script, "feed.js": script, "live-common.js": script, "live-host.js": script,
                     "live-player.js": script, "assignments.js": script, "assignments.css": "text/css; charset=utf-8",
                     "icon.svg": "image/svg+xml", "icon-48.png": "image/png", "icon-180.png": "image/png", "icon-192.png": "image/png",
                     "icon-512.png": "image/png", "manifest.webmanifest": "application/manifest+json"]
        var files: [String: StaticFile] = [:]
        for (name, type) in types {
            let parts = name.split(separator: ".")
            if let url = Bundle.module.url(forResource: "static/\(parts[0])", withExtension: String(parts[1])),
               let data = try? Data(contentsOf: url) { files[name] = StaticFile(type: type, data: data) }
        }
        return files
    }()

    /// The `t('…')` texts each script asks for: a page carries the translations of its own scripts.
    static let scriptKeys: [String: [String]] = {
        var keys: [String: [String]] = [:]
        for (name, file) in all where name.hasSuffix(".js") {
            keys[name] = Texts.scriptKeys(in: String(buffer: file.data))
        }
        return keys
    }()

    /// The texts of the scripts a template loads (`src="/static/name.js"`), sorted.
    static func scriptKeys(forTemplate source: String) -> [String] {
        var keys = Set<String>()
        var rest = Substring(source)
        while let found = rest.range(of: "src=\"/static/") {
            rest = rest[found.upperBound...]
            let name = rest.prefix { $0 != "\"" }
            keys.formUnion(scriptKeys[String(name)] ?? [])
        }
        return keys.sorted()
    }

    /// The response to `request`: gzipped when the browser takes it, 304 when it has this version.
    func response(to request: Request, maxAge: Int) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "public, max-age=\(maxAge)"
        headers[.eTag] = etag
        if gzipped != nil { headers[.vary] = "Accept-Encoding" }
        if let known = request.headers[.ifNoneMatch], known.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
            return Response(status: .notModified, headers: headers)
        }
        if let gzipped, Self.acceptsGzip(request.headers[.acceptEncoding]) {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: gzipped))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: data))
    }

    /// Whether an Accept-Encoding header takes gzip (`gzip`, or `*`, without `q=0`).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first, name == "gzip" || name == "*" else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return q > 0
        }
        return false
    }
}
