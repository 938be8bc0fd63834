import Configuration
import Foundation
import QuizStore
import QuizUseCases

/// Every setting of a running server. Each has a default that works on a laptop.
public struct ServerConfig: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// A SQLite file path, or a `postgres://` / `postgresql://` URL.
    public var database = "quizbox.sqlite"
    public var databasePoolSize = 4
    public var minimumPasswordLength = 8
    /// bcrypt cost; 12 in production, lowered only by tests.
    public var bcryptCost = 12
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// Adds `Secure` to the session cookie; turn on behind HTTPS.
    public var secureCookies = false
    /// Loads the starter question bank into an empty database.
    public var loadStarterBank = true
    public var maxBodyBytes = 1 << 20
    /// Request bodies held in memory at once, for everyone and for one client address; past
    /// either, a request gets 503 with Retry-After instead of the memory.
    public var maxBodyMemoryBytes = 128 << 20
    public var maxBodyMemoryPerClientBytes = 48 << 20
    /// Seconds a connection may send nothing (between requests, or mid-request) before it is closed.
    public var idleTimeout: TimeInterval = 30
    /// Seconds between pings to a live game's socket; one that has not answered the last ping by
    /// the next is closed (a phone that lost its network sends nothing at all).
    public var livePingInterval: TimeInterval = 30
    /// Seconds after which a request body must have averaged 1 KiB/s, checked again every so many.
    public var readTimeout: TimeInterval = 20
    /// Where uploaded files live (post images under `images/`); created when first needed.
    public var dataDirectory = "quizbox-data"
    /// How much one person may post.
    public struct PostLimits: Sendable {
        public var perMinute = 10
        public var perHour = 100
        public var imagesPerHour = 30
        /// Bytes of pictures one person's posts may hold together (deleting a post frees its share).
        public var imageQuotaBytes = 100 << 20
    }
    public var postLimits = PostLimits()
    /// Seconds catalog reads, sessions and the leaderboard are served from memory; 0 turns caching
    /// off. On SQLite, changes made through this server show at once, changes from another process
    /// (`quizbox import`) within this time. On PostgreSQL, changes made through any Quizbox
    /// instance show at once (every request first reads the instances' change counters), and only
    /// changes made by hand in SQL wait for this time.
    /// Nil: 2 on SQLite, 60 on PostgreSQL (see `resolvedCacheLifetime`).
    public var cacheLifetime: TimeInterval?

    public var resolvedCacheLifetime: TimeInterval {
        cacheLifetime ?? (QuizDatabase.isPostgresURL(database) ? 60 : 2)
    }
    /// Who runs this Quizbox, shown on the Contact page.
    public var contactText = "Questions about a quiz, a wrong answer, or your account? Write to the people who run this Quizbox."
    public var contactEmail = "quizbox@localhost"
    public var contactURL = ""
    /// Log-in attempts allowed each minute for one account from one client address.
    public var loginAttemptsPerMinute = 10
    /// Log-in attempts allowed each minute from one client address, whatever the accounts (a
    /// classroom behind one address logs in together).
    public var loginAttemptsPerAddressPerMinute = 60
    /// Accounts one client address may create per hour.
    public var registrationsPerAddressPerHour = 30
    /// Serves Open Trivia DB's API (`/api.php` …) from the bank. It hands out correct answers, as
    /// Open Trivia DB does, before anyone answers: so it is off until the operator turns it on.
    public var triviaAPI = false
    /// Seconds between two Open Trivia DB API requests from one address (Open Trivia DB: 5); 0 for no limit.
    public var triviaRequestInterval: TimeInterval = 5
    /// Lets remote imports load from loopback, private and link-local addresses (off: an author
    /// could otherwise make the server fetch internal services).
    public var remoteImportAllowPrivate = false
    /// The address people reach this Quizbox at (scheme, host, port, no trailing slash), for links
    /// that leave the site: external sign-in's redirect URI is `{publicURL}/auth/{provider}/callback`.
    /// Empty: `http://{host}:{port}`, right only on a laptop.
    public var publicURL = ""
    /// Live games: games one host may run at once, players one game takes, and joins (and
    /// rejoins) one client address may try a minute (a stadium behind carrier NAT needs more).
    public var liveGamesPerHost = 5
    public var livePlayersPerGame = 10_000
    public var liveJoinsPerAddressPerMinute = 120
    /// Live-game sockets one client address may hold open at once (a socket costs a file descriptor).
    public var liveSocketsPerAddress = 1_000
    /// Reverse proxies whose `X-Forwarded-For` names the client ("127.0.0.1, 10.0.0.0/8"); empty
    /// (the default) believes no such header, and every client is the address it connects from.
    public var trustedProxies = ""
    /// External sign-in providers ("Sign in with GitHub"), in button order.
    public var oauthProviders: [OAuthProviderConfig] = []
    /// Seconds a sign-in may spend at the provider (and choosing a username) before it must start over.
    public var oauthPendingLifetime: TimeInterval = 10 * 60

    /// Serves `GET /metrics` in Prometheus text format (404 while off).
    public var metrics = false
    /// When set, `/metrics` wants `Authorization: Bearer <token>` (401 otherwise).
    public var metricsToken = ""
    /// Logs one `info` line per request (method, route, status, duration, request id).
    public var logRequests = true
    /// Settings that could not be read, as messages; `buildApplication` refuses to start with any.
    public var problems: [String] = []

    /// `publicURL`, or the listening address when none is set.
    public var resolvedPublicURL: String {
        var url = publicURL.isEmpty ? "http://\(host):\(port)" : publicURL
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// `trustedProxies`, read; none when it cannot be (`init(reader:)` lists it as a problem).
    var proxies: TrustedProxies { (try? TrustedProxies(trustedProxies)) ?? .none }

    /// The limits remote imports run with on this server.
    public var remoteImportLimits: RemoteBankLoader.Limits {
        var limits = RemoteBankLoader.Limits()
        limits.allowPrivateAddresses = remoteImportAllowPrivate
        return limits
    }

    public init() {}

    /// The database for messages and logs: a PostgreSQL URL without its password.
    public var databaseDescription: String { QuizDatabase.redacted(database) }

    /// Reads `quizbox.*` keys: with the environment provider, `QUIZBOX_PORT`, `QUIZBOX_DATABASE`, …
    public init(reader: ConfigReader) {
        let config = reader.scoped(to: "quizbox")
        host = config.string(forKey: "host", default: host)
        port = config.int(forKey: "port", default: port)
        // QUIZBOX_DATABASE_URL names PostgreSQL the way most hosts hand it out; it wins over QUIZBOX_DATABASE.
        database = config.string(forKey: "databaseUrl", default: config.string(forKey: "database", default: database))
        databasePoolSize = config.int(forKey: "databasePoolSize", default: databasePoolSize)
        minimumPasswordLength = config.int(forKey: "minimumPasswordLength", default: minimumPasswordLength)
        bcryptCost = config.int(forKey: "bcryptCost", default: bcryptCost)
        sessionLifetime = config.double(forKey: "sessionLifetimeSeconds", default: sessionLifetime)
        secureCookies = config.bool(forKey: "secureCookies", default: secureCookies)
        loadStarterBank = config.bool(forKey: "starterBank", default: loadStarterBank)
        maxBodyBytes = config.int(forKey: "maxBodyBytes", default: maxBodyBytes)
        maxBodyMemoryBytes = config.int(forKey: "maxBodyMemoryBytes", default: maxBodyMemoryBytes)
        idleTimeout = config.double(forKey: "idleTimeoutSeconds", default: idleTimeout)
        readTimeout = config.double(forKey: "readTimeoutSeconds", default: readTimeout)
        livePingInterval = config.double(forKey: "livePingSeconds", default: livePingInterval)
        maxBodyMemoryPerClientBytes = config.int(forKey: "maxBodyMemoryPerClientBytes", default: maxBodyMemoryPerClientBytes)
        dataDirectory = config.string(forKey: "dataDirectory", default: dataDirectory)
        postLimits.perMinute = config.int(forKey: "postsPerMinute", default: postLimits.perMinute)
        postLimits.perHour = config.int(forKey: "postsPerHour", default: postLimits.perHour)
        postLimits.imagesPerHour = config.int(forKey: "postImagesPerHour", default: postLimits.imagesPerHour)
        postLimits.imageQuotaBytes = config.int(forKey: "imageQuotaBytes", default: postLimits.imageQuotaBytes)
        cacheLifetime = config.double(forKey: "cacheLifetimeSeconds")
        contactText = config.string(forKey: "contactText", default: contactText)
        contactEmail = config.string(forKey: "contactEmail", default: contactEmail)
        contactURL = config.string(forKey: "contactUrl", default: contactURL)
        loginAttemptsPerMinute = config.int(forKey: "loginAttemptsPerMinute", default: loginAttemptsPerMinute)
        loginAttemptsPerAddressPerMinute = config.int(forKey: "loginAttemptsPerAddressPerMinute", default: loginAttemptsPerAddressPerMinute)
        registrationsPerAddressPerHour = config.int(forKey: "registrationsPerAddressPerHour", default: registrationsPerAddressPerHour)
        remoteImportAllowPrivate = config.bool(forKey: "remoteImportAllowPrivate", default: remoteImportAllowPrivate)
        triviaAPI = config.bool(forKey: "triviaApi", default: triviaAPI)
        triviaRequestInterval = config.double(forKey: "triviaRequestIntervalSeconds", default: triviaRequestInterval)
        publicURL = config.string(forKey: "publicUrl", default: publicURL)
        liveGamesPerHost = config.int(forKey: "liveGamesPerHost", default: liveGamesPerHost)
        livePlayersPerGame = config.int(forKey: "livePlayersPerGame", default: livePlayersPerGame)
        liveJoinsPerAddressPerMinute = config.int(forKey: "liveJoinsPerAddressPerMinute", default: liveJoinsPerAddressPerMinute)
        liveSocketsPerAddress = config.int(forKey: "liveSocketsPerAddress", default: liveSocketsPerAddress)
        trustedProxies = config.string(forKey: "trustedProxies", default: trustedProxies)
        do { _ = try TrustedProxies(trustedProxies) } catch { problems.append(error.description) }
        oauthProviders = OAuthProviderConfig.all(from: config)
        metrics = onOff(config, "metrics", env: "QUIZBOX_METRICS", default: metrics)
        metricsToken = config.string(forKey: "metricsToken", isSecret: true) ?? metricsToken
        logRequests = onOff(config, "logRequests", env: "QUIZBOX_LOG_REQUESTS", default: logRequests)
    }

    /// A setting that could not be read, named as the operator wrote it.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Throws the first setting that could not be read.
    public func checkProblems() throws(Problem) {
        if let first = problems.first { throw Problem(description: first) }
    }

    /// Reads an on/off switch (also true/false, yes/no, 1/0); anything else is a problem.
    private mutating func onOff(_ config: ConfigReader, _ key: String, env: String, default value: Bool) -> Bool {
        guard let text = config.string(forKey: ConfigKey(key)) else { return value }
        switch text.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default:
            problems.append("\(env) must be on or off, not \"\(text.prefix(40))\"")
            return value
        }
    }
}
