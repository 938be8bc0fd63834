import Foundation

/// The few HTTP calls sign-in makes to a provider. QuizServer's `OAuthHTTP` makes them for real,
/// each with a deadline and a size limit; the flow here only says what to ask.
package protocol OAuthTransport: Sendable {
    func getJSON<T: Decodable>(_ type: T.Type, from url: String, bearer: String?) async throws(OAuthTransportFailure) -> T
    /// A form POST, as the token endpoint takes it, answered in JSON.
    func postForm<T: Decodable>(_ type: T.Type, to url: String, fields: [(String, String)]) async throws(OAuthTransportFailure) -> T
}

package enum OAuthTransportFailure: Error, Equatable {
    /// No answer: connection refused, timed out, name not found.
    case unreachable(String)
    /// An answer sign-in cannot use: an HTTP error, too large, not JSON.
    case badResponse(String)
    /// The provider's OAuth error (`invalid_grant`, `access_denied`, …).
    case refused(String)
}

package enum OAuthForm {
    /// `application/x-www-form-urlencoded`, as OAuth's query strings and token requests want it.
    package static func encode(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return fields.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}
