import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// Renders the app's pages from the Mustache templates shipped with the server.
/// `{{value}}` escapes HTML, so user content never becomes markup.
struct PageRenderer: Sendable {
    struct MissingTemplates: Error, CustomStringConvertible {
        var description: String { "the page templates are missing from this build" }
    }

    let library: MustacheLibrary

    static func load() async throws -> PageRenderer {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("templates").path else { throw MissingTemplates() }
        return PageRenderer(library: try await MustacheLibrary(directory: folder))
    }

    static let stylesheet: Data? = Bundle.module.url(forResource: "static/app", withExtension: "css")
        .flatMap { try? Data(contentsOf: $0) }

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    func render(_ template: String, _ context: [String: Any], status: HTTPResponse.Status = .ok, cookies: [String] = []) -> Response {
        let html = library.render(context, withTemplate: template) ?? "<!doctype html><title>Quizbox</title><p>Page missing.</p>"
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func redirect(to location: String, cookies: [String] = []) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }
}
