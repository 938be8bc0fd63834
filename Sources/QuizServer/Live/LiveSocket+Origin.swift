import Foundation
import NIOHTTP1

/// Which upgrades may become live sockets: the socket's path, and the site's own pages only.
extension LiveSocket {
    /// Whether an upgrade may become a live socket: this path, and no other site's page (a page
    /// of another site must not drive a host's game with the host's cookie). A socket without an
    /// Origin is no browser's (a browser always sends one) and has no cookie a page could lend it.
    func accepts(_ head: HTTPRequestHead) -> Bool {
        guard head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == Substring(Self.path) else { return false }
        // Every Origin given must match (a client may send two).
        let origins = head.headers["origin"]
        guard !origins.isEmpty else { return true }
        guard let authority = head.headers.first(name: "host") else { return false }
        return origins.allSatisfy { isSite($0, authority: authority) }
    }

    /// A page's origin (http, https) must have the scheme, host and port of `QUIZBOX_PUBLIC_URL`
    /// when it is set; else the host and port the socket came through, over HTTPS only behind
    /// secure cookies (a port left out is the scheme's own). Clients that are not browsers (the
    /// terminal player, QuizClient, WebSocket libraries) send `ws://…` or `wss://…`, which no
    /// browser page can: they hold no visitor's cookies to borrow, so they are not checked.
    func isSite(_ origin: String, authority: String) -> Bool {
        guard let given = WebOrigin(origin) else { return false }
        if given.scheme == "ws" || given.scheme == "wss" { return true }
        if let publicURL { return WebOrigin(publicURL) == given }
        guard secureCookies ? given.scheme == "https" : ["http", "https"].contains(given.scheme) else { return false }
        let (host, port) = Self.hostAndPort(of: authority)
        return given.host == host && given.port == (port ?? WebOrigin.defaultPort(given.scheme))
    }

    /// "example.org:8080" → ("example.org", 8080); "[::1]" → ("::1", nil).
    static func hostAndPort(of authority: String) -> (host: String, port: Int?) {
        let text = authority.lowercased()
        if text.hasPrefix("[") {
            let host = String(text.dropFirst().prefix { $0 != "]" })
            let rest = text.dropFirst(host.count + 2)
            return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
        }
        guard let colon = text.lastIndex(of: ":") else { return (text, nil) }
        return (String(text[..<colon]), Int(text[text.index(after: colon)...]))
    }
}

/// The scheme, host and port of a page's origin, a port left out being the scheme's own.
struct WebOrigin: Equatable {
    var scheme: String
    var host: String
    var port: Int?

    init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? Self.defaultPort(scheme)
    }

    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
