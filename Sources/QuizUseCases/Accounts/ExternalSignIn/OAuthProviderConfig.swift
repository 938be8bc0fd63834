import Foundation

/// One external sign-in provider as configured: an OpenID Connect issuer (endpoints found by
/// discovery) or a plain OAuth 2.0 provider with its endpoints given (GitHub, Instagram).
public struct OAuthProviderConfig: Sendable, Hashable {
    /// Lowercase letters and digits; names the routes (`/auth/{name}/…`) and the settings.
    public var name: String
    /// Shown on the "Sign in with …" button.
    public var displayName: String
    public var clientId = ""
    public var clientSecret = ""
    /// OpenID Connect: `{issuer}/.well-known/openid-configuration` gives the endpoints, and ID tokens
    /// are verified against the issuer's keys.
    public var issuer: String?
    public var authorizeURL: String?
    public var tokenURL: String?
    public var userinfoURL: String?
    public var scopes: [String] = []
    /// The claim (ID token or userinfo) that becomes the Quizbox username; an e-mail address
    /// gives its part before the "@".
    public var usernameClaim = "preferred_username"
    /// The claim that identifies the account for good (`sub` in OpenID Connect).
    public var subjectClaim = "sub"

    public init(name: String, displayName: String? = nil) {
        self.name = name
        self.displayName = displayName ?? name.prefix(1).uppercased() + name.dropFirst()
    }

    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// The endpoints and claims of providers people ask for most. Settings given override them.
    public static func preset(_ name: String) -> OAuthProviderConfig? {
        var provider = OAuthProviderConfig(name: name)
        switch name {
        case "github":
            // GitHub Apps and OAuth Apps speak OAuth 2.0 without OpenID Connect: the profile comes from the API.
            provider.displayName = "GitHub"
            provider.authorizeURL = "https://github.com/login/oauth/authorize"
            provider.tokenURL = "https://github.com/login/oauth/access_token"
            provider.userinfoURL = "https://api.github.com/user"
            provider.scopes = ["read:user"]
            provider.usernameClaim = "login"
            provider.subjectClaim = "id"
        case "google":
            provider.displayName = "Google"
            provider.issuer = "https://accounts.google.com"
            provider.scopes = ["openid", "email", "profile"]
            provider.usernameClaim = "email"
            provider.subjectClaim = "sub"
        case "instagram":
            // "Instagram API with Instagram Login": professional (business or creator) accounts only,
            // and the app needs Meta's review before anyone but its testers can sign in.
            provider.displayName = "Instagram"
            provider.authorizeURL = "https://www.instagram.com/oauth/authorize"
            provider.tokenURL = "https://api.instagram.com/oauth/access_token"
            provider.userinfoURL = "https://graph.instagram.com/me?fields=user_id,username"
            provider.scopes = ["instagram_business_basic"]
            provider.usernameClaim = "username"
            provider.subjectClaim = "user_id"
        default:
            return nil
        }
        return provider
    }

    /// Checked when the server starts, so a typo stops it with a message instead of a broken button.
    public func validate() throws(Invalid) {
        let setting = "QUIZBOX_OAUTH_\(name.uppercased())"
        guard !name.isEmpty, name.count <= 32, name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }) else {
            throw Invalid(description: "sign-in provider name '\(name)' must be 1 to 32 lowercase letters and digits")
        }
        if clientId.isEmpty { throw Invalid(description: "sign-in provider \(name): set \(setting)_CLIENT_ID") }
        if clientSecret.isEmpty { throw Invalid(description: "sign-in provider \(name): set \(setting)_CLIENT_SECRET") }
        if issuer == nil && (authorizeURL == nil || tokenURL == nil) {
            throw Invalid(description: "sign-in provider \(name): set \(setting)_ISSUER (OpenID Connect discovery) or both \(setting)_AUTHORIZE_URL and \(setting)_TOKEN_URL")
        }
        if issuer == nil && userinfoURL == nil {
            throw Invalid(description: "sign-in provider \(name): without an issuer, set \(setting)_USERINFO_URL to read who signed in")
        }
        for (label, value) in [("ISSUER", issuer), ("AUTHORIZE_URL", authorizeURL), ("TOKEN_URL", tokenURL), ("USERINFO_URL", userinfoURL)] {
            guard let value else { continue }
            guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw Invalid(description: "sign-in provider \(name): \(setting)_\(label) is not an http(s) address: \(value)")
            }
        }
    }
}
