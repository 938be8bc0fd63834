import Foundation
import HTTPTypes
import Hummingbird

/// Where a browser says a request came from. Browsers send `Sec-Fetch-Site` on every request
/// (Chromium, Firefox, Safari since 2023) and `Origin` on every POST; a request carrying neither
/// is not from a browser page and proves nothing either way.
enum RequestOrigin {
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// True only when the browser says one of our own pages sent it.
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers[secFetchSite] { return site.lowercased() == "same-origin" }
        guard let origin = request.headers[.origin], let host = request.head.authority else { return false }
        guard let separator = origin.range(of: "://") else { return false }
        return origin[separator.upperBound...].lowercased() == host.lowercased()
    }

    /// The path (and query) of the page that sent this request, when the browser says it was one
    /// of ours: where someone whose session ended while a form was open comes back to.
    static func sameOriginPath(ofReferer request: Request) -> String? {
        guard let referer = request.headers[.referer], let host = request.head.authority,
              let separator = referer.range(of: "://") else { return nil }
        let rest = referer[separator.upperBound...]
        guard rest.lowercased().hasPrefix(host.lowercased()) else { return nil }
        let path = rest.dropFirst(host.count)
        guard path.hasPrefix("/") else { return nil }
        return String(path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
