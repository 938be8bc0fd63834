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
    }

    let cache: ReadCache<String, Stored>
    let generation: @Sendable () -> Int

    init(lifetime: TimeInterval, time: any TimeSource, generation: @escaping @Sendable () -> Int) {
        cache = ReadCache(lifetime: lifetime, time: time, maxEntries: 5_000)
        self.generation = generation
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard request.method == .get, request.uri.query == nil, path.utf8.count <= 100, Self.isCatalog(path) else {
            return try await next(request, context)
        }
        let current = generation()
        var fresh: Response?
        let stored = try await cache.value(for: path) {
            let response = try await next(request, context)
            guard response.status == .ok else {
                fresh = response
                return nil
            }
            let collector = Collector()
            try await response.body.write(CollectingWriter(collector: collector))
            return Stored(generation: current, headers: response.headers, body: collector.buffer)
        }
        if let fresh { return fresh }
        guard var stored, stored.generation == current else {
            cache.remove(path)
            return try await handle(request, context: context, next: next)
        }
        stored.headers[.contentLength] = String(stored.body.readableBytes)
        return Response(status: .ok, headers: stored.headers, body: .init(byteBuffer: stored.body))
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
