import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import QuizAPI
import QuizCore
import QuizStore
import QuizUseCases

/// `POST /api/v1/games/{gameId}/guesses`, the one API route served without the generated code: a
/// player typing sends one guess per pause, which makes it the API's busiest write, and encoding
/// through the OpenAPI runtime's generic JSON machinery took a third of its time. The contract is
/// the one in openapi.yaml. The route has one path: this one is registered and the generated
/// operation is not (`GeneratedRoutes`); `GamesAPI.guess` answers the same guess in the generated
/// types, and the hand-written JSON is tested against them.
struct GuessRoute: Sendable {
    struct Body: Decodable {
        var text: String
    }

    static let method = HTTPRequest.Method.post
    /// As the generated code names it, to leave it out.
    static let generatedPath = "/api/v1/games/{gameId}/guesses"

    let games: NameAllGames
    let signedIn: APIGroup<SignedInCaller>

    func register(on router: Router<AppRequestContext>) {
        router.on(RouterPath(Self.generatedPath), method: Self.method) { request, context in
            // As the generated routes answer a path id that is not a number.
            guard let gameId = context.parameters.get("gameId", as: Int64.self) else {
                throw APIError(.badRequest, "invalid_request",
                               "A path or query parameter is missing or not valid: expected an integer (ids are whole numbers).")
            }
            return try await signedIn { try await guess(request, gameId: gameId, by: $0) }
        }
    }

    func guess(_ request: Request, gameId: Int64, by caller: SignedInCaller) async throws -> Response {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send the body as application/json.")
        }
        var request = request
        let bytes = try await request.collectBody(upTo: 64 * 1024)
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(bytes.readableBytesView))
        } catch {
            throw APIError(.badRequest, "invalid_json", "Send {\"text\": \"…\"}.", field: "text")
        }
        let guessed = try await Self.guess(body.text, gameId: gameId, by: caller, in: games)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: GuessOutcome(guessed).json)))
    }

    /// The guess itself, for this route and for `GamesAPI.guess`: the use case, its refusals as the API's errors.
    static func guess(_ text: String, gameId: Int64, by caller: SignedInCaller, in games: NameAllGames) async throws -> NameAllGames.Guessed {
        do {
            return try await games.guess(text, gameId: gameId, userId: caller.user.id)
        } catch let failure as NameAllGames.Failure {
            throw APIError(failure)
        }
    }
}

/// The answer to a guess, as openapi.yaml's `GuessResult` spells it, written by hand.
struct GuessOutcome {
    var verdict: String
    var item: (index: Int, answer: String)?
    var finished: Bool
    var foundCount: Int
    var itemCount: Int

    init(verdict: String, item: (index: Int, answer: String)?, finished: Bool, foundCount: Int, itemCount: Int) {
        self.verdict = verdict
        self.item = item
        self.finished = finished
        self.foundCount = foundCount
        self.itemCount = itemCount
    }

    init(_ guessed: NameAllGames.Guessed) {
        let game = guessed.played.game
        var item: (index: Int, answer: String)?
        switch guessed.verdict {
        case .found(let index), .alreadyFound(let index): item = (index, game.items[index].answer)
        default: item = nil
        }
        self.init(verdict: guessed.verdict.name, item: item, finished: guessed.played.isFinished,
                  foundCount: game.found.count, itemCount: game.items.count)
    }

    var json: String {
        var json = #"{"verdict":"\#(verdict)""#
        if let item { json += #","item":{"index":\#(item.index),"answer":\#(JSONText.quoted(item.answer))}"# }
        json += #","state":"\#(finished ? "finished" : "playing")","foundCount":\#(foundCount),"itemCount":\#(itemCount)}"#
        return json
    }
}

extension Components.Schemas.GuessResult {
    /// The outcome in the generated types: what `GamesAPI.guess` answers, and what the tests hold
    /// the hand-written `json` to.
    init(_ outcome: GuessOutcome) {
        self.init(verdict: .init(rawValue: outcome.verdict) ?? .empty, item: outcome.item.map { .init(index: $0.index, answer: $0.answer) },
                  state: outcome.finished ? .finished : .playing, foundCount: outcome.foundCount, itemCount: outcome.itemCount)
    }
}

extension NameAllGame.Verdict {
    /// The verdict's name in the API (and, but for the ends, in the game page's address).
    var name: String {
        switch self {
        case .found: "found"
        case .alreadyFound: "alreadyFound"
        case .notAnItem: "notAnItem"
        case .empty: "empty"
        case .tooLong: "tooLong"
        case .tooLate: "tooLate"
        case .gameOver: "gameOver"
        }
    }
}

extension APIError {
    init(_ failure: NameAllGames.Failure) {
        switch failure {
        case .questionNotFound: self = .notFound("question")
        case .gameNotFound: self = .notFound("game")
        case .tooManyGuesses: self.init(.tooManyRequests, "too_many_guesses", NameAllGames.tooManyGuessesMessage)
        }
    }
}
