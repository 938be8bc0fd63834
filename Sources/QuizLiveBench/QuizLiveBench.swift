import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The live-game load generator of `scripts/bench live`: hosts create games through the JSON
/// API, players open the join page and a WebSocket each and play as phones do; every figure is
/// measured from the client side, then checked against what the server stored.
@main
struct QuizLiveBench: AsyncParsableCommand {
    @Option(help: "The running server: hosts create and run their games here.") var url = "http://127.0.0.1:8080"
    @Option(help: "Another instance on the same database (repeatable): players are spread over --url and these in turn.")
    var alsoUrl: [String] = []
    @Option(help: "Players in each game.") var players = 1_000
    @Option(help: "Games played at once.") var games = 1
    @Option(help: "The quiz the games play.") var quiz: Int64
    @Option(help: "Seconds per question.") var seconds = 8
    @Option(help: "The server's process id, for its CPU time and memory.") var serverPid: Int32?
    @Option(help: "Games one host account runs (the server's QUIZBOX_LIVE_GAMES_PER_HOST).") var gamesPerHost = 5
    @Option(help: "Joins in flight at once.") var joinConcurrency = 200
    @Option(help: "Players per loopback source address (each address has its own ports and join limit).")
    var playersPerAddress = 100
    @Option(help: "Seconds the host looks at each reveal and leaderboard before going on.") var pause = 1.0
    @Option(help: "Client event-loop threads.") var threads = 1
    @Flag(help: "Skip the join page GET before each socket.") var noPage = false
    @Flag(help: "Instead of live games: one assignment, --players doing it at once through the JSON API (scripts/bench assignment).")
    var assignment = false
    @Option(help: "With --assignment: HTTP connections the players share.") var connections = 256
    @Option(help: "With --assignment: mean seconds a player takes to answer a question (0: at once).") var think = 0.0

    func run() async throws {
        if assignment { return try await runAssignment() }
        let total = players * games
        raiseFileLimit(needed: total + 256)
        let addresses = max(1, (total + playersPerAddress - 1) / playersPerAddress)
        reportPorts(total: total, addresses: addresses)
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
        let http = HTTPClient(eventLoopGroupProvider: .shared(loops), configuration: configuration)
        // The first instance serves the hosts; players go to each instance in turn (a load balancer's round robin).
        let instances = try ([url] + alsoUrl).map { address -> (api: BenchAPI, dialer: BenchDialer) in
            guard let parsed = URL(string: address), let host = parsed.host, let port = parsed.port else {
                throw ValidationError("\(address) needs a host and a port")
            }
            return (BenchAPI(http: http, base: address), BenchDialer(group: loops, host: host, port: port))
        }
        let (api, dialer) = instances[0]
        let recorder = BenchRecorder()
        let server = serverPid.map(ServerProcess.init)
        let watchdog = Task {
            try await Task.sleep(for: .seconds(Double(seconds + 30) * 12 + Double(total) / 20 + 300))
            print("FAILED: the run took too long; stopping")
            Foundation.exit(2)
        }
        defer { watchdog.cancel() }

        // Hosts and their games, each host's socket open before anyone joins.
        var played: [(game: BenchGame, host: BenchSender, events: AsyncStream<HostEvent>, questions: Int)] = []
        var tokens: [Int: String] = [:]
        for index in 0..<games {
            let hostNumber = index / max(1, gamesPerHost)
            let token: String
            if let known = tokens[hostNumber] { token = known } else {
                token = try await api.signIn(username: "benchhost\(hostNumber)", password: "bench password \(hostNumber)")
                tokens[hostNumber] = token
            }
            let created = try await api.createGame(quizId: quiz, seconds: seconds, token: token)
            let game = BenchGame(id: created.id, pin: created.pin, cookie: "quizbox_session=\(token)", token: token)
            let (stream, continuation) = AsyncStream.makeStream(of: HostEvent.self)
            let sender: BenchSender? = await withCheckedContinuation { done in
                let once = Once()
                dialer.connect(from: nil, cookie: game.cookie, makePeer: {
                    BenchHost(game: game, events: continuation) { sender in if once.first() { done.resume(returning: sender) } }
                }, failure: { reason in
                    print("host socket failed: \(reason)")
                    if once.first() { done.resume(returning: nil) }
                })
            }
            guard let sender else { throw BenchAPI.Failure(description: "the host's socket did not open") }
            // One iterator at a time: this one is done with before the game's task makes its own.
            var events = stream.makeAsyncIterator()
            guard let hosting = await events.next(until: "hosting") else { throw BenchAPI.Failure(description: "no hosting message") }
            played.append((game, sender, stream, Int(hosting.number)))
        }
        print("games: \(games), players each: \(players), quiz \(quiz), \(seconds) s a question, questions: \(played.first?.questions ?? 0), instances: \(instances.count)")

        // Joins: the page, then the socket and `join`, from addresses spread over 127.0.x.y.
        let cpuBefore = server?.cpuSeconds() ?? 0
        let rssBefore = server?.memory("VmRSS") ?? 0
        let joinStart = DispatchTime.now().uptimeNanoseconds
        let pageFailures = Counter()
        let withPage = !noPage
        let gamesList = played.map(\.game)
        let behaviour = Behaviour()
        await eachNumber(below: total, concurrency: joinConcurrency) { number in
            let game = gamesList[number % gamesList.count]
            let (api, dialer) = instances[(number / gamesList.count) % instances.count]
            if withPage, (try? await api.joinPage(pin: game.pin)) != 200 { pageFailures.value.add(1, ordering: .relaxed) }
            let source = "127.0.\(1 + (number % addresses) / 250).\(1 + (number % addresses) % 250)"
            let failure: String? = await withCheckedContinuation { done in
                let once = Once()
                let finish: @Sendable (String?) -> Void = { reason in if once.first() { done.resume(returning: reason) } }
                dialer.connect(from: source, makePeer: {
                    BenchPlayer(nickname: "P\(number)", seed: UInt64(number), game: game, recorder: recorder,
                                behaviour: behaviour, onJoin: finish)
                }, failure: finish)
                loops.next().scheduleTask(in: .seconds(60)) { finish("timeout") }
            }
            if let failure { recorder.update { $0.joinFailures[failure, default: 0] += 1 } }
        }
        let joinSeconds = Double(DispatchTime.now().uptimeNanoseconds - joinStart) / 1e9
        let joined = gamesList.reduce(0) { $0 + $1.joined.load(ordering: .relaxed) }
        let rssJoined = server?.memory("VmRSS") ?? 0
        let cpuJoined = server?.cpuSeconds() ?? 0
        print(String(format: "joined: %d of %d in %.1f s; join page failures: %d", joined, total, joinSeconds, pageFailures.value.load(ordering: .relaxed)))

        // The games, each host at its own pace.
        let pause = self.pause
        // Memory once the crowd has settled in: at the last question, everyone still connected.
        let rssPlaying = Atomic<Int>(0)
        let sampleMemory: @Sendable () -> Void = { rssPlaying.store(server?.memory("VmRSS") ?? 0, ordering: .relaxed) }
        let hostFigures = await withTaskGroup(of: [Int64].self) { group in
            for (game, host, events, questions) in played {
                group.addTask {
                    await Self.playHost(game: game, host: host, events: events, questions: questions, pause: pause, atLastQuestion: sampleMemory)
                }
            }
            var all: [Int64] = []
            for await figures in group { all += figures }
            return all
        }
        // Players get `ended` after the host; give them a moment.
        let waitUntil = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
        while gamesList.reduce(0, { $0 + $1.ended.load(ordering: .relaxed) }) < joined, DispatchTime.now().uptimeNanoseconds < waitUntil {
            try await Task.sleep(for: .milliseconds(100))
        }
        let cpuAfter = server?.cpuSeconds() ?? 0
        let peak = server?.memory("VmHWM") ?? 0
        let check = try await Self.checkStored(games: gamesList, api: api)
        BenchReport(players: total, games: games, joined: joined, joinSeconds: joinSeconds, samples: recorder.read(),
                    revealDelays: hostFigures, stored: check, cpuJoin: cpuJoined - cpuBefore, cpuGame: cpuAfter - cpuJoined,
                    rssBefore: rssBefore, rssJoined: rssJoined, rssPlaying: rssPlaying.load(ordering: .relaxed), peak: peak, hasServer: server != nil,
                    rosters: gamesList.reduce(0) { $0 + $1.rosters.load(ordering: .relaxed) }).print()
        try? await http.shutdown()
    }

    private func runAssignment() async throws {
        raiseFileLimit(needed: connections + 256)
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connections
        let http = HTTPClient(eventLoopGroupProvider: .shared(loops), configuration: configuration)
        do {
            try await AssignmentLoad(api: BenchAPI(http: http, base: url), players: players, quiz: quiz, joinConcurrency: joinConcurrency,
                                 think: think).run()
        } catch {
            try? await http.shutdown()
            throw error
        }
        try? await http.shutdown()
    }

    /// Start, then for each question: wait for its reveal, look, next (the leaderboard), look, next.
    /// Returns, per question, milliseconds from its deadline to the host's reveal.
    private static func playHost(game: BenchGame, host: BenchSender, events stream: AsyncStream<HostEvent>,
                                 questions: Int, pause: Double, atLastQuestion: @Sendable () -> Void) async -> [Int64] {
        var events = stream.makeAsyncIterator()
        var revealDelays: [Int64] = []
        func command(_ type: String) {
            game.commandAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .releasing)
            host.send(#"{"v":1,"type":"\#(type)"}"#)
        }
        command("start")
        for index in 0..<questions {
            guard let question = await events.next(until: "question"), question.index == index,
                  let reveal = await events.next(until: "reveal") else {
                print("game \(game.id): the host lost the thread at question \(index)")
                return revealDelays
            }
            revealDelays.append(reveal.wallMilliseconds - question.number)
            print("question \(index + 1) (\(question.text)): deadline → host's reveal \(reveal.wallMilliseconds - question.number) ms"
                  + (reveal.text.isEmpty ? "" : ", its word cloud \(reveal.text)"))
            if index == questions - 1 { atLastQuestion() }
            try? await Task.sleep(for: .seconds(pause))
            command("next")
            if index < questions - 1 {
                _ = await events.next(until: "leaderboard")
                try? await Task.sleep(for: .seconds(pause))
                command("next")
            }
        }
        _ = await events.next(until: "ended")
        return revealDelays
    }

    /// Every acknowledged answer stored once, nothing stored that was not acknowledged, the same scores.
    private static func checkStored(games: [BenchGame], api: BenchAPI) async throws -> StoredCheck {
        var check = StoredCheck()
        for game in games {
            let stored = try await api.results(gameId: game.id, token: game.token)
            for (nickname, outcome) in game.outcomes.withLock({ $0 }) {
                let answered = stored[nickname]?.answered ?? []
                check.stored += answered.count
                check.missing += outcome.acked.subtracting(answered).count
                check.unacknowledged += Set(answered).subtracting(outcome.acked).count
                check.duplicates += answered.count - Set(answered).count
                if let score = outcome.score, score != stored[nickname]?.score { check.scoreMismatches += 1 }
            }
        }
        return check
    }
}

struct StoredCheck {
    var stored = 0
    var missing = 0
    var unacknowledged = 0
    var duplicates = 0
    var scoreMismatches = 0
}

/// Runs `body` for 0..<total, `concurrency` at a time, each number once.
func eachNumber(below total: Int, concurrency: Int, _ body: @escaping @Sendable (Int) async -> Void) async {
    let next = Counter()
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<min(concurrency, total) {
            group.addTask {
                while true {
                    let number = next.value.add(1, ordering: .relaxed).oldValue
                    guard number < total else { return }
                    await body(number)
                }
            }
        }
    }
}

final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

/// Resumes a continuation once, whichever of its callers comes first.
final class Once: Sendable {
    private let done = Atomic<Bool>(false)
    func first() -> Bool { !done.exchange(true, ordering: .relaxed) }
}

extension AsyncStream<HostEvent>.AsyncIterator {
    /// The next event of this type; an error on the way is printed.
    mutating func next(until type: String) async -> HostEvent? {
        while let event = await next() {
            if event.type == type { return event }
            if event.type == "error" { print("host got an error: \(event.text)") }
        }
        return nil
    }
}
