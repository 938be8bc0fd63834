import Configuration
import QuizServer
import QuizUseCases
import Testing

@Suite struct ServerConfigTests {
    /// On PostgreSQL every request checks the instances' change counters, so entries may live
    /// long (the lifetime only bounds edits made by hand in SQL); SQLite keeps its 2 seconds.
    @Test func cachesLiveAMinuteOnPostgreSQLAndTwoSecondsOnSQLite() {
        var config = ServerConfig()
        config.database = "quizbox.sqlite"
        #expect(config.resolvedCacheLifetime == 2)
        config.database = "postgres://quizbox@localhost/quizbox"
        #expect(config.resolvedCacheLifetime == 60)
        config.cacheLifetime = 5
        #expect(config.resolvedCacheLifetime == 5)
        config.database = "quizbox.sqlite"
        config.cacheLifetime = 0
        #expect(config.resolvedCacheLifetime == 0)
    }

    @Test func liveGameLimitsComeFromTheEnvironmentWithTenThousandPlayersByDefault() {
        #expect(ServerConfig().livePlayersPerGame == 10_000)
        let reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [
            "QUIZBOX_LIVE_PLAYERS_PER_GAME": "50", "QUIZBOX_LIVE_GAMES_PER_HOST": "20",
            "QUIZBOX_LIVE_JOINS_PER_ADDRESS_PER_MINUTE": "600",
        ]))
        let config = ServerConfig(reader: reader)
        #expect(config.livePlayersPerGame == 50)
        #expect(config.liveGamesPerHost == 20)
        #expect(config.liveJoinsPerAddressPerMinute == 600)
    }
}

@Suite struct OAuthProviderConfigTests {
    @Test func providersComeFromTheEnvironmentOnTopOfTheirPresets() throws {
        let reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [
            "QUIZBOX_PUBLIC_URL": "https://quiz.example.org/",
            "QUIZBOX_OAUTH_PROVIDERS": "github, google,corp",
            "QUIZBOX_OAUTH_GITHUB_CLIENT_ID": "gh-id", "QUIZBOX_OAUTH_GITHUB_CLIENT_SECRET": "gh-secret",
            "QUIZBOX_OAUTH_GOOGLE_CLIENT_ID": "g-id", "QUIZBOX_OAUTH_GOOGLE_CLIENT_SECRET": "g-secret",
            "QUIZBOX_OAUTH_CORP_CLIENT_ID": "c-id", "QUIZBOX_OAUTH_CORP_CLIENT_SECRET": "c-secret",
            "QUIZBOX_OAUTH_CORP_ISSUER": "https://sso.example.org/realms/staff", "QUIZBOX_OAUTH_CORP_DISPLAY_NAME": "Staff SSO",
            "QUIZBOX_OAUTH_CORP_SCOPES": "openid profile email", "QUIZBOX_OAUTH_CORP_USERNAME_CLAIM": "email",
        ]))
        let config = ServerConfig(reader: reader)
        #expect(config.resolvedPublicURL == "https://quiz.example.org")
        #expect(config.oauthProviders.map(\.name) == ["github", "google", "corp"])
        let github = config.oauthProviders[0]
        #expect(github.displayName == "GitHub")
        #expect(github.clientId == "gh-id")
        #expect(github.clientSecret == "gh-secret")
        #expect(github.tokenURL == "https://github.com/login/oauth/access_token")
        #expect(github.subjectClaim == "id")
        #expect(config.oauthProviders[1].issuer == "https://accounts.google.com")
        let corp = config.oauthProviders[2]
        #expect(corp.displayName == "Staff SSO")
        #expect(corp.issuer == "https://sso.example.org/realms/staff")
        #expect(corp.scopes == ["openid", "profile", "email"])
        #expect(corp.usernameClaim == "email")
        for provider in config.oauthProviders { try provider.validate() }
    }

    @Test func aProviderMissingWhatItNeedsStopsTheServerWithAMessage() {
        var provider = OAuthProviderConfig(name: "corp")
        provider.clientId = "id"
        provider.clientSecret = "secret"
        #expect(throws: OAuthProviderConfig.Invalid.self) { try provider.validate() }
        provider.issuer = "ftp://sso.example.org"
        #expect(throws: OAuthProviderConfig.Invalid.self) { try provider.validate() }
        provider.issuer = "https://sso.example.org"
        #expect(throws: Never.self) { try provider.validate() }
        provider.clientSecret = ""
        #expect(throws: OAuthProviderConfig.Invalid.self) { try provider.validate() }
        var bad = OAuthProviderConfig.preset("github")!
        bad.name = "git-hub"
        bad.clientId = "id"
        bad.clientSecret = "secret"
        #expect(throws: OAuthProviderConfig.Invalid.self) { try bad.validate() }
    }
}
