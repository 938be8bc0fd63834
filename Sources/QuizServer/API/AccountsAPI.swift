import Foundation
import HTTPTypes
import QuizAPI
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases

/// Accounts (`Register`, `LogIn`, `Sessions`, `Profile`): anyone registers, logs in and lists the
/// sign-in providers; a signed-in caller logs out and reads their own account.
struct AccountsAPI: Sendable {
    let register: Register
    let passwordLogIn: LogIn
    let sessions: Sessions
    let profile: Profile
    let config: ServerConfig

    func registerUser(_ input: Operations.RegisterUser.Input) async throws -> Operations.RegisterUser.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let registration = Registration(username: body.username, firstName: body.firstName, lastName: body.lastName, password: body.password)
        do {
            let user = try await register(registration, address: ClientAddress.current)
            return .created(.init(body: .json(.init(user))))
        } catch let failure as Register.Failure {
            throw APIError(failure)
        }
    }

    func logIn(_ input: Operations.LogIn.Input) async throws -> Operations.LogIn.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        do {
            let session = try await passwordLogIn(username: body.username, password: body.password, address: ClientAddress.current)
            ResponseCookies.set(SessionTokens.cookie(session.token, maxAge: Int(config.sessionLifetime), secure: config.secureCookies))
            return .ok(.init(body: .json(.init(token: session.token, expiresAt: session.expiresAt, user: .init(session.user)))))
        } catch let failure as LogIn.Failure {
            throw APIError(failure)
        }
    }

    func logOut(_ input: Operations.LogOut.Input, by _: SignedInCaller) async throws -> Operations.LogOut.Output {
        if let credential = RequestCredential.current { try await sessions.end(token: credential.token) }
        ResponseCookies.set(SessionTokens.clearingCookie(secure: config.secureCookies))
        return .noContent(.init())
    }

    func listAuthProviders(_ input: Operations.ListAuthProviders.Input) async throws -> Operations.ListAuthProviders.Output {
        let base = config.resolvedPublicURL
        return .ok(.init(body: .json(.init(providers: config.oauthProviders.map {
            .init(name: $0.name, displayName: $0.displayName, startUrl: "\(base)/auth/\($0.name)/start")
        }))))
    }

    func getMe(_ input: Operations.GetMe.Input, by caller: SignedInCaller) async throws -> Operations.GetMe.Output {
        let me: Profile.Me
        do {
            me = try await profile.me(userId: caller.user.id)
        } catch Profile.Failure.accountGone {
            throw APIError.invalidToken
        }
        let user = me.user
        return .ok(.init(body: .json(.init(
            id: user.id, username: user.username, firstName: user.firstName, lastName: user.lastName,
            role: .init(user.role), createdAt: user.createdAt, points: user.points, rank: me.rank,
            quizzesFinished: Int64(me.quizzesFinished)
        ))))
    }
}

extension APIError {
    static let unsupportedMediaType = APIError(HTTPResponse.Status.unsupportedMediaType, "unsupported_media_type", "Send JSON.")

    init(_ failure: Register.Failure) {
        switch failure {
        case .invalid(let problems):
            // The code names the first field, as it always has; `problems` lists every one.
            let first = problems[0]
            self.init(.unprocessableContent, "invalid_\(first.field)", first.message, field: first.field,
                      problems: problems.map { FormatProblem(path: $0.field, message: $0.message) })
        case .usernameTaken(let username):
            self.init(.conflict, "username_taken", "The username '\(username)' is taken.", field: "username")
        case .tooManyRegistrations:
            self.init(.tooManyRequests, "too_many_registrations", Register.tooManyMessage)
            retryAfter = Register.retryAfter
        }
    }

    init(_ failure: LogIn.Failure) {
        switch failure {
        case .tooManyAttempts:
            self.init(.tooManyRequests, "too_many_attempts", LogIn.tooManyMessage)
            retryAfter = LogIn.retryAfter
        case .missingFields, .refused:
            self.init(.unauthorized, "invalid_credentials", "Wrong username or password.")
        }
    }
}
