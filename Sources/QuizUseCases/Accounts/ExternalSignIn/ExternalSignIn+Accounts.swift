import Foundation
import QuizCore
import QuizStore

/// What a verified identity leads to: the account it is linked to, a new one, or a link.
extension ExternalSignIn {
    package static func profile(_ claims: Claims, provider: OAuthProviderConfig, subject: String) -> Profile {
        let raw = claims[provider.usernameClaim]?.text ?? ""
        let username = raw.contains("@") ? String(raw.split(separator: "@", omittingEmptySubsequences: false)[0]) : raw
        func clean(_ text: String?) -> String? {
            guard let text else { return nil }
            let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return kept.isEmpty ? nil : String(kept.prefix(Registration.nameMaxLength))
        }
        let full = clean(claims["name"]?.text)
        let parts = full?.split(separator: " ", maxSplits: 1).map(String.init) ?? []
        let first = clean(claims["given_name"]?.text) ?? parts.first ?? clean(username) ?? provider.displayName
        let last = clean(claims["family_name"]?.text) ?? (parts.count > 1 ? parts[1] : "")
        return Profile(username: String(username.prefix(64)), firstName: first, lastName: last,
                       providerUsername: String((clean(raw) ?? subject).prefix(100)))
    }

    /// A username Quizbox accepts, made from the provider's: disallowed characters become "_".
    package static func suggestion(from username: String) -> String {
        let mapped = String(String.UnicodeScalarView(username.unicodeScalars.map { s in
            (s.properties.isAlphabetic && s.properties.generalCategory != .otherSymbol) || ("0"..."9").contains(s)
                || s == "_" || s == "." || s == "-" ? s : "_"
        }))
        let trimmed = String(mapped.prefix(Registration.usernameLength.upperBound))
        return trimmed.count < Registration.usernameLength.lowerBound ? "" : trimmed
    }

    package func lookUp(_ provider: OAuthProviderConfig, subject: String) async throws(Failure) -> ExternalIdentity? {
        do {
            return try await store.identity(provider: provider.name, subject: subject)
        } catch {
            throw .unreachable(provider: "the database", reason: "the account could not be looked up")
        }
    }

    package func link(_ provider: OAuthProviderConfig, subject: String, profile: Profile, userId: Int64) async throws(Failure) -> Outcome {
        if let existing = try await lookUp(provider, subject: subject) {
            if existing.userId == userId { return .linked(provider: provider.name) }
            throw .identityTaken(provider: provider.displayName)
        }
        do {
            try await store.link(ExternalIdentity(provider: provider.name, subject: subject, userId: userId,
                                                  providerUsername: profile.providerUsername, createdAt: time.now()))
        } catch StoreError.identityTaken {
            throw .identityTaken(provider: provider.displayName)
        } catch {
            throw .unreachable(provider: "the database", reason: "the link could not be saved")
        }
        return .linked(provider: provider.name)
    }

    /// A new account named after the provider's username, or, when that cannot be, a second
    /// pending stage that waits for the person to choose one.
    package func createAccount(_ provider: OAuthProviderConfig, subject: String, profile: Profile, next: String) async throws(Failure) -> Outcome {
        var reason = "\(provider.displayName) gave no username Quizbox can use."
        if !profile.username.isEmpty {
            do {
                let user = try await create(provider, subject: subject, profile: profile, username: profile.username)
                return try await signedIn(user, next: next)
            } catch {
                switch error {
                case .usernameTaken: reason = "The username \(profile.username) is taken here."
                case .invalid(let message): reason = "\(provider.displayName)'s username \(profile.username) cannot be used here: \(message)"
                case .other(let failure): throw failure
                }
            }
        }
        let token = SessionTokens.make()
        let now = time.now()
        do {
            let encoded = String(decoding: try JSONEncoder().encode(profile), as: UTF8.self)
            try await store.savePendingSignIn(PendingSignIn(
                stateHash: Self.hash(token), provider: provider.name, codeVerifier: "", nonce: "", linkUserId: nil, next: next,
                subject: subject, profile: encoded, createdAt: now, expiresAt: now.addingTimeInterval(settings.pendingLifetime)))
        } catch {
            throw .unreachable(provider: "the database", reason: "the sign-in could not be saved")
        }
        return .chooseUsername(token: token, suggestion: Self.suggestion(from: profile.username), reason: reason)
    }

    package enum CreateFailure: Error {
        case usernameTaken
        case invalid(String)
        case other(Failure)
    }

    /// Creates the account with no password and the identity linked, in one transaction.
    package func create(_ provider: OAuthProviderConfig, subject: String, profile: Profile, username: String) async throws(CreateFailure) -> User {
        do {
            try Registration.validateUsername(username)
        } catch {
            throw .invalid(error.message)
        }
        do {
            return try await store.createUser(
                NewUser(username: username, firstName: profile.firstName, lastName: profile.lastName, passwordHash: nil,
                        role: .player, createdAt: time.now()),
                linking: ExternalIdentity(provider: provider.name, subject: subject, userId: 0,
                                          providerUsername: profile.providerUsername, createdAt: time.now()))
        } catch StoreError.usernameTaken {
            throw .usernameTaken
        } catch StoreError.identityTaken {
            // The same person finished a second sign-in at the same moment: that one made the account.
            throw .other(.identityTaken(provider: provider.displayName))
        } catch {
            throw .other(.unreachable(provider: "the database", reason: "the account could not be saved"))
        }
    }

    // MARK: - Choosing a username

    package enum ChooseResult {
        /// A session was started for the account.
        case signedIn(Sessions.Grant, next: String)
        /// Show the form again; the pending stage has been saved again under the same token.
        case again(suggestion: String, error: String)
    }

    /// Takes the waiting identity and creates the account under `username`; when the name cannot
    /// be used, puts the identity back (same token, same expiry) for another try.
    package func chooseUsername(token: String?, username: String) async throws(Failure) -> (provider: OAuthProviderConfig, result: ChooseResult) {
        guard let token, token.utf8.count == 43 else { throw .expired }
        let pending: PendingSignIn?
        do {
            pending = try await store.takePendingSignIn(stateHash: Self.hash(token), at: time.now())
        } catch {
            throw .unreachable(provider: "the database", reason: "the sign-in could not be read")
        }
        guard let pending, let subject = pending.subject, let stored = pending.profile,
              let profile = try? JSONDecoder().decode(Profile.self, from: Data(stored.utf8)) else { throw .expired }
        let provider = try provider(named: pending.provider)
        if let existing = try await lookUp(provider, subject: subject) {
            return (provider, .signedIn(try await session(for: existing.userId), next: pending.next))
        }
        let problem: String
        do {
            let user = try await create(provider, subject: subject, profile: profile, username: username)
            return (provider, try await chosen(user, next: pending.next))
        } catch {
            switch error {
            case .usernameTaken: problem = "That username is taken. Try another."
            case .invalid(let message): problem = message
            case .other(let failure): throw failure
            }
        }
        do {
            try await store.savePendingSignIn(pending)
        } catch {
            throw .unreachable(provider: "the database", reason: "the sign-in could not be saved")
        }
        return (provider, .again(suggestion: username, error: problem))
    }

    // MARK: - Signing in and unlinking

    /// A session for a new account, its failures wrapped as `create`'s are.
    private func signedIn(_ user: User, next: String) async throws(CreateFailure) -> Outcome {
        do { return .signedIn(try await sessions.start(for: user), next: next) } catch { throw .other(.unreachable(provider: "the database", reason: "the session could not be started")) }
    }

    private func chosen(_ user: User, next: String) async throws(CreateFailure) -> ChooseResult {
        do { return .signedIn(try await sessions.start(for: user), next: next) } catch { throw .other(.unreachable(provider: "the database", reason: "the session could not be started")) }
    }

    /// Starts a session for the account a sign-in found or made.
    func session(for userId: Int64) async throws(Failure) -> Sessions.Grant {
        do {
            guard let user = try await store.user(id: userId) else { throw Failure.expired }
            return try await sessions.start(for: user)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .unreachable(provider: "the database", reason: "the session could not be started")
        }
    }

    /// Removes a provider from the signed-in account, unless it is its only way to sign in.
    package func unlink(provider name: String, userId: Int64) async throws {
        do {
            try await store.unlink(provider: name, userId: userId)
        } catch StoreError.lastSignInMethod {
            throw Failure.lastSignInMethod
        } catch StoreError.notFound {
            throw Failure.notLinked
        }
    }
}
