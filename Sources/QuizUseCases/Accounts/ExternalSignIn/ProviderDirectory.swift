import Foundation
import QuizCore

/// A provider's endpoints, from its settings or from OpenID Connect discovery.
package struct ProviderEndpoints: Sendable, Equatable {
    package var authorize: String
    package var token: String
    package var userinfo: String?
    /// Set for OpenID Connect providers: ID tokens are then required and verified.
    package var issuer: String?
    package var jwks: String?
}

/// Discovery documents and signing keys, fetched when first needed and kept for an hour; keys are
/// fetched again at once when a token names one not seen yet (providers rotate keys).
package actor ProviderDirectory {
    package let http: any OAuthTransport
    package let time: any TimeSource
    package static let lifetime: TimeInterval = 3600

    private var endpoints: [String: (value: ProviderEndpoints, fetched: Date)] = [:]
    private var keySets: [String: (value: [JSONWebKey], fetched: Date)] = [:]

    package init(http: any OAuthTransport, time: any TimeSource) {
        self.http = http
        self.time = time
    }

    private struct Discovery: Decodable {
        var issuer: String
        var authorization_endpoint: String
        var token_endpoint: String
        var userinfo_endpoint: String?
        var jwks_uri: String
    }

    package func endpoints(for provider: OAuthProviderConfig) async throws(OAuthTransportFailure) -> ProviderEndpoints {
        guard let issuer = provider.issuer else {
            // validate() made sure both are set when there is no issuer.
            return ProviderEndpoints(authorize: provider.authorizeURL ?? "", token: provider.tokenURL ?? "", userinfo: provider.userinfoURL)
        }
        let now = time.now()
        if let cached = endpoints[provider.name], now.timeIntervalSince(cached.fetched) < Self.lifetime { return cached.value }
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let discovery = try await http.getJSON(Discovery.self, from: base + "/.well-known/openid-configuration", bearer: nil)
        // OpenID Connect Discovery 4.3: the document must name the issuer it was fetched for.
        guard discovery.issuer == issuer || discovery.issuer == base else {
            throw .badResponse("its discovery document names the issuer \(discovery.issuer.prefix(200)), not \(issuer)")
        }
        let found = ProviderEndpoints(
            authorize: provider.authorizeURL ?? discovery.authorization_endpoint, token: provider.tokenURL ?? discovery.token_endpoint,
            userinfo: provider.userinfoURL ?? discovery.userinfo_endpoint, issuer: discovery.issuer, jwks: discovery.jwks_uri)
        endpoints[provider.name] = (found, now)
        return found
    }

    /// The provider's keys; fetched again when `keyId` is not among the cached ones.
    package func keys(for provider: OAuthProviderConfig, url: String, keyId: String?) async throws(OAuthTransportFailure) -> [JSONWebKey] {
        let now = time.now()
        if let cached = keySets[provider.name], now.timeIntervalSince(cached.fetched) < Self.lifetime,
           keyId == nil || cached.value.contains(where: { $0.kid == keyId }) {
            return cached.value
        }
        let set = try await http.getJSON(JSONWebKeySet.self, from: url, bearer: nil)
        keySets[provider.name] = (set.keys, now)
        return set.keys
    }
}
