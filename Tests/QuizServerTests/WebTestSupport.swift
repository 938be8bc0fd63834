import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// A browser in miniature for page tests: keeps cookies, reads the CSRF token from forms.
final class TestBrowser: @unchecked Sendable {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    /// What the browser says of where a request comes from; nil sends no such header.
    var fetchSite: String? = "same-origin"
    /// Sent as Accept-Encoding when set, as browsers do.
    var acceptEncoding: String?
    /// Sent as Accept-Language when set ("fi-FI,fi;q=0.9").
    var acceptLanguage: String?

    struct Page {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let html: String
        /// The body's size as sent (compressed, when it was).
        var bytes = 0
        var location: String? { headers[.location] }
        var csrf: String? {
            guard let range = html.range(of: #"name="csrf" value="([^"]+)""#, options: .regularExpression) else { return nil }
            return String(html[range]).components(separatedBy: "value=\"")[1].dropLast().description
        }
        func contains(_ text: String) -> Bool { html.contains(text) }
    }

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    /// The same browser, cookies and all, sent to another instance (as a load balancer may).
    func on(_ other: any TestClientProtocol) -> TestBrowser {
        let moved = TestBrowser(other)
        moved.cookies = cookies
        return moved
    }

    @discardableResult
    func get(_ path: String) async throws -> Page {
        try await send(.get, path, body: nil)
    }

    /// Posts a form with the CSRF token from the cookie, as a page of ours would.
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)], csrf: Bool = true) async throws -> Page {
        var all = fields
        if csrf, let token = cookies["quizbox_csrf"] { all.append(("csrf", token)) }
        let body = all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await send(.post, path, body: body)
    }

    /// Follows a redirect once, as browsers do after a form.
    func follow(_ page: Page) async throws -> Page {
        guard let location = page.location else { return page }
        return try await get(location)
    }

    private func send(_ method: HTTPRequest.Method, _ path: String, body: String?) async throws -> Page {
        var headers = HTTPFields()
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        if let fetchSite { headers[HTTPField.Name("Sec-Fetch-Site")!] = fetchSite }
        if let acceptEncoding { headers[.acceptEncoding] = acceptEncoding }
        if let acceptLanguage { headers[.acceptLanguage] = acceptLanguage }
        let page = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) {
            Page(status: $0.status, headers: $0.headers, html: String(buffer: $0.body), bytes: $0.body.readableBytes)
        }
        for field in page.headers where field.name == .setCookie {
            let pair = field.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            if value.isEmpty || field.value.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return page
    }

    func dropCookie(_ name: String) { cookies[name] = nil }
    func setCookie(_ name: String, _ value: String) { cookies[name] = value }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    /// Registers through the page and stays signed in.
    func register(_ username: String, first: String = "Test", last: String = "User", password: String = "correct horse") async throws {
        _ = try await get("/register")
        let page = try await post("/register", [("first_name", first), ("last_name", last), ("username", username),
                                                ("password", password), ("password_confirm", password)])
        #expect(page.status == .seeOther, "\(page.html)")
        #expect(page.location == "/home")
    }
}
