import Foundation
import HTTPTypes
import Logging
import QuizAPI
import QuizCore
import QuizStore

/// Implements the generated `APIProtocol`: turns wire input into store calls and domain values back into wire output.
struct APIHandler<Store: QuizStore>: APIProtocol {
    let store: Store
    let config: ServerConfig
    let time: any TimeSource
    let hasher: PasswordHasher
    let limiter: LoginRateLimiter
    let games: GameTable
    let guessLimiter: LoginRateLimiter
    let logger: Logger

    var authenticator: Authenticator<Store> { Authenticator(store: store, time: time) }
    var accounts: Accounts<Store> {
        Accounts(store: store, hasher: hasher, minimumPasswordLength: config.minimumPasswordLength, time: time)
    }

    var logInUseCase: LogIn<Store> {
        LogIn(store: store, hasher: hasher, limiter: limiter, time: time, sessionLifetime: config.sessionLifetime,
              perAddressPerMinute: config.loginAttemptsPerAddressPerMinute)
    }

    func requireUser() async throws -> User {
        try await authenticator.requireUser()
    }

    /// A quiz of the catalog: drafts are their authors', practice rounds their player's.
    func catalogQuiz(id: Int64) async throws -> QuizSummary? {
        guard let quiz = try await store.quiz(id: id), quiz.isListed else { return nil }
        return quiz
    }
}

// MARK: - Accounts

extension APIHandler {
    func registerUser(_ input: Operations.RegisterUser.Input) async throws -> Operations.RegisterUser.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let registration = Registration(username: body.username, firstName: body.firstName, lastName: body.lastName, password: body.password)
        do {
            let user = try await accounts.register(registration, address: ClientAddress.current, limiter: limiter,
                                                   limit: config.registrationsPerAddressPerHour)
            return .created(.init(body: .json(.init(user))))
        } catch let error as Registration.Invalid {
            throw APIError(.unprocessableContent, "invalid_\(error.field)", error.message, field: error.field)
        } catch StoreError.usernameTaken {
            throw APIError(.conflict, "username_taken", "The username '\(body.username)' is taken.", field: "username")
        } catch is Accounts<Store>.TooManyRegistrations {
            var error = APIError(.tooManyRequests, "too_many_registrations", Accounts<Store>.tooManyMessage)
            error.retryAfter = 600
            throw error
        }
    }

    func logIn(_ input: Operations.LogIn.Input) async throws -> Operations.LogIn.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        do {
            let session = try await logInUseCase(username: body.username, password: body.password, address: ClientAddress.current)
            ResponseCookies.set(SessionTokens.cookie(session.token, maxAge: Int(config.sessionLifetime), secure: config.secureCookies))
            return .ok(.init(body: .json(.init(token: session.token, expiresAt: session.expiresAt, user: .init(session.user)))))
        } catch let failure as LogIn<Store>.Failure {
            switch failure {
            case .tooManyAttempts:
                var error = APIError(.tooManyRequests, "too_many_attempts", LoginRateLimiter.message)
                error.retryAfter = 60
                throw error
            case .missingFields, .refused:
                throw APIError(.unauthorized, "invalid_credentials", "Wrong username or password.")
            }
        }
    }

    func logOut(_ input: Operations.LogOut.Input) async throws -> Operations.LogOut.Output {
        _ = try await requireUser()
        if let credential = RequestCredential.current {
            try await store.deleteSession(tokenHash: SessionTokens.hash(credential.token))
        }
        ResponseCookies.set(SessionTokens.clearingCookie(secure: config.secureCookies))
        return .noContent(.init())
    }

    func listAuthProviders(_ input: Operations.ListAuthProviders.Input) async throws -> Operations.ListAuthProviders.Output {
        let base = config.resolvedPublicURL
        return .ok(.init(body: .json(.init(providers: config.oauthProviders.map {
            .init(name: $0.name, displayName: $0.displayName, startUrl: "\(base)/auth/\($0.name)/start")
        }))))
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        // The session's copy of the user may be a moment old; points must be current.
        guard let user = try await store.user(id: try await requireUser().id) else { throw APIError.invalidToken }
        async let rank = store.rank(points: user.points)
        async let finished = store.quizzesFinished(userId: user.id)
        return .ok(.init(body: .json(.init(
            id: user.id, username: user.username, firstName: user.firstName, lastName: user.lastName,
            role: .init(user.role), createdAt: user.createdAt, points: user.points, rank: try await rank,
            quizzesFinished: Int64(try await finished)
        ))))
    }
}

// MARK: - Catalog

extension APIHandler {
    func listSubjects(_ input: Operations.ListSubjects.Input) async throws -> Operations.ListSubjects.Output {
        let subjects = try await store.subjects()
        return .ok(.init(body: .json(.init(subjects: subjects.map(Components.Schemas.Subject.init)))))
    }

    func listTopics(_ input: Operations.ListTopics.Input) async throws -> Operations.ListTopics.Output {
        guard let topics = try await store.topics(subjectId: input.path.subjectId) else { throw APIError.notFound("subject") }
        return .ok(.init(body: .json(.init(topics: topics.map(Components.Schemas.Topic.init)))))
    }

    func listQuizzes(_ input: Operations.ListQuizzes.Input) async throws -> Operations.ListQuizzes.Output {
        guard let quizzes = try await store.quizzes(topicId: input.path.topicId) else { throw APIError.notFound("topic") }
        return .ok(.init(body: .json(.init(quizzes: quizzes.map(Components.Schemas.Quiz.init)))))
    }

    func getQuiz(_ input: Operations.GetQuiz.Input) async throws -> Operations.GetQuiz.Output {
        guard let quiz = try await catalogQuiz(id: input.path.quizId) else { throw APIError.notFound("quiz") }
        return .ok(.init(body: .json(.init(quiz))))
    }

    func listQuizQuestions(_ input: Operations.ListQuizQuestions.Input) async throws -> Operations.ListQuizQuestions.Output {
        // A practice round's questions are served one at a time, each starting its clock.
        guard try await catalogQuiz(id: input.path.quizId) != nil else { throw APIError.notFound("quiz") }
        let questions = try await store.questions(quizId: input.path.quizId)
        let wire = questions.enumerated().map { Components.Schemas.Question(question: $0.element, position: $0.offset + 1) }
        return .ok(.init(body: .json(.init(questions: wire))))
    }
}
