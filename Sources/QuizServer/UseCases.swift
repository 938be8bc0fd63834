import Foundation
import QuizCore
import QuizStore
import QuizUseCases

/// The store the server runs on.
typealias Store = SQLStore

/// The composition root: every use case, built once from the store and the configuration. Each
/// adapter (API handler, page controller, live game) takes the use cases it translates for.
struct UseCases: Sendable {
    let sessions: Sessions
    let register: Register
    let logIn: LogIn
    let changePassword: ChangePassword
    let profile: Profile
    let externalSignIn: ExternalSignIn
    let browseCatalog: BrowseCatalog
    let importBank: ImportBank
    let exportBank: ExportBank
    let catalogAuthoring: CatalogAuthoring
    let questionAuthoring: QuestionAuthoring
    let manageUsers: ManageUsers

    init(store: Store, config: ServerConfig, time: any TimeSource, hasher: PasswordHasher, limiter: RateLimiter) {
        sessions = Sessions(store: store, time: time, lifetime: config.sessionLifetime)
        register = Register(store: store, hasher: hasher, minimumPasswordLength: config.minimumPasswordLength, limiter: limiter,
                            perAddressPerHour: config.registrationsPerAddressPerHour, time: time)
        logIn = LogIn(store: store, sessions: sessions, hasher: hasher, limiter: limiter,
                      perAddressPerMinute: config.loginAttemptsPerAddressPerMinute)
        changePassword = ChangePassword(store: store, sessions: sessions, hasher: hasher, limiter: limiter,
                                        minimumPasswordLength: config.minimumPasswordLength)
        profile = Profile(store: store)
        browseCatalog = BrowseCatalog(store: store)
        externalSignIn = ExternalSignIn(
            store: store,
            settings: .init(providers: config.oauthProviders, publicURL: config.resolvedPublicURL, pendingLifetime: config.oauthPendingLifetime),
            time: time, directory: ProviderDirectory(http: OAuthHTTP(), time: time), http: OAuthHTTP(), sessions: sessions, limiter: limiter)
        importBank = ImportBank(store: store, downloader: RemoteBankLoader(limits: config.remoteImportLimits), time: time)
        exportBank = ExportBank(store: store)
        catalogAuthoring = CatalogAuthoring(store: store)
        questionAuthoring = QuestionAuthoring(store: store, time: time)
        manageUsers = ManageUsers(store: store)
    }
}
