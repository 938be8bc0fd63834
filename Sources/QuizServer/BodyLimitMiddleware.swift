import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizUseCases
import Synchronization

/// Reads the whole body up front, refusing it past the route's allowance (413) before any handler
/// sees it. The routes that take large bodies (imports, posts with images) declare so where they
/// are registered (`RoutePolicy.body`) and first check who is asking, so nobody signed out makes
/// the server hold megabytes; and every body held counts against a memory budget, overall and per
/// client address, so a flood gets 503s instead of the memory.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let budget: BodyBudget
    let policies: RoutePolicies
    /// The signed-in user of the current request (its credential is already read), or nil when
    /// there is none. Throws when the session cannot be looked up (the database is away: 503).
    let signedInUser: @Sendable () async throws -> User?
    /// What a route that declares no allowance may receive: made once, not per request.
    let standard: BodyAllowance

    init(defaultMaxBytes: Int, budget: BodyBudget, policies: RoutePolicies, signedInUser: @escaping @Sendable () async throws -> User?) {
        self.budget = budget
        self.policies = policies
        self.signedInUser = signedInUser
        standard = BodyAllowance(maxBytes: defaultMaxBytes,
                                 tooLarge: APIError(.contentTooLarge, "body_too_large", "The request body is larger than \(defaultMaxBytes / 1024) KiB."),
                                 who: .anyone)
    }

    static var busy: APIError {
        var error = APIError(.serviceUnavailable, "busy", "Quizbox is receiving too much at once. Please try again in a few seconds.")
        error.retryAfter = 5
        return error
    }

    static var clientGone: APIError {
        APIError(.badRequest, "body_incomplete", "The request body ended before its end: the connection was closed.")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        // Without a length the body may be as large as the route allows (chunked, or a client
        // that did not say); a read-only method without one has none.
        let bodiless: Set<HTTPRequest.Method> = [.get, .head, .options, .delete]
        let unbounded = request.headers[.transferEncoding] != nil || !bodiless.contains(request.method)
        if declared == 0 || (declared == nil && !unbounded) { return try await next(request, context) }
        let limit = policies.policy(request.method, endpoint: context.endpointPath)?.body ?? standard
        if let declared, declared > limit.maxBytes { throw limit.tooLarge }
        let expected = declared ?? limit.maxBytes

        if limit.who != .anyone {
            guard let user = try await signedInUser() else {
                if let login = limit.loginPath { return Response(status: .seeOther, headers: [.location: login]) }
                throw APIError.unauthenticated
            }
            if limit.who == .authors, !user.role.canAuthor {
                throw APIError(.forbidden, "forbidden", limit.notAuthor)
            }
        }
        // A file or picture is copied while it is read (form parts, base64, the upload kept for
        // the preview): counted at three times its size, small bodies at their own.
        let reserved = limit.who == .anyone ? expected : expected * 3
        let address = ClientAddress.current
        guard budget.reserve(reserved, for: address) else { throw Self.busy }
        defer { budget.release(reserved, for: address) }
        var request = request
        do {
            _ = try await request.collectBody(upTo: limit.maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw limit.tooLarge
        } catch is NIOTooManyBytesError {
            // A chunked body has no length to refuse up front: this is where it goes over.
            throw limit.tooLarge
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The client hung up or sent a broken body: its doing, not the server's.
            throw Self.clientGone
        }
        return try await next(request, context)
    }
}

/// What a route may receive, and who may send that much.
struct BodyAllowance: Sendable {
    enum Who: Sendable { case anyone, signedIn, authors }
    var maxBytes: Int
    var tooLarge: APIError
    var who: Who
    /// Where a page sends someone signed out (an API route answers 401).
    var loginPath: String?
    /// What a signed-in player is told on an authors' route.
    var notAuthor = "Only authors and admins may import questions."

    /// A question bank sent to the API: as large as a file import.
    static var importFile: BodyAllowance {
        BodyAllowance(maxBytes: ImportBank.maxFileBytes,
                      tooLarge: APIError(.contentTooLarge, "body_too_large", "The request body is larger than \(ImportBank.maxFileBytes / 1024) KiB."),
                      who: .authors)
    }

    /// The manage page's import form: a file up to the import limit, and its few short fields.
    static var importPage: BodyAllowance {
        BodyAllowance(maxBytes: ImportBank.maxFileBytes + (64 << 10),
                      tooLarge: APIError(.contentTooLarge, "body_too_large",
                                         "The file is larger than the import limit of \(ImportBank.maxFileBytes >> 20) MiB. Nothing was imported."),
                      who: .authors, loginPath: "/login?next=/manage")
    }

    /// A post with an image: 5 MiB of image and its text. The page's form sends the bytes as they
    /// are; the API sends them in base64, a third larger.
    static var postPage: BodyAllowance {
        BodyAllowance(maxBytes: PostImageType.maxBytes + (64 << 10),
                      tooLarge: APIError(.contentTooLarge, "image_too_large",
                                         "The image is larger than the limit of \(PostImageType.maxBytes >> 20) MiB. Nothing was posted."),
                      who: .signedIn, loginPath: "/login?next=/feed")
    }

    /// What the API takes with a picture in base64: 5 MiB of image is about 6.7 MiB of text.
    static var base64PictureBytes: Int { 7 << 20 }

    static var post: BodyAllowance {
        BodyAllowance(maxBytes: base64PictureBytes,
                      tooLarge: APIError(.contentTooLarge, "image_too_large",
                                         "The request body is larger than \(base64PictureBytes >> 20) MiB: an image may be at most \(PostImageType.maxBytes >> 20) MiB. Nothing was posted."),
                      who: .signedIn)
    }

    /// A cover: one picture, its bytes as they are, and the form's few fields.
    static var picturePage: BodyAllowance {
        BodyAllowance(maxBytes: PostImageType.maxBytes + (64 << 10),
                      tooLarge: APIError(.contentTooLarge, "body_too_large",
                                         "The picture is larger than the limit of \(PostImageType.maxBytes >> 20) MiB. Nothing was saved."),
                      who: .authors, loginPath: "/login?next=/manage", notAuthor: "This needs an author or admin account.")
    }

    /// A question with a picture and a sound clip: the form sends the bytes as they are (and the
    /// other fields), the API in base64 as posts do.
    static var questionPage: BodyAllowance {
        BodyAllowance(maxBytes: PostImageType.maxBytes + AudioClip.maxBytes + (64 << 10),
                      tooLarge: APIError(.contentTooLarge, "body_too_large",
                                         "The files are larger than the limits: a picture may be at most \(PostImageType.maxBytes >> 20) MiB and a sound clip \(AudioClip.maxBytes >> 20) MiB. Nothing was saved."),
                      who: .authors, loginPath: "/login?next=/manage", notAuthor: "This needs an author or admin account.")
    }

    /// A picture and a clip in base64: 13 MiB of files is about 17.4 MiB of text.
    static var base64QuestionBytes: Int { 18 << 20 }

    static var question: BodyAllowance {
        BodyAllowance(maxBytes: base64QuestionBytes,
                      tooLarge: APIError(.contentTooLarge, "body_too_large",
                                         "The request body is larger than \(base64QuestionBytes >> 20) MiB: a picture may be at most \(PostImageType.maxBytes >> 20) MiB and a sound clip \(AudioClip.maxBytes >> 20) MiB. Nothing was saved."),
                      who: .authors, notAuthor: "This needs an author or admin account.")
    }
}

/// Bytes of request bodies held at once: at most `total` for everyone and `perClient` for one
/// address. A body reserves its declared length, or its route's limit when it is chunked.
final class BodyBudget: Sendable {
    let total: Int
    let perClient: Int
    private let state = Mutex<(used: Int, byClient: [String: Int])>((0, [:]))

    init(total: Int, perClient: Int) {
        self.total = total
        self.perClient = perClient
    }

    func reserve(_ bytes: Int, for client: String) -> Bool {
        state.withLock { state in
            let mine = state.byClient[client, default: 0]
            // One body larger than the per-client share still gets through when the client has
            // nothing else in flight: the route's own limit bounds it.
            guard state.used + bytes <= total, mine == 0 || mine + bytes <= perClient else { return false }
            state.used += bytes
            state.byClient[client] = mine + bytes
            return true
        }
    }

    func release(_ bytes: Int, for client: String) {
        state.withLock { state in
            state.used -= bytes
            let left = state.byClient[client, default: 0] - bytes
            state.byClient[client] = left > 0 ? left : nil
        }
    }

    var used: Int { state.withLock { $0.used } }
}
