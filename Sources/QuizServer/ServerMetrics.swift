import CoreMetrics
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus
import QuizStore
import QuizUseCases
import Synchronization

/// The figures of one application, in a Prometheus registry of its own.
///
/// Why not `MetricsSystem.bootstrap`: it may run once per process, and the tests start many
/// applications in one process, each of which must count only its own requests. So the factory is
/// made here and handed to whatever counts (store, use cases, request middleware); nothing
/// global is set, and nothing this server counts goes through swift-metrics' global factory.
final class ServerMetrics: Sendable {
    /// Nil while metrics are off: then every figure counts into swift-metrics' no-op handler.
    let registry: PrometheusCollectorRegistry?
    let factory: any MetricsFactory
    private let routes = Mutex<[RouteKey: RouteFigures]>([:])

    static let requestsLabel = "quizbox_http_requests_total"
    static let durationLabel = "quizbox_http_request_duration_seconds"

    init(enabled: Bool) {
        guard enabled else {
            registry = nil
            factory = NOOPMetricsHandler.instance
            return
        }
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Most requests take well under 5 ms, the factory's first bucket; a pool wait is usually ~0.
        let requests: [Duration] = [.microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                                    .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                                    .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(10)]
        let database: [Duration] = [.microseconds(100), .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10),
                                    .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5), .seconds(30)]
        factory.durationHistogramBuckets = [
            Self.durationLabel: requests,
            "quizbox_db_pool_wait_seconds": database,
            "quizbox_db_connection_held_seconds": database,
        ]
        self.registry = registry
        self.factory = factory
    }

    var isEnabled: Bool { registry != nil }
    var store: StoreMetrics? { isEnabled ? StoreMetrics(factory: factory) : nil }
    var activity: ActivityMetrics { isEnabled ? ActivityMetrics(factory: factory) : .off }

    // MARK: Requests

    private struct RouteKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private struct RouteFigures {
        let requests: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
    }

    /// The methods counted by name; any other (a client may send any token) counts as `OTHER`.
    private static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// One request: counted by route template, method and status; its time by route and method.
    func record(route: String, method: HTTPRequest.Method, status: Int, nanoseconds: UInt64) {
        guard isEnabled else { return }
        let method = Self.methods.contains(method.rawValue) ? method.rawValue : "OTHER"
        let key = RouteKey(route: route, method: method, status: status)
        let figures = routes.withLock { routes in
            if let figures = routes[key] { return figures }
            let figures = RouteFigures(
                requests: CoreMetrics.Counter(label: Self.requestsLabel,
                                  dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory),
                duration: CoreMetrics.Timer(label: Self.durationLabel, dimensions: [("route", route), ("method", method)], factory: factory))
            routes[key] = figures
            return figures
        }
        figures.requests.increment()
        figures.duration.recordNanoseconds(nanoseconds)
    }

    // MARK: Live games

    /// Read at each scrape rather than kept up to date, so they cannot drift from the games.
    private let live = Mutex<(@Sendable () -> (games: Int, players: Int))?>(nil)

    func watchLive(_ counts: @escaping @Sendable () -> (games: Int, players: Int)) {
        live.withLock { $0 = counts }
    }

    // MARK: The scrape

    /// The text a Prometheus server scrapes, after reading the gauges of the moment.
    func exposition() -> ByteBuffer {
        guard let registry else { return ByteBuffer() }
        if let counts = live.withLock({ $0 })?() {
            CoreMetrics.Meter(label: "quizbox_live_games_running", factory: factory).set(counts.games)
            CoreMetrics.Meter(label: "quizbox_live_players_connected", factory: factory).set(counts.players)
        }
        return ByteBuffer(bytes: registry.emitToBuffer())
    }
}

/// `GET /metrics`: registered only while metrics are on, so it is 404 when they are off.
struct MetricsRoute: Sendable {
    let metrics: ServerMetrics
    /// SHA-256 of the configured token; nil lets any scraper in.
    let tokenDigest: [UInt8]?

    init(metrics: ServerMetrics, token: String) {
        self.metrics = metrics
        tokenDigest = token.isEmpty ? nil : Array(SHA256.hash(data: Data(token.utf8)))
    }

    /// Longer headers are refused unread: a token is a few dozen characters.
    static let maxAuthorizationBytes = 1024

    func register(on router: Router<some RequestContext>) {
        router.get("/metrics") { request, _ -> Response in
            guard authorized(request.headers[.authorization]) else { return Self.unauthorized() }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: metrics.exposition()))
        }
    }

    /// Compares digests of equal length byte by byte without stopping early, so the time taken
    /// says nothing about how much of a guess was right.
    func authorized(_ header: String?) -> Bool {
        guard let tokenDigest else { return true }
        guard let header, header.utf8.count <= Self.maxAuthorizationBytes else { return false }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        let given = SHA256.hash(data: Data(parts[1].trimmingCharacters(in: .whitespaces).utf8))
        return zip(given, tokenDigest).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func unauthorized() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.wwwAuthenticate] = #"Bearer realm="quizbox-metrics""#
        let body = #"{"error":{"code":"unauthorized","message":"/metrics needs Authorization: Bearer with the metrics token."}}"#
        return Response(status: .unauthorized, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
