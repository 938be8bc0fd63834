import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// The generated operations on the router, but for those a route of our own serves, so each path
/// has one handler.
struct GeneratedRoutes: ServerTransport {
    /// An operation as the generated code registers it: its method and openapi.yaml's path.
    struct Operation: Hashable {
        var method: HTTPRequest.Method
        var path: String
    }

    let router: Router<AppRequestContext>
    var servedElsewhere: Set<Operation> = []
    /// Policy attached where an operation is registered: a route group of its own, carrying the
    /// middleware for that operation alone (its body limit, say). None yet; without one an
    /// operation goes on the router itself.
    var groups: [Operation: RouterGroup<AppRequestContext>] = [:]

    func register(_ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
                  method: HTTPRequest.Method, path: String) throws {
        let operation = Operation(method: method, path: path)
        guard !servedElsewhere.contains(operation) else { return }
        if let group = groups[operation] {
            group.register(handler, method: method, path: path)
        } else {
            router.register(handler, method: method, path: path)
        }
    }
}
