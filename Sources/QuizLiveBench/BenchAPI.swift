import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The JSON API and pages the host's browser and the phones use, over one HTTP client.
struct BenchAPI: Sendable {
    let http: HTTPClient
    let base: String

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func call(_ method: HTTPMethod, _ path: String, token: String? = nil, json: [String: Any]? = nil,
              headers: [(String, String)] = []) async throws -> (Int, Any?) {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: [UInt8](try JSONSerialization.data(withJSONObject: json))))
        }
        let response = try await http.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        let object = body.readableBytes > 0 ? try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) : nil
        return (Int(response.status.code), object)
    }

    /// Registers the host (a 409 means it already exists) and signs in: the session token.
    func signIn(username: String, password: String) async throws -> String {
        _ = try await call(.POST, "/api/v1/users", json: ["username": username, "firstName": "Bench", "lastName": "Host", "password": password])
        let (status, body) = try await call(.POST, "/api/v1/sessions", json: ["username": username, "password": password])
        guard status == 200, let token = (body as? [String: Any])?["token"] as? String else {
            throw Failure(description: "signing in \(username): HTTP \(status) \(body ?? "")")
        }
        return token
    }

    /// A live game in its lobby, as `POST /api/v1/live-games` makes it for the host page.
    func createGame(quizId: Int64, seconds: Int, token: String) async throws -> (id: Int64, pin: String) {
        let (status, body) = try await call(.POST, "/api/v1/live-games", token: token,
                                            json: ["quizId": quizId, "secondsPerQuestion": seconds, "leaderboardAfterEach": true])
        guard status == 201, let game = body as? [String: Any], let id = (game["id"] as? NSNumber)?.int64Value,
              let pin = game["pin"] as? String else {
            throw Failure(description: "creating a live game: HTTP \(status) \(body ?? "")")
        }
        return (id, pin)
    }

    /// The join page a phone opens from the QR code.
    func joinPage(pin: String) async throws -> Int {
        var request = HTTPClientRequest(url: base + "/join/\(pin)")
        request.method = .GET
        let response = try await http.execute(request, timeout: .seconds(60))
        _ = try await response.body.collect(upTo: 4 << 20)
        return Int(response.status.code)
    }

    /// Per nickname, the questions (0-based) the database holds an answer for, and the score.
    func results(gameId: Int64, token: String) async throws -> [String: (answered: [Int], score: Int)] {
        let (status, body) = try await call(.GET, "/api/v1/live-games/\(gameId)/results", token: token)
        guard status == 200, let players = (body as? [String: Any])?["players"] as? [[String: Any]] else {
            throw Failure(description: "reading results of game \(gameId): HTTP \(status)")
        }
        var byNickname: [String: (answered: [Int], score: Int)] = [:]
        for player in players {
            guard let nickname = player["nickname"] as? String else { continue }
            let answers = player["answers"] as? [[String: Any]] ?? []
            let answered = answers.filter { $0["answered"] as? Bool == true }.compactMap { ($0["question"] as? Int).map { $0 - 1 } }
            byNickname[nickname] = (answered, player["score"] as? Int ?? -1)
        }
        return byNickname
    }
}
