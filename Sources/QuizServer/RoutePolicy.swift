import HTTPTypes
import Hummingbird
import Synchronization

/// What the middlewares that run before a route must know about it, declared where the route is
/// registered. Hummingbird resolves a request's route before any middleware runs, so they read
/// the policy of the route's endpoint (`context.endpointPath`); none of them parses paths.
struct RoutePolicy: Sendable {
    /// The body the route may receive and who may send that much; nil: the server's default.
    var body: BodyAllowance?
    /// A page form whose expired-token refusal offers what was typed back: resending it harms
    /// nobody (registering, posting, answering, starting practice or a game).
    var resendable = false
    /// A public read whose bytes are the same for everyone (its handler reads no credential):
    /// `CatalogResponseCache` keeps them.
    var publicCache = false

    static let resendable = RoutePolicy(resendable: true)
    static let publicCache = RoutePolicy(publicCache: true)
    static func body(_ allowance: BodyAllowance) -> RoutePolicy { RoutePolicy(body: allowance) }
}

/// The policies of an application's routes: written while routes are registered, read per request.
final class RoutePolicies: Sendable {
    private struct State {
        /// By method and path with its parameters unnamed (`/quizzes/{}`), as declared.
        var declared: [String: [HTTPRequest.Method: RoutePolicy]] = [:]
        /// By the endpoint as Hummingbird names it (the first registration's parameter names).
        var resolved: [String: [HTTPRequest.Method: RoutePolicy]] = [:]
    }

    private let state = Mutex(State())

    func declare(_ policy: RoutePolicy, _ method: HTTPRequest.Method, _ path: RouterPath) {
        let key = Self.unnamed(path.description)
        state.withLock {
            $0.declared[key, default: [:]][method] = policy
            $0.resolved = [:]
        }
    }

    /// The policy of the route a request resolved to; nil for a route that declared none.
    func policy(_ method: HTTPRequest.Method, endpoint: String?) -> RoutePolicy? {
        guard let endpoint else { return nil }
        return state.withLock { state in
            if let known = state.resolved[endpoint] { return known[method] }
            // Once per endpoint: the routes are few, so this is bounded.
            let policies = state.declared[Self.unnamed(endpoint)] ?? [:]
            state.resolved[endpoint] = policies
            return policies[method]
        }
    }

    /// Every declared route, for tests that check each is served.
    var declared: [(method: HTTPRequest.Method, path: String)] {
        state.withLock { $0.declared.flatMap { path, byMethod in byMethod.keys.map { ($0, path) } } }
    }

    /// `/play/{attempt}/questions/{id}` → `/play/{}/questions/{}`: two routes on one path may name
    /// their parameters differently.
    static func unnamed(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("{") && $0.hasSuffix("}") ? "{}" : String($0) }
            .joined(separator: "/")
    }
}

extension RouterMethods {
    /// Registers a route with what the middlewares before it must know: `path` is the whole path
    /// (the groups Quizbox registers on add none of their own).
    @discardableResult
    func on(_ path: RouterPath, method: HTTPRequest.Method, policy: RoutePolicy, in policies: RoutePolicies,
            use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator) -> Self {
        policies.declare(policy, method, path)
        return on(path, method: method, use: handler)
    }

    @discardableResult
    func post(_ path: RouterPath, policy: RoutePolicy, in policies: RoutePolicies,
              use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator) -> Self {
        on(path, method: .post, policy: policy, in: policies, use: handler)
    }
}
