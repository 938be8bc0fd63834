import Foundation
import QuizCore

/// A provider account (GitHub, Google, any OpenID Connect issuer) linked to a Quizbox account.
public struct ExternalIdentity: Sendable, Hashable {
    /// The provider's configured name, e.g. "github".
    public var provider: String
    /// The provider's stable id for the account (OpenID Connect `sub`, GitHub's numeric `id`).
    public var subject: String
    public var userId: Int64
    /// What the provider called the account when it was linked, shown on the profile.
    public var providerUsername: String
    public var createdAt: Date

    public init(provider: String, subject: String, userId: Int64, providerUsername: String, createdAt: Date) {
        self.provider = provider
        self.subject = subject
        self.userId = userId
        self.providerUsername = providerUsername
        self.createdAt = createdAt
    }
}

/// A sign-in in flight: created when the browser leaves for the provider, taken (and so deleted)
/// when it comes back. A second stage, with `subject` set, holds a verified identity while its
/// owner chooses a username. Provider tokens never get here.
public struct PendingSignIn: Sendable, Hashable {
    /// SHA-256 (hex) of the `state` sent to the provider, or of the choose-username token.
    public var stateHash: String
    public var provider: String
    public var codeVerifier: String
    public var nonce: String
    /// Set when a signed-in user is linking a provider to their account.
    public var linkUserId: Int64?
    /// The same-site path to go to afterwards.
    public var next: String
    /// The verified identity's subject, in the choose-username stage.
    public var subject: String?
    /// The verified profile (JSON), in the choose-username stage.
    public var profile: String?
    public var createdAt: Date
    public var expiresAt: Date

    public init(stateHash: String, provider: String, codeVerifier: String, nonce: String, linkUserId: Int64?, next: String,
                subject: String? = nil, profile: String? = nil, createdAt: Date, expiresAt: Date) {
        self.stateHash = stateHash
        self.provider = provider
        self.codeVerifier = codeVerifier
        self.nonce = nonce
        self.linkUserId = linkUserId
        self.next = next
        self.subject = subject
        self.profile = profile
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

public protocol ExternalIdentityStore: Sendable {
    func savePendingSignIn(_ pending: PendingSignIn) async throws
    /// Deletes and returns the pending sign-in when it exists and has not expired at `now`:
    /// whoever takes it first gets it, on any instance, so a state is used once.
    func takePendingSignIn(stateHash: String, at now: Date) async throws -> PendingSignIn?
    /// Drops sign-ins nobody finished; returns how many.
    @discardableResult
    func removeExpiredPendingSignIns(at now: Date) async throws -> Int
    func identity(provider: String, subject: String) async throws -> ExternalIdentity?
    /// The user's linked providers, by provider name.
    func identities(userId: Int64) async throws -> [ExternalIdentity]
    /// Throws `StoreError.identityTaken` when the provider account is linked to anyone, or the
    /// user already has an account of that provider linked.
    func link(_ identity: ExternalIdentity) async throws
    /// Creates the user (with no password when `user.passwordHash` is nil) and links the identity
    /// (its `userId` is ignored), in one transaction. Throws `StoreError.usernameTaken` or
    /// `StoreError.identityTaken`, and then stores nothing.
    func createUser(_ user: NewUser, linking identity: ExternalIdentity) async throws -> User
    /// Throws `StoreError.lastSignInMethod` when the account has no password and no other
    /// provider; `StoreError.notFound` when that provider is not linked.
    func unlink(provider: String, userId: Int64) async throws
}
