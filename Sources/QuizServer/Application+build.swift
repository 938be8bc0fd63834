import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import QRCode
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases
import ServiceLifecycle

/// The request context: Hummingbird's basics plus the client's address, for rate limits.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// Set by `PageMiddleware` for the pages: who is visiting, and a POST's checked form.
    var visit: Visit?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Opens the database named in `config`, brings its schema up to date, loads the starter bank into
/// an empty one, and returns the application ready to run. `main` and the tests both come through here.
public func buildApplication(
    config: ServerConfig, time: any TimeSource = SystemTimeSource(), logger: Logger = Logger(label: "quizbox")
) async throws -> some ApplicationProtocol {
    // A sign-in provider with a setting missing stops the server before anything is opened.
    for provider in config.oauthProviders { try provider.validate() }
    try config.checkProblems()
    // The templates compile (once per process) while the database is opened and migrated. A
    // failure is not lost: the pages' own `load()` below gets the same stored result and throws it.
    Task.detached(priority: .userInitiated) { _ = try? await PageRenderer.load() }
    let database = try await QuizDatabase.open(config.database, poolSize: config.databasePoolSize, logger: logger)
    do {
        try await prepare(database: database, config: config, time: time, logger: logger)
        return try await buildApplication(config: config, database: database, time: time, logger: logger)
    } catch {
        try? await database.close()
        throw error
    }
}

/// Migrations, then the starter bank when there is no question yet.
public func prepare(database: QuizDatabase, config: ServerConfig, time: any TimeSource, logger: Logger) async throws {
    let applied = try await Migrations.run(on: database, at: time.now())
    if !applied.isEmpty { logger.info("applied migrations \(applied.map(String.init).joined(separator: ", "))") }
    let store = CachedStore(SQLStore(database: database))
    if config.loadStarterBank, try await store.isEmpty() {
        let summary = try await store.importBank(try StarterBank.load(), at: time.now())
        logger.info("loaded the starter bank: \(summary.subjects) subjects, \(summary.quizzes) quizzes, \(summary.questions) questions")
    }
}

/// Builds the application on an open, migrated database; the application closes it on shutdown.
public func buildApplication(
    config: ServerConfig, database: QuizDatabase, time: any TimeSource, logger: Logger
) async throws -> some ApplicationProtocol {
    for provider in config.oauthProviders { try provider.validate() }
    try config.checkProblems()
    // One registry per application (see `ServerMetrics`); off, everything counts into a no-op.
    let metrics = ServerMetrics(enabled: config.metrics)
    if let storeMetrics = metrics.store { database.instrument(storeMetrics) }
    let store = CachedStore(SQLStore(database: database), lifetime: config.resolvedCacheLifetime, time: time, metrics: metrics.store)
    let renderer = try await PageRenderer.load()
    // The same on every instance: choice ids shown to players are derived from it.
    let choiceKey = ChoiceKey(secret: try await store.sql.secret(named: "choices", at: time.now(), make: { ChoiceKey.newSecret() }))
    let (router, useCases) = try buildRouter(store: store, renderer: renderer, config: config, time: time, choiceKey: choiceKey,
                                             logger: logger, metrics: metrics)
    let idle = TimeAmount.milliseconds(Int64(max(0.1, config.idleTimeout) * 1000))
    let read = TimeAmount.milliseconds(Int64(max(0.1, config.readTimeout) * 1000))
    // Live games' sockets: a router of their own, so no page route is tried for an upgrade.
    let hub = LiveHub(time: time)
    useCases.liveGames.deliver(to: hub)
    if metrics.isEnabled {
        metrics.watchLive { [liveGames = useCases.liveGames] in (liveGames.runningCount, hub.connectedPlayerCount) }
        MetricsRoute(metrics: metrics, token: config.metricsToken).register(on: router)
        if config.metricsToken.isEmpty { logger.warning("/metrics is on without QUIZBOX_METRICS_TOKEN: anyone who can reach the server can read it") }
    }
    // Before the server listens, so a host or player reconnecting at once finds their game.
    do {
        let restored = try await useCases.liveGames.restore()
        if restored > 0 { logger.info("live games restored", metadata: ["games": "\(restored)"]) }
    } catch {
        logger.error("restoring live games failed", metadata: ["error": "\(error)"])
    }
    let live = LiveSocket(games: useCases.liveGames, hub: hub, sessions: useCases.sessions, time: time,
                          publicURL: config.publicURL.isEmpty ? nil : config.publicURL, secureCookies: config.secureCookies,
                          proxies: config.proxies, greetingTimeout: max(0.1, config.idleTimeout),
                          pingInterval: .milliseconds(Int64(max(0.1, config.livePingInterval) * 1000)),
                          perAddress: LiveSocket.OpenSockets(limit: max(1, config.liveSocketsPerAddress)), logger: logger)
    var app = Application(
        router: router,
        server: HTTPServerBuilder { responder in
            ServerChannel(responder: responder, http1: .init(additionalChannelHandlers: [BodyReadDeadline(timeout: read)], idleTimeout: idle),
                          live: live, idle: idle, read: read)
        },
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "Quizbox"),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? config.port
            logger.info("Quizbox is ready at http://\(config.host):\(port)")
        },
        logger: logger
    )
    app.addServices(DatabaseService(database: database, logger: logger))
    app.addServices(Housekeeping(store: store, trivia: useCases.openTrivia, time: time, logger: logger))
    app.addServices(LiveClock(games: useCases.liveGames, time: time, logger: logger))
    app.addServices(MemoryTrim(logger: logger))
    if let notices = LiveNotifications(database: database, logger: logger) {
        app.addServices(LiveFanout(games: useCases.liveGames, notices: notices, logger: logger))
    }
    return app
}

func buildRouter(
    store: CachedStore, renderer: PageRenderer, config: ServerConfig, time: any TimeSource, choiceKey: ChoiceKey, logger: Logger,
    metrics: ServerMetrics = ServerMetrics(enabled: false)
) throws -> (Router<AppRequestContext>, UseCases) {
    let router = Router(context: AppRequestContext.self)
    // Routes declare what the middlewares before them must know (body limits, caching, resending).
    let routes = RoutePolicies()
    // On PostgreSQL other instances count the same keys: rate limits are counted in the database.
    let shared = store.database.dialect == .postgres
    let hasher = PasswordHasher(cost: config.bcryptCost)
    let limiter = RateLimiter(limit: config.loginAttemptsPerMinute, window: 60, time: time, shared: shared ? store.sql : nil)
    let useCases = UseCases(store: store, config: config, time: time, choiceKey: choiceKey, hasher: hasher, limiter: limiter,
                            activity: metrics.activity)
    router.addMiddleware {
        // Outermost: it sees every response, error pages included, and times the whole stack.
        RequestObserver(metrics: metrics, logRequests: config.logRequests, logger: logger)
        ServingMiddleware(store: store)
        SecurityHeadersMiddleware()
        ErrorMiddleware(renderer: renderer) { request in
            // Outside the credential middleware: read the cookie from the request itself. Any failure
            // (no cookie, expired, database error) just means the error page shows signed out.
            let credential = CredentialMiddleware<AppRequestContext>.credential(in: request)
            return try? await RequestCredential.$current.withValue(credential) {
                try await useCases.sessions.user(token: credential?.token)
            }
        }
        CatalogResponseCache(lifetime: config.resolvedCacheLifetime, time: time, policies: routes, counters: metrics.store?.cache("catalog_responses")) {
            try await store.currentCatalogGeneration()
        }
        CredentialMiddleware(proxies: config.proxies)
        BodyLimitMiddleware(defaultMaxBytes: config.maxBodyBytes,
                            budget: BodyBudget(total: config.maxBodyMemoryBytes, perClient: config.maxBodyMemoryPerClientBytes),
                            policies: routes) {
            // No session is "log in first"; a database that cannot be asked is its own error (503).
            do {
                return try await useCases.sessions.user(token: RequestCredential.current?.token)
            } catch is Sessions.Failure {
                return nil
            }
        }
    }
    router.get("/health") { _, _ -> Response in
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
    }
    router.get("/api/openapi.yaml") { _, _ -> Response in
        guard let yaml = QuizAPISpec.yaml else { throw HTTPError(.notFound) }
        var headers = HTTPFields()
        headers[.contentType] = "application/yaml; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: yaml)))
    }
    // Browsers ask for /favicon.ico whatever the page says; the PNG serves (they read the bytes).
    router.get("/favicon.ico") { request, _ -> Response in
        guard let file = StaticFile.all["icon-48.png"] else { throw HTTPError(.notFound) }
        return file.response(to: request, maxAge: 86400)
    }
    router.get("/static/:file") { request, context -> Response in
        guard let file = StaticFile.all[try context.parameters.require("file")] else { throw HTTPError(.notFound) }
        return file.response(to: request, maxAge: 3600)
    }
    let pages = Pages(renderer: renderer, config: config, time: time, routes: routes)
    let accountPages = AccountPages(pages: pages, sessions: useCases.sessions, register: useCases.register, logIn: useCases.logIn,
                                    changePassword: useCases.changePassword, profile: useCases.profile)
    // Pages, grouped by who may see them; the middleware works out the visit for all of them.
    let pageRoutes = router.group().add(middleware: PageMiddleware(sessions: useCases.sessions, pages: pages))
    let anyone = pageRoutes.group(context: PageContext.self)
    let signedIn = pageRoutes.group(context: SignedInContext.self)
    let authors = pageRoutes.group(context: AuthorContext.self)
    let admins = pageRoutes.group(context: AdminContext.self)
    accountPages.register(anyone: anyone, signedIn: signedIn)
    ExternalSignInPages(pages: pages, flow: useCases.externalSignIn, accountPages: accountPages).register(anyone: anyone, signedIn: signedIn)
    ManagePages(pages: pages, importBank: useCases.importBank, exportBank: useCases.exportBank).register(anyone: anyone, authors: authors)
    ManageCatalogPages(pages: pages, catalog: useCases.catalogAuthoring).register(authors: authors)
    ManageQuestionPages(pages: pages, questions: useCases.questionAuthoring, catalog: useCases.catalogAuthoring).register(authors: authors)
    ManageUserPages(pages: pages, manageUsers: useCases.manageUsers).register(admins: admins)
    // Play pages keep the play session's start in a cookie (history lists what it answered).
    let playing = router.group().add(middleware: PageMiddleware(sessions: useCases.sessions, pages: pages, play: true))
        .group(context: SignedInContext.self)
    BrowsePages(pages: pages, browse: useCases.browseCatalog, classes: useCases.classes).register(signedIn: signedIn)
    PlayPages(pages: pages, playQuiz: useCases.playQuiz, leaderboard: useCases.leaderboard).register(signedIn: signedIn, playing: playing)
    ModesPages(pages: pages, practice: useCases.practice, singleQuestion: useCases.singleQuestion, games: useCases.nameAllGames)
        .register(signedIn: signedIn)
    SocialPages(pages: pages, postToFeed: useCases.postToFeed, deletePost: useCases.deletePost, following: useCases.following,
                feed: useCases.feed, people: useCases.people, images: useCases.postImages)
        .register(on: router, signedIn: signedIn)
    ArticlePages(pages: pages, articles: useCases.articles).register(signedIn: signedIn)
    // A join address as a QR code (SVG), for the live lobby, an assignment's and a class's page.
    let qrCode: @Sendable (String) -> String = { address in
        (try? QRCode(text: address))?.svg(moduleSize: 8, quietZone: 4, title: "QR code of \(address)") ?? ""
    }
    LivePages(pages: pages, games: useCases.liveGames, qrCode: qrCode).register(anyone: anyone, signedIn: signedIn)
    AssignmentPages(pages: pages, assignments: useCases.assignments, games: useCases.liveGames, catalog: useCases.browseCatalog,
                    classes: useCases.classes, qrCode: qrCode)
        .register(signedIn: signedIn)
    AssignmentPlayPages(pages: pages, assignments: useCases.assignments).register(anyone: anyone)
    ClassPages(pages: pages, classes: useCases.classes, catalog: useCases.browseCatalog, qrCode: qrCode).register(signedIn: signedIn)
    ManageArticlePages(pages: pages, articles: useCases.articles, authoring: useCases.articleAuthoring,
                       importFeed: useCases.importArticleFeed)
        .register(authors: authors)
    if config.triviaAPI {
        OpenTriviaRoutes(trivia: useCases.openTrivia, requestInterval: config.triviaRequestInterval).register(on: router)
    }
    // The API: who may call each operation is declared in `APIHandler`, by operation group.
    let handler = APIHandler(useCases: useCases, config: config, time: time)
    GuessRoute(games: useCases.nameAllGames, signedIn: handler.signedIn).register(on: router)
    let generated = GeneratedRoutes(router: router, servedElsewhere: [.init(method: GuessRoute.method, path: GuessRoute.generatedPath)])
    for (method, path, policy) in APIRoutes.policies { routes.declare(policy, method, RouterPath("/api/v1" + path)) }
    // Compact, unsorted JSON: pretty-printing and key sorting cost a third of a question list response.
    try handler.registerHandlers(on: generated, serverURL: URL(string: "/api/v1")!, configuration: .init(dateTranscoder: APIDates(), jsonEncodingOptions: []))
    return (router, useCases)
}

/// Every request's cached reads see the writes that any instance finished before it arrived.
struct ServingMiddleware<Context: RequestContext>: RouterMiddleware {
    let store: CachedStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await store.serving { try await next(request, context) }
    }
}

/// Pages may load only Quizbox's own stylesheet and scripts; API responses may load nothing.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let isPage = response.headers[.contentType]?.hasPrefix("text/html") == true
        response.headers[.contentSecurityPolicy] = isPage ? PageRenderer.contentSecurityPolicy : "default-src 'none'; frame-ancestors 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

/// Closes the database after the HTTP server has drained, so no in-flight write is cut off.
struct DatabaseService: Service {
    let database: QuizDatabase
    let logger: Logger

    func run() async throws {
        // Cancellation also ends the wait; either way the database is closed last.
        do { try await gracefulShutdown() } catch is CancellationError {}
        try await database.close()
        logger.info("database closed")
    }
}
