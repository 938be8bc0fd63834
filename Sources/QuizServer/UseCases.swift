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
    let postToFeed: PostToFeed
    let deletePost: DeletePost
    let following: Following
    let feed: Feed
    let people: People
    /// Post pictures on disk, which the pages also serve.
    let postImages: ImageFiles
    let articles: Articles
    let articleAuthoring: ArticleAuthoring
    let importArticleFeed: ImportArticleFeed

    init(store: Store, config: ServerConfig, time: any TimeSource, hasher: PasswordHasher, limiter: RateLimiter) {
        sessions = Sessions(store: store, time: time, lifetime: config.sessionLifetime)
        register = Register(store: store, hasher: hasher, minimumPasswordLength: config.minimumPasswordLength, limiter: limiter,
                            perAddressPerHour: config.registrationsPerAddressPerHour, time: time)
        logIn = LogIn(store: store, sessions: sessions, hasher: hasher, limiter: limiter,
                      perAddressPerMinute: config.loginAttemptsPerAddressPerMinute)
        changePassword = ChangePassword(store: store, sessions: sessions, hasher: hasher, limiter: limiter,
                                        minimumPasswordLength: config.minimumPasswordLength)
        profile = Profile(store: store)
        postImages = ImageFiles(dataDirectory: config.dataDirectory)
        let postLimits = config.postLimits
        postToFeed = PostToFeed(store: store, images: postImages, limiter: limiter,
                                limits: .init(perMinute: postLimits.perMinute, perHour: postLimits.perHour,
                                              imagesPerHour: postLimits.imagesPerHour, imageQuotaBytes: postLimits.imageQuotaBytes),
                                time: time)
        deletePost = DeletePost(store: store, images: postImages)
        following = Following(store: store, time: time)
        feed = Feed(store: store)
        people = People(store: store)
        articles = Articles(store: store, time: time)
        articleAuthoring = ArticleAuthoring(store: store, time: time)
        importArticleFeed = ImportArticleFeed(store: store, loader: RemoteFeedLoader(limits: config.remoteImportLimits), time: time)
    }
}
