import Crypto
import Foundation
import QuizCore
import QuizStore

/// Sign-in through a provider, as a use case: the authorization-code flow with PKCE, `state` and
/// (OpenID Connect) a nonce. Pending sign-ins live in the database, so any instance can finish one.
package struct ExternalSignIn: Sendable {
    /// What sign-in needs of the server's settings.
    package struct Settings: Sendable {
        package var providers: [OAuthProviderConfig]
        /// The address people reach Quizbox at, for the providers' redirect back.
        package var publicURL: String
        /// How long a started sign-in (or a username being chosen) may take.
        package var pendingLifetime: TimeInterval

        package init(providers: [OAuthProviderConfig], publicURL: String, pendingLifetime: TimeInterval) {
            self.providers = providers
            self.publicURL = publicURL
            self.pendingLifetime = pendingLifetime
        }
    }

    package typealias Storage = UserStore & ExternalIdentityStore
    let store: any Storage
    let settings: Settings
    let time: any TimeSource
    let directory: ProviderDirectory
    let http: any OAuthTransport
    let sessions: Sessions
    let limiter: RateLimiter

    package init(store: any Storage, settings: Settings, time: any TimeSource, directory: ProviderDirectory, http: any OAuthTransport,
                 sessions: Sessions, limiter: RateLimiter) {
        self.store = store
        self.sessions = sessions
        self.limiter = limiter
        self.settings = settings
        self.time = time
        self.directory = directory
        self.http = http
    }

    /// Why a sign-in ended without an account; each becomes a page saying so.
    package enum Failure: Error, Equatable {
        case unknownProvider
        case unreachable(provider: String, reason: String)
        case stateMismatch
        case expired
        case refused(provider: String, reason: String)
        case untrusted(provider: String, reason: String)
        case identityTaken(provider: String)
        case linkedElsewhere
        /// Too many sign-ins started from one address.
        case tooManyAttempts
        /// Unlinking would leave the account with no way to sign in.
        case lastSignInMethod
        case notLinked
    }

    /// What a finished sign-in leads to.
    package enum Outcome: Equatable {
        /// A session was started for the account.
        case signedIn(Sessions.Grant, next: String)
        /// `provider` is the configured name.
        case linked(provider: String)
        /// The provider's username cannot be used: the person picks one. `token` goes in a cookie.
        case chooseUsername(token: String, suggestion: String, reason: String)
    }

    /// What is kept of the provider's profile while a username is chosen (no tokens).
    package struct Profile: Codable, Equatable {
        var username: String
        var firstName: String
        var lastName: String
        var providerUsername: String
    }

    package func provider(named name: String) throws(Failure) -> OAuthProviderConfig {
        guard let provider = settings.providers.first(where: { $0.name == name }) else { throw .unknownProvider }
        return provider
    }

    package func redirectURI(_ provider: OAuthProviderConfig) -> String {
        "\(settings.publicURL)/auth/\(provider.name)/callback"
    }

    package static func hash(_ token: String) -> String { SessionTokens.hash(token) }

    // MARK: - Start

    /// Stores the pending sign-in and returns where to send the browser, with the `state` that
    /// must come back (and that the browser keeps in a cookie).
    package func start(_ provider: OAuthProviderConfig, linkUserId: Int64?, next: String, address: String) async throws(Failure) -> (url: String, state: String) {
        // Each start stores a pending sign-in for a while: as many per client address as log-ins.
        do {
            guard try await limiter.allow(keys: ["signin-ip:" + address]) else { throw Failure.tooManyAttempts }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .unreachable(provider: "the database", reason: "the sign-in could not be counted")
        }
        let endpoints = try await endpoints(provider)
        let state = SessionTokens.make()
        let verifier = SessionTokens.make() + SessionTokens.make()  // 86 characters, within RFC 7636's 43…128
        let nonce = SessionTokens.make()
        let now = time.now()
        do {
            try await store.removeExpiredPendingSignIns(at: now)
            try await store.savePendingSignIn(PendingSignIn(
                stateHash: Self.hash(state), provider: provider.name, codeVerifier: verifier, nonce: nonce,
                linkUserId: linkUserId, next: next, createdAt: now, expiresAt: now.addingTimeInterval(settings.pendingLifetime)))
        } catch {
            throw .unreachable(provider: "the database", reason: "the sign-in could not be saved")
        }
        let challenge = Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
        var query: [(String, String)] = [
            ("response_type", "code"), ("client_id", provider.clientId), ("redirect_uri", redirectURI(provider)),
            ("state", state), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        if !provider.scopes.isEmpty { query.append(("scope", provider.scopes.joined(separator: " "))) }
        if endpoints.issuer != nil { query.append(("nonce", nonce)) }
        let separator = endpoints.authorize.contains("?") ? "&" : "?"
        return (endpoints.authorize + separator + OAuthForm.encode(query), state)
    }

    private func endpoints(_ provider: OAuthProviderConfig) async throws(Failure) -> ProviderEndpoints {
        do {
            return try await directory.endpoints(for: provider)
        } catch {
            throw Self.failure(error, provider)
        }
    }

    package static func failure(_ error: OAuthTransportFailure, _ provider: OAuthProviderConfig) -> Failure {
        switch error {
        case .unreachable(let reason): .unreachable(provider: provider.displayName, reason: reason)
        case .badResponse(let reason): .unreachable(provider: provider.displayName, reason: reason)
        case .refused(let reason): .refused(provider: provider.displayName, reason: reason)
        }
    }

    // MARK: - Callback

    /// Checks the state against the browser's copy, takes the pending sign-in (once), exchanges
    /// the code, verifies who signed in, and signs in, links or asks for a username.
    package func finish(_ provider: OAuthProviderConfig, code: String?, state: String?, providerError: String?, browserState: String?,
                signedInUserId: Int64?) async throws(Failure) -> Outcome {
        guard let state, let browserState, state.utf8.count == 43,
              IDTokenVerifier.constantTimeEqual(state, browserState) else { throw .stateMismatch }
        let pending: PendingSignIn?
        do {
            pending = try await store.takePendingSignIn(stateHash: Self.hash(state), at: time.now())
        } catch {
            throw .unreachable(provider: "the database", reason: "the sign-in could not be read")
        }
        guard let pending, pending.subject == nil else { throw .expired }
        guard pending.provider == provider.name else { throw .stateMismatch }
        if let providerError {
            throw .refused(provider: provider.displayName, reason: String(providerError.prefix(100)))
        }
        guard let code, !code.isEmpty, code.utf8.count <= 2048 else {
            throw .refused(provider: provider.displayName, reason: "no authorization code came back")
        }
        let claims = try await identityClaims(provider, code: code, pending: pending)
        guard let subject = claims[provider.subjectClaim]?.text, !subject.isEmpty, subject.utf8.count <= 255 else {
            throw .untrusted(provider: provider.displayName, reason: "its answer does not say who signed in (\(provider.subjectClaim))")
        }
        let profile = Self.profile(claims, provider: provider, subject: subject)
        if let linkUserId = pending.linkUserId {
            guard signedInUserId == linkUserId else { throw .linkedElsewhere }
            return try await link(provider, subject: subject, profile: profile, userId: linkUserId)
        }
        if let existing = try await lookUp(provider, subject: subject) {
            return .signedIn(try await session(for: existing.userId), next: pending.next)
        }
        return try await createAccount(provider, subject: subject, profile: profile, next: pending.next)
    }

    private struct TokenResponse: Decodable {
        var access_token: String
        var id_token: String?
    }

    /// Claims about who signed in: the verified ID token's, with the userinfo endpoint's added
    /// (GitHub and Instagram have only the latter). The access token is used here and forgotten.
    private func identityClaims(_ provider: OAuthProviderConfig, code: String, pending: PendingSignIn) async throws(Failure) -> Claims {
        let endpoints = try await endpoints(provider)
        let token: TokenResponse
        do {
            token = try await http.postForm(TokenResponse.self, to: endpoints.token, fields: [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI(provider)),
                ("client_id", provider.clientId), ("client_secret", provider.clientSecret), ("code_verifier", pending.codeVerifier),
            ])
        } catch {
            throw Self.failure(error, provider)
        }
        var claims: Claims = [:]
        if let issuer = endpoints.issuer, let jwks = endpoints.jwks {
            // OpenID Connect: the ID token is required and must verify.
            guard let idToken = token.id_token else {
                throw .untrusted(provider: provider.displayName, reason: "it sent no ID token")
            }
            do {
                let parsed = try IDTokenVerifier.parse(idToken)
                let keys = try await directory.keys(for: provider, url: jwks, keyId: parsed.keyId)
                claims = try IDTokenVerifier.verify(idToken, keys: keys, issuer: issuer, clientId: provider.clientId,
                                                    nonce: pending.nonce, now: time.now())
            } catch let error as IDTokenVerifier.Failure {
                throw .untrusted(provider: provider.displayName, reason: error.description)
            } catch let error as OAuthTransportFailure {
                throw Self.failure(error, provider)
            } catch {
                throw .untrusted(provider: provider.displayName, reason: "its ID token could not be checked")
            }
        }
        if let userinfo = endpoints.userinfo, endpoints.issuer == nil || claims[provider.usernameClaim] == nil {
            let info: Claims
            do {
                info = try await http.getJSON(Claims.self, from: userinfo, bearer: token.access_token)
            } catch {
                throw Self.failure(error, provider)
            }
            if let subject = claims["sub"], endpoints.issuer != nil {
                // OpenID Connect Core 5.3.2: userinfo about someone else must be ignored.
                guard info["sub"] == subject else { throw .untrusted(provider: provider.displayName, reason: "its userinfo is about someone else") }
            }
            claims.merge(info) { verified, _ in verified }
        }
        return claims
    }
}
