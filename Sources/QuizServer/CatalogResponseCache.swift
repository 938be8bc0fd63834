import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizStore

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
    let generation: @Sendable () async throws -> Int

    init(lifetime: TimeInterval, time: any TimeSource, generation: @escaping @Sendable () async throws -> Int) {
        cache = ReadCache(lifetime: lifetime, time: time, maxEntries: 5_000)
        self.generation = generation
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method == .get, request.uri.query == nil, path.utf8.count <= 100, Self.isCatalog(path) else {
            return try await next(request, context)
        }
        let current = try await generation()
        if let stored = cache.cached(path), stored.generation == current {
            return stored.response()
        }
        let response = try await next(request, context)
        guard response.status == .ok else { return response }
        let collector = Collector()
        try await response.body.write(CollectingWriter(collector: collector))
        let stored = Stored(generation: current, headers: response.headers, body: collector.buffer)
        cache.insert(stored, for: path)
        return stored.response()
    }

    static func isCatalog(_ path: String) -> Bool {
        path == "/api/v1/subjects" || path.hasPrefix("/api/v1/subjects/") || path.hasPrefix("/api/v1/topics/")
            || path.hasPrefix("/api/v1/quizzes/")
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
