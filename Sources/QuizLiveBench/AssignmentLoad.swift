import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Synchronization

/// `scripts/bench assignment`: one assignment, every player doing it at once through the JSON
/// API as a phone does (join with a nickname, start, then question and answer in turn, finish),
/// each answer timed from the client side; then the report is checked against the acks: every
/// acknowledged answer must be in it, and nothing else.
struct AssignmentLoad {
    let api: BenchAPI
    let players: Int
    let quiz: Int64
    let joinConcurrency: Int
    /// Mean seconds a player looks at a question before answering (each wait uniform in 0…2×);
    /// 0: answer at once, which measures the server saturated rather than a class at work.
    let think: Double

    struct Player {
        var nickname: String
        var header: String
        var acked = 0
        var failures: [String] = []
    }

    func run() async throws {
        let token = try await api.signIn(username: "benchteacher", password: "bench password teacher")
        let closes = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600))
        let (status, body) = try await api.call(.POST, "/api/v1/assignments", token: token, json: ["quizId": quiz, "closesAt": closes])
        guard status == 201, let created = body as? [String: Any], let id = (created["id"] as? NSNumber)?.int64Value,
              let code = created["code"] as? String else {
            throw BenchAPI.Failure(description: "creating an assignment: HTTP \(status) \(body ?? "")")
        }
        print("assignment \(id) (code \(code)) of quiz \(quiz), \(created["questionCount"] ?? "?") questions, \(players) players, "
              + String(format: "%.1f s to answer on average", think))

        // Everyone joins first (joins are rate-limited per address: the server runs with a high limit).
        let joinStart = DispatchTime.now().uptimeNanoseconds
        let joined = Collected<Player>()
        let api = self.api
        let total = players
        let think = self.think
        await eachNumber(below: total, concurrency: joinConcurrency) { number in
            let nickname = "P\(number)"
            guard let (status, body) = try? await api.call(.POST, "/api/v1/assignments/join", json: ["code": code, "nickname": nickname]),
                  status == 201, let header = (body as? [String: Any])?["playerHeader"] as? String else {
                print("join of \(nickname) failed")
                return
            }
            joined.append(Player(nickname: nickname, header: header))
        }
        let crowd = joined.all
        print(String(format: "joined: %d of %d in %.1f s", crowd.count, total, Double(DispatchTime.now().uptimeNanoseconds - joinStart) / 1e9))

        // All at once: every player's attempt in a task of its own.
        let answerTimes = Collected<UInt64>()
        // The first question's answers meet the crowd's joins and starts; the rest the steady state.
        let laterTimes = Collected<UInt64>()
        let playStart = DispatchTime.now().uptimeNanoseconds
        let played = await withTaskGroup(of: Player.self) { group in
            for player in crowd {
                group.addTask { await Self.play(player, assignment: id, api: api, think: think, answerTimes: answerTimes, laterTimes: laterTimes) }
            }
            var all: [Player] = []
            for await player in group { all.append(player) }
            return all
        }
        let playSeconds = Double(DispatchTime.now().uptimeNanoseconds - playStart) / 1e9
        let times = answerTimes.all
        let acked = played.reduce(0) { $0 + $1.acked }
        let failures = Dictionary(grouping: played.flatMap { $0.failures }, by: { $0 }).mapValues(\.count)
        print(String(format: "played: %d answers acked in %.1f s (%.0f answers/s); answer %@", acked, playSeconds,
                     Double(acked) / max(playSeconds, 0.001), Spread(nanoseconds: times).description))
        print("after the first question: answer \(Spread(nanoseconds: laterTimes.all).description)")
        if !failures.isEmpty { print("refusals: \(failures.sorted { $0.key < $1.key })") }

        // The report: per player, the questions it credits must be exactly the ones acked.
        let (reportStatus, report) = try await api.call(.GET, "/api/v1/assignments/\(id)/report", token: token)
        guard reportStatus == 200, let rows = (report as? [String: Any])?["players"] as? [[String: Any]] else {
            throw BenchAPI.Failure(description: "reading the report: HTTP \(reportStatus)")
        }
        let stored = Dictionary(rows.map { ($0["nickname"] as? String ?? "", ($0["credits"] as? [Any])?.count ?? 0) }) { a, _ in a }
        let missing = played.reduce(0) { $0 + max(0, $1.acked - (stored[$1.nickname] ?? 0)) }
        let extra = played.reduce(0) { $0 + max(0, (stored[$1.nickname] ?? 0) - $1.acked) }
        let p99 = Spread(nanoseconds: times).p99
        print("RESULT players=\(crowd.count) acked=\(acked) stored=\(stored.values.reduce(0, +)) missing=\(missing) unacknowledged=\(extra) "
              + String(format: "answer_p50_ms=%.1f answer_p99_ms=%.1f", Spread(nanoseconds: times).p50, p99))
        if missing > 0 || extra > 0 { print("FAILED: the report does not match the acks") }
        if p99 >= 50 { print(String(format: "MISSED: answer p99 %.1f ms, the goal is under 50 ms", p99)) }
    }

    /// Start, then question and answer until done (the first choice, or the items as listed), then finish.
    static func play(_ player: Player, assignment id: Int64, api: BenchAPI, think: Double, answerTimes: Collected<UInt64>,
                     laterTimes: Collected<UInt64>) async -> Player {
        var player = player
        let base = "/api/v1/assignments/\(id)/play"
        let pass = [("X-Assignment-Player", player.header)]
        do {
            let (started, _) = try await api.call(.POST, base + "/attempts", headers: pass)
            guard started == 200 else { player.failures.append("start \(started)"); return player }
            while true {
                let (status, body) = try await api.call(.GET, base + "/question", headers: pass)
                guard status == 200, let next = body as? [String: Any] else { player.failures.append("question \(status)"); break }
                guard next["done"] as? Bool == false, let question = next["question"] as? [String: Any],
                      let position = next["position"] as? Int else { break }
                let answer: [String: Any]
                if let choice = (question["choices"] as? [[String: Any]])?.first?["id"] {
                    answer = ["choiceId": choice]
                } else if let items = question["items"] as? [[String: Any]] {
                    answer = ["order": items.compactMap { $0["id"] }]
                } else {
                    answer = ["read": true]
                }
                if think > 0 { try await Task.sleep(for: .seconds(Double.random(in: 0...(2 * think)))) }
                let start = DispatchTime.now().uptimeNanoseconds
                let (answered, _) = try await api.call(.POST, base + "/answers", json: ["position": position, "answer": answer], headers: pass)
                let took = DispatchTime.now().uptimeNanoseconds - start
                guard answered == 200 else { player.failures.append("answer \(answered)"); break }
                answerTimes.append(took)
                if position > 1 { laterTimes.append(took) }
                player.acked += 1
            }
            let (finished, _) = try await api.call(.POST, base + "/finish", headers: pass)
            if finished != 200 { player.failures.append("finish \(finished)") }
        } catch {
            player.failures.append("\(error)")
        }
        return player
    }
}

/// What many tasks add to, read once they are done.
final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}
