import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: gives each request an id (returned in `X-Request-Id` and put on every
/// log line of the request), counts and times it for `/metrics`, and logs one line when it is
/// answered. Timed to the moment the response is handed back (a streamed body's writing is not
/// included), so the log line and the histogram agree.
struct RequestObserver<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let logRequests: Bool
    /// Set when the server logs through a `LogSink` at `info` or finer: the request line is then
    /// written straight into it, skipping swift-log's metadata dictionaries (a quarter of /health's
    /// throughput went to them and to a locked, blocking stderr).
    let sink: (label: String, sink: LogSink)?

    init(metrics: ServerMetrics, logRequests: Bool, logger: Logger) {
        self.metrics = metrics
        self.logRequests = logRequests
        if let handler = logger.handler as? SinkLogHandler, logger.logLevel <= .info {
            sink = (handler.label, handler.sink)
        } else {
            sink = nil
        }
    }

    /// What an unmatched request is counted and logged under: never its raw path, which anyone can vary.
    static var unmatchedRoute: String { "unmatched" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        var context = context
        let id: String
        if let given = RequestIdentifier.accepted(request.headers[RequestIdentifier.header]) {
            id = given
            context.logger[metadataKey: "hb.request.id"] = .string(given)
        } else if let assigned = context.logger[metadataKey: "hb.request.id"] {
            // Hummingbird's own, already on the logger: setting it again would copy the logger's storage.
            id = assigned.description
        } else {
            id = RequestID().description
            context.logger[metadataKey: "hb.request.id"] = .string(id)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // Turned into its response here rather than by Hummingbird, so it carries the id too.
            response = try error.response(from: request, context: context)
        } catch {
            finish(request, context: context, status: 500, started: started, id: id)
            throw error
        }
        response.headers[RequestIdentifier.header] = id
        finish(request, context: context, status: response.status.code, started: started, id: id)
        return response
    }

    private func finish(_ request: Request, context: Context, status: Int, started: UInt64, id: String) {
        let nanoseconds = DispatchTime.now().uptimeNanoseconds - started
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? Self.unmatchedRoute
        metrics.record(route: route, method: request.method, status: status, nanoseconds: nanoseconds)
        guard logRequests else { return }
        if let (label, sink) = sink {
            // The same line as below, in the same order (metadata keys sorted).
            sink.append { line in
                line.appendLog("info ")
                line.appendLog(label)
                line.appendLog(": duration_ms=")
                line.appendLogMilliseconds(nanoseconds: nanoseconds)
                line.appendLog(" hb.request.id=")
                line.appendLog(id)
                line.appendLog(" method=")
                line.appendLog(request.method.rawValue)
                line.appendLog(" route=")
                line.appendLog(route)
                line.appendLog(" status=")
                line.appendLog(status)
                line.appendLog(" [QuizServer] request")
            }
            return
        }
        context.logger.info("request", metadata: [
            "method": .string(request.method.rawValue),
            "route": .string(route),
            "status": .stringConvertible(status),
            // Microseconds rounded, shown as milliseconds: 0.412, not 0.41234567.
            "duration_ms": .stringConvertible(Double(nanoseconds / 1000) / 1000),
        ])
    }
}

/// Request ids: a client's or proxy's own `X-Request-Id` is kept when it is short and plain,
/// so a request can be followed through both logs; anything else is replaced, since it lands in
/// log lines and response headers.
enum RequestIdentifier {
    static let header = HTTPField.Name("X-Request-Id")!
    static let maxLength = 64

    static func accepted(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= maxLength,
              value.utf8.allSatisfy({ isSafe($0) }) else { return nil }
        return value
    }

    private static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
            true
        default:
            false
        }
    }
}
