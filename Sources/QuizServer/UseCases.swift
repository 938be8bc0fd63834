import Foundation
import QuizCore
import QuizStore
import QuizUseCases

/// The store the server runs on.
typealias Store = CachedStore

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
    let playQuiz: PlayQuiz
    let practice: Practice
    let singleQuestion: SingleQuestion
    let nameAllGames: NameAllGames
    let leaderboard: LeaderboardQuery
    let postToFeed: PostToFeed
    let deletePost: DeletePost
    let following: Following
    let feed: Feed
    let people: People
    /// Post and question pictures on disk, which the pages also serve.
    let postImages: ImageFiles
    let articles: Articles
    let articleAuthoring: ArticleAuthoring
    let importArticleFeed: ImportArticleFeed
    /// Live games run in this process: one instance of it for the pages, the API and the sockets.
    let liveGames: LiveGames
    let openTrivia: OpenTrivia
    let assignments: Assignments
    let classes: Classes

    init(store: Store, config: ServerConfig, time: any TimeSource, choiceKey: ChoiceKey, hasher: PasswordHasher, limiter: RateLimiter,
         activity: ActivityMetrics = .off) {
        sessions = Sessions(store: store, time: time, lifetime: config.sessionLifetime)
        register = Register(store: store, hasher: hasher, minimumPasswordLength: config.minimumPasswordLength, limiter: limiter,
                            perAddressPerHour: config.registrationsPerAddressPerHour, time: time)
        logIn = LogIn(store: store, sessions: sessions, hasher: hasher, limiter: limiter,
                      perAddressPerMinute: config.loginAttemptsPerAddressPerMinute)
        changePassword = ChangePassword(store: store, sessions: sessions, hasher: hasher, limiter: limiter,
                                        minimumPasswordLength: config.minimumPasswordLength)
        profile = Profile(store: store, liveGames: store.sql)
        browseCatalog = BrowseCatalog(store: store, key: choiceKey)
        externalSignIn = ExternalSignIn(
            store: store,
            settings: .init(providers: config.oauthProviders, publicURL: config.resolvedPublicURL, pendingLifetime: config.oauthPendingLifetime),
            time: time, directory: ProviderDirectory(http: OAuthHTTP(), time: time), http: OAuthHTTP(), sessions: sessions, limiter: limiter)
        postImages = ImageFiles(dataDirectory: config.dataDirectory)
        importBank = ImportBank(store: store, downloader: RemoteBankLoader(limits: config.remoteImportLimits), time: time, images: postImages,
                                metrics: activity)
        exportBank = ExportBank(store: store, images: postImages)
        catalogAuthoring = CatalogAuthoring(store: store, images: postImages, limiter: limiter)
        // Question pictures share the post images' files and route.
        questionAuthoring = QuestionAuthoring(store: store, time: time, images: postImages, limiter: limiter)
        manageUsers = ManageUsers(store: store)
        playQuiz = PlayQuiz(store: store, time: time, key: choiceKey, metrics: activity)
        practice = Practice(store: store, time: time)
        singleQuestion = SingleQuestion(store: store, time: time, key: choiceKey, metrics: activity)
        // One table of games for the API and the pages, so a game started on one can be played on
        // the other. On PostgreSQL other instances may play the same game and count the same keys:
        // games are re-read on every request and guesses counted in the database.
        let shared = store.database.dialect == .postgres
        nameAllGames = NameAllGames(store: store, time: time, games: GameTable(rereads: shared),
                                    guessLimiter: RateLimiter(limit: NameAllGames.guessesPerSecond, window: 1, time: time, shared: shared ? store.sql : nil))
        leaderboard = LeaderboardQuery(store: store)
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
        liveGames = LiveGames(store: store.sql, catalog: store, time: time,
                              joins: RateLimiter(limit: max(1, config.liveJoinsPerAddressPerMinute), window: 60, time: time,
                                                 shared: shared ? store.sql : nil),
                              key: choiceKey,
                              limits: .init(gamesPerHost: max(1, config.liveGamesPerHost), playersPerGame: max(1, config.livePlayersPerGame)),
                              metrics: activity, cluster: shared ? LiveGames.Cluster(store: store.sql) : nil)
        openTrivia = OpenTrivia(store: store, time: time, limits: .init(requestInterval: max(0, config.triviaRequestInterval)),
                                shared: shared ? store.sql : nil)
        // Joins share the live joins' per-address rule: guessing a code costs the same on both.
        assignments = Assignments(store: store, time: time, key: choiceKey,
                                  joins: RateLimiter(limit: max(1, config.liveJoinsPerAddressPerMinute), window: 60, time: time,
                                                     shared: shared ? store.sql : nil))
        // Class joins count under the same per-address rule: a class code is no cheaper to guess.
        classes = Classes(store: store, time: time,
                          joins: RateLimiter(limit: max(1, config.liveJoinsPerAddressPerMinute), window: 60, time: time,
                                             shared: shared ? store.sql : nil))
        importArticleFeed = ImportArticleFeed(store: store, loader: RemoteFeedLoader(limits: config.remoteImportLimits), time: time)
    }
}
