import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizStore
import QuizUseCases

/// Keeps the encoded bytes of public catalog responses (subjects, topics, quizzes, a quiz's
/// questions) for the catalog cache's lifetime. They are the same for every caller, and
/// encoding a question list costs far more than serving it.
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

    init(lifetime: TimeInterval, time: any TimeSource, counters: CacheCounters? = nil,
         generation: @escaping @Sendable () async throws -> Int) {
        cache = ReadCache(lifetime: lifetime, time: time, maxEntries: 5_000)
        self.lifetime = lifetime
        self.counters = counters
        self.generation = generation
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method == .get, request.uri.query == nil, path.utf8.count <= 100, CatalogRoutes.isPublic(path) else {
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

public enum CatalogRoutes {
    /// The routes cached, each public by construction: its handler reads no credential, so the
    /// bytes are the same for everyone. Anything else under these prefixes (an export, say) is an
    /// author's and must never be stored; a new public route is added here by name.
    public static func isPublic(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "api", "v1", …
        guard parts.count >= 4, parts[0].isEmpty, parts[1] == "api", parts[2] == "v1" else { return false }
        switch (parts.count, parts[3]) {
        case (4, "subjects"): return true  // /api/v1/subjects
        case (6, "subjects"): return isID(parts[4]) && parts[5] == "topics"
        case (6, "topics"): return isID(parts[4]) && parts[5] == "quizzes"
        case (5, "quizzes"): return isID(parts[4])
        case (6, "quizzes"): return isID(parts[4]) && parts[5] == "questions"
        default: return false
        }
    }

    private static func isID(_ part: Substring) -> Bool {
        !part.isEmpty && part.utf8.count <= 19 && part.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
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
