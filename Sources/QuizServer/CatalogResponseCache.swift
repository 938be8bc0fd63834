import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizStore
import QuizUseCases

/// Keeps the encoded bytes of public catalog responses (subjects, topics, quizzes, a quiz's
/// questions: the routes declared `RoutePolicy.publicCache`) for the catalog cache's lifetime.
/// They are the same for every caller, and encoding a question list costs far more than serving it.
struct CatalogResponseCache<Context: RequestContext>: RouterMiddleware {
    struct Stored: Sendable {
        var generation: Int
        var headers: HTTPFields
        var body: ByteBuffer

        func response() -> Response {
            var headers = headers
            headers[.contentLength] = String(body.readableBytes)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        }
    }

    let cache: ReadCache<String, Stored>
    let lifetime: TimeInterval
    /// Counted here, not by the `ReadCache`: an entry of an older catalog generation is a miss.
    let counters: CacheCounters?
    let generation: @Sendable () async throws -> Int
    let policies: RoutePolicies

    init(lifetime: TimeInterval, time: any TimeSource, policies: RoutePolicies, counters: CacheCounters? = nil,
         generation: @escaping @Sendable () async throws -> Int) {
        self.policies = policies
        cache = ReadCache(lifetime: lifetime, time: time, maxEntries: 5_000)
        self.lifetime = lifetime
        self.counters = counters
        self.generation = generation
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method == .get, request.uri.query == nil, path.utf8.count <= 100,
              policies.policy(.get, endpoint: context.endpointPath)?.publicCache == true else {
            return try await next(request, context)
        }
        let current = try await generation()
        if let stored = cache.cached(path), stored.generation == current {
            counters?.hits.increment()
            return stored.response()
        }
        if lifetime > 0 { counters?.misses.increment() }
        let response = try await next(request, context)
        guard response.status == .ok, response.headers[.setCookie] == nil else { return response }
        let collector = Collector()
        try await response.body.write(CollectingWriter(collector: collector))
        let stored = Stored(generation: current, headers: response.headers, body: collector.buffer)
        cache.insert(stored, for: path)
        return stored.response()
    }
}

private final class Collector: @unchecked Sendable {
    var buffer = ByteBuffer()
}

private struct CollectingWriter: ResponseBodyWriter {
    let collector: Collector

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        collector.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
