import Foundation
import HTTPTypes
import QuizCore
import QuizUseCases

/// Who calls an operation, as its group requires: made from the request's signed-in user, or
/// refused with the API's error. A handler that takes one runs for nobody else.
protocol APICaller: Sendable {
    var user: User { get }
    init(checking user: User) throws(APIError)
}

/// Anyone signed in.
struct SignedInCaller: APICaller {
    let user: User

    init(checking user: User) {
        self.user = user
    }
}

/// An author or admin: they write the bank, the catalog and the articles.
struct AuthorCaller: APICaller {
    let user: User

    init(checking user: User) throws(APIError) {
        guard user.role.canAuthor else { throw .needsAuthor }
        self.user = user
    }
}

/// An admin: roles and news feeds are theirs alone.
struct AdminCaller: APICaller {
    let user: User

    init(checking user: User) throws(APIError) {
        guard user.role.canManageUsers else { throw .needsAdmin }
        self.user = user
    }
}

/// Operations that need the same caller, as the pages' route groups (`SignedInContext`,
/// `AuthorContext`, `AdminContext`): before the handler runs, the credential `CredentialMiddleware`
/// put in its task-local is looked up once (`Sessions`, one session read), checked against the
/// group's rule, and handed over typed. An operation in no group looks nothing up. The use cases
/// still check roles themselves: the pages and the command line call them too.
struct APIGroup<Caller: APICaller>: Sendable {
    let sessions: Sessions

    func callAsFunction<Output>(_ operation: (Caller) async throws -> Output) async throws -> Output {
        try await operation(try await caller())
    }

    func caller() async throws -> Caller {
        let user: User
        do {
            user = try await sessions.user(token: RequestCredential.current?.token)
        } catch let failure as Sessions.Failure {
            throw APIError(failure)
        }
        return try Caller(checking: user)
    }
}

extension APIError {
    static let needsAuthor = APIError(.forbidden, "forbidden", "This needs an author or admin account.")
    static let needsAdmin = APIError(.forbidden, "forbidden", "This needs an admin account.")

    init(_ failure: Sessions.Failure) {
        self = switch failure {
        case .missing: .unauthenticated
        case .invalid: .invalidToken
        case .expired: .sessionExpired
        }
    }
}
