import Foundation
import QuizCore
import QuizLiveProtocol
import Synchronization

/// One game as the benchmark runs it: what its host did last, for the players to time against.
final class BenchGame: Sendable {
    let id: Int64
    let pin: String
    let cookie: String
    let token: String
    /// When the host last sent start or next (uptime nanoseconds).
    let commandAt = Atomic<UInt64>(0)
    let joined = Atomic<Int>(0)
    let ended = Atomic<Int>(0)
    /// Rosters sent to the host (one per join): counted, not read.
    let rosters = Atomic<Int>(0)
    /// What each player ended with: acked questions and final score, by nickname.
    let outcomes = Mutex<[String: (acked: Set<Int>, score: Int?)]>([:])

    init(id: Int64, pin: String, cookie: String, token: String) {
        self.id = id
        self.pin = pin
        self.cookie = cookie
        self.token = token
    }
}

/// How a simulated player answers: most within a few seconds, some after the deadline, some never.
struct Behaviour: Sendable {
    var thinkMilliseconds = 300...3_000
    var latePercent = 5
    var silentPercent = 5
}

/// A phone: joins with a nickname, answers each question after a think time, times what it gets.
final class BenchPlayer: BenchPeer {
    private let nickname: String
    private let game: BenchGame
    private let recorder: BenchRecorder
    private let behaviour: Behaviour
    private let onJoin: @Sendable (String?) -> Void
    private var random: SplitMix64
    private weak var socket: BenchSocket?
    private var openedAt: UInt64 = 0
    private var joined = false
    private var ended = false
    private var sentAt: [Int: UInt64] = [:]
    private var deadlines: [Int: Int64] = [:]
    /// Each question's kind, to time its result by kind.
    private var kinds: [Int: String] = [:]
    private var acked: Set<Int> = []
    private var score: Int?

    init(nickname: String, seed: UInt64, game: BenchGame, recorder: BenchRecorder, behaviour: Behaviour,
         onJoin: @escaping @Sendable (String?) -> Void) {
        self.nickname = nickname
        self.game = game
        self.recorder = recorder
        self.behaviour = behaviour
        self.onJoin = onJoin
        random = SplitMix64(seed: seed)
    }

    func opened(_ socket: BenchSocket) {
        self.socket = socket
        openedAt = DispatchTime.now().uptimeNanoseconds
        socket.send(#"{"v":1,"type":"join","pin":"\#(game.pin)","nickname":"\#(nickname)"}"#)
    }

    func received(_ text: String, at now: UInt64) {
        // A glance, not a parse: one message per phone per event, read on one thread.
        let message = LiveServerMessage.Glance(text)
        guard let kind = message.kind else { return }
        let index = message.int("index") ?? -1
        switch kind {
        case .joined:
            joined = true
            game.joined.add(1, ordering: .relaxed)
            recorder.update { $0.join.append(now - openedAt) }
            onJoin(nil)
        case .question:
            let since = game.commandAt.load(ordering: .acquiring)
            // No rightness, and none of the new kinds' answers (an order, pairs, an estimate's value or margin, a credit).
            let leak = ["correct", "correctChoices", "isCorrect", "order", "pairs", "value", "margin", "credit"].contains { message.contains($0) }
            recorder.update {
                if now >= since { $0.broadcast.append(now - since) } else { $0.overtaken += 1 }
                if leak { $0.leaks += 1 }
            }
            deadlines[index] = message.int("deadline").map(Int64.init)
            kinds[index] = message.string("kind")
            plan(message, index: index)
        case .ack:
            let question = message.int("question") ?? -1
            acked.insert(question)
            let sent = sentAt[question] ?? now
            recorder.update {
                $0.ack.append(now - sent)
                $0.acked += 1
            }
        case .error:
            let code = message.string("code") ?? "?"
            if !joined {
                onJoin(code)
                socket?.close()
            } else {
                recorder.update { $0.refusals[code, default: 0] += 1 }
            }
        case .result:
            let late = Int64(Date().timeIntervalSince1970 * 1000) - (deadlines[index] ?? 0)
            let answered = message.bool("answered") ?? false
            score = message.int("score")
            let kind = kinds[index] ?? "?"
            recorder.update {
                $0.result.append(late)
                $0.resultByKind[kind, default: []].append(late)
                if answered != acked.contains(index) { $0.resultMismatches += 1 }
            }
        case .leaderboard:
            let since = game.commandAt.load(ordering: .acquiring)
            recorder.update { if now >= since { $0.leaderboard.append(now - since) } else { $0.overtaken += 1 } }
        case .ended:
            ended = true
            score = message.int("score", after: "you") ?? score
            game.ended.add(1, ordering: .relaxed)
            let outcome = (acked, score)
            game.outcomes.withLock { $0[nickname] = outcome }
        default:
            break
        }
    }

    /// Picks when and what to answer: a random choice, so some are right and some wrong.
    private func plan(_ message: LiveServerMessage.Glance, index: Int) {
        let roll = Int(random.next() % 100)
        guard roll >= behaviour.silentPercent else { return }
        let delay: Int
        if roll < behaviour.silentPercent + behaviour.latePercent {
            let left = (message.int("deadline") ?? 0) - (message.int("now") ?? 0)
            delay = left + 400
        } else {
            delay = Int.random(in: behaviour.thinkMilliseconds, using: &random)
        }
        let choices = message.ids(in: "choices")
        let answer: String
        switch message.string("kind").map(LiveProtocol.QuestionKind.init(rawValue:)) {
        case .trueFalse?: answer = #"{"value":\#(random.next() % 2 == 0)}"#
        case .multipleChoice?: answer = #"{"choices":[\#(choices.randomElement(using: &random) ?? 1)]}"#
        case .singleChoice?, .poll?: answer = #"{"choice":\#(choices.randomElement(using: &random) ?? 1)}"#
        case .ordering?:
            // The items in a random order: a few get it wholly right.
            let order = message.ids(in: "items").shuffled(using: &random)
            answer = #"{"order":[\#(order.map(String.init).joined(separator: ","))]}"#
        case .estimate?:
            // Whole numbers in the range (the bench's slider steps by 1).
            let low = message.int("minimum", after: "estimate") ?? 0
            let high = max(low, message.int("maximum", after: "estimate") ?? 100)
            answer = #"{"number":\#(Int.random(in: low...high, using: &random))}"#
        case .wordCloud?:
            // Forty words, some far commoner than others, as a class's answers are.
            let word = Int(random.next() % 40) * Int(random.next() % 40) / 40
            answer = #"{"text":"word \#(word)"}"#
        default: answer = #"{"text":"\#(random.next() % 10)"}"#
        }
        socket?.schedule(after: max(0, delay)) { [weak self] in
            guard let self, let socket = self.socket, !self.ended else { return }
            self.sentAt[index] = DispatchTime.now().uptimeNanoseconds
            self.recorder.update { $0.sent += 1 }
            socket.send(#"{"v":1,"type":"answer","question":\#(index),"answer":\#(answer)}"#)
        }
    }

    func closed() {
        if !joined {
            onJoin("closed")
        } else if !ended {
            recorder.update { $0.dropped += 1 }
            let outcome = (acked, score)
            game.outcomes.withLock { $0[nickname] = outcome }
        }
    }
}
