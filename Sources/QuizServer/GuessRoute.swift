import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizStore
import QuizUseCases

/// `POST /api/v1/games/{gameId}/guesses`, served without the generated code's generic JSON
/// machinery: a player typing sends one guess per pause, which makes it the API's busiest write,
/// and encoding through the OpenAPI runtime took a third of its time. The contract is the one in
/// openapi.yaml (the generated operation stays implemented and answers the same). A middleware,
/// because the router refuses a second handler for a route the generated code registers.
struct GuessRoute<Context: RequestContext>: RouterMiddleware {
    struct Body: Decodable {
        var text: String
    }

    let playing: Playing
    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post, let gameId = Self.gameId(in: request.uri.path) else { return try await next(request, context) }
        return try await guess(request, gameId: gameId)
    }

    /// The game id of "/api/v1/games/{id}/guesses".
    static func gameId(in path: String) -> Int64? {
        let prefix = "/api/v1/games/", suffix = "/guesses"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.utf8.count > prefix.utf8.count + suffix.utf8.count else { return nil }
        return Int64(path.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count))
    }

    func guess(_ request: Request, gameId: Int64) async throws -> Response {
        let user = try await authenticator.requireUser()
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
        let result = try await GuessOutcome.outcome(playing, gameId: gameId, userId: user.id, text: body.text)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: result.json)))
    }
}

enum GuessOutcome {

    /// What both the route and the generated operation answer.
    struct Outcome {
        var verdict: String
        var item: (index: Int, answer: String)?
        var finished: Bool
        var foundCount: Int
        var itemCount: Int

        var json: String {
            var json = #"{"verdict":"\#(verdict)""#
            if let item { json += #","item":{"index":\#(item.index),"answer":\#(Self.quoted(item.answer))}"# }
            json += #","state":"\#(finished ? "finished" : "playing")","foundCount":\#(foundCount),"itemCount":\#(itemCount)}"#
            return json
        }

        /// A JSON string literal.
        static func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
    }

    static func outcome(_ playing: Playing, gameId: Int64, userId: Int64, text: String) async throws -> Outcome {
        let verdict: NameAllGame.Verdict
        let game: NameAllGame
        do {
            (verdict, game) = try await playing.guess(id: gameId, userId: userId, text: text)
        } catch Playing.PlayError.notFound {
            throw APIError.notFound("game")
        } catch Playing.PlayError.tooManyGuesses {
            throw APIError(.tooManyRequests, "too_many_guesses", Playing.tooManyGuesses)
        }
        var item: (index: Int, answer: String)?
        let name: String
        switch verdict {
        case .found(let index): name = "found"; item = (index, game.items[index].answer)
        case .alreadyFound(let index): name = "alreadyFound"; item = (index, game.items[index].answer)
        case .notAnItem: name = "notAnItem"
        case .empty: name = "empty"
        case .tooLong: name = "tooLong"
        case .tooLate: name = "tooLate"
        case .gameOver: name = "gameOver"
        }
        return Outcome(verdict: name, item: item, finished: game.state(at: playing.time.now()) != .playing,
                       foundCount: game.found.count, itemCount: game.items.count)
    }
}
