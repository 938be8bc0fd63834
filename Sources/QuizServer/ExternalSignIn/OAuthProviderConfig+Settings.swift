import Configuration
import Foundation
import QuizUseCases

extension OAuthProviderConfig {
    /// Reads `QUIZBOX_OAUTH_PROVIDERS=github,google` and, for each name,
    /// `QUIZBOX_OAUTH_<NAME>_CLIENT_ID`, `_CLIENT_SECRET`, `_ISSUER`, `_AUTHORIZE_URL`, `_TOKEN_URL`,
    /// `_USERINFO_URL`, `_SCOPES` (blank- or comma-separated), `_USERNAME_CLAIM`, `_SUBJECT_CLAIM`,
    /// `_DISPLAY_NAME`, on top of the preset of that name if there is one.
    static func all(from config: ConfigReader) -> [OAuthProviderConfig] {
        let oauth = config.scoped(to: "oauth")
        let names = (oauth.string(forKey: "providers") ?? "")
            .split(whereSeparator: { $0 == "," || $0 == " " }).map { $0.lowercased() }
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }.map { name in
            let settings = oauth.scoped(to: ConfigKey(name))
            var provider = preset(name) ?? OAuthProviderConfig(name: name)
            func text(_ key: String) -> String? {
                settings.string(forKey: ConfigKey(key)).map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
            }
            provider.clientId = text("clientId") ?? ""
            provider.clientSecret = settings.string(forKey: "clientSecret", isSecret: true) ?? ""
            if let value = text("displayName") { provider.displayName = value }
            if let value = text("issuer") { provider.issuer = value }
            if let value = text("authorizeUrl") { provider.authorizeURL = value }
            if let value = text("tokenUrl") { provider.tokenURL = value }
            if let value = text("userinfoUrl") { provider.userinfoURL = value }
            if let value = text("scopes") { provider.scopes = value.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
            if let value = text("usernameClaim") { provider.usernameClaim = value }
            if let value = text("subjectClaim") { provider.subjectClaim = value }
            return provider
        }
    }
}
