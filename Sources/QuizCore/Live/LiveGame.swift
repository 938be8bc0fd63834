import Foundation

/// How a host set up a live game.
public struct LiveSettings: Sendable, Codable, Equatable {
    public enum Points: String, Sendable, Codable, CaseIterable {
        case standard, double, none

        /// `P` of the scoring rule.
        public var base: Int {
            switch self {
            case .standard: 1_000
            case .double: 2_000
            case .none: 0
            }
        }
    }

    public static let secondsRange = 5...240
    public static let teamRange = 2...6

    public var secondsPerQuestion = 20
    /// By question index; a missing index plays standard points.
    public var points: [Int: Points] = [:]
    public var streakBonus = true
    public var shuffleAnswers = false
    public var leaderboardAfterEach = true
    public var autoAdvance = false
    /// 0 plays without teams.
    public var teams = 0

    public init() {}

    /// A missing field keeps its default, so a client may send only what it changes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        secondsPerQuestion = try container.decodeIfPresent(Int.self, forKey: .secondsPerQuestion) ?? secondsPerQuestion
        points = try container.decodeIfPresent([Int: Points].self, forKey: .points) ?? points
        streakBonus = try container.decodeIfPresent(Bool.self, forKey: .streakBonus) ?? streakBonus
        shuffleAnswers = try container.decodeIfPresent(Bool.self, forKey: .shuffleAnswers) ?? shuffleAnswers
        leaderboardAfterEach = try container.decodeIfPresent(Bool.self, forKey: .leaderboardAfterEach) ?? leaderboardAfterEach
        autoAdvance = try container.decodeIfPresent(Bool.self, forKey: .autoAdvance) ?? autoAdvance
        teams = try container.decodeIfPresent(Int.self, forKey: .teams) ?? teams
    }

    public func points(at index: Int) -> Points { points[index] ?? .standard }

    public enum Problem: Error, Equatable {
        case seconds, teams, pointsIndex
    }

    /// Everything a game cannot play with, at once.
    public func problems(questionCount: Int) -> [Problem] {
        var found: [Problem] = []
        if !Self.secondsRange.contains(secondsPerQuestion) { found.append(.seconds) }
        if teams != 0 && !Self.teamRange.contains(teams) { found.append(.teams) }
        if !points.keys.allSatisfy({ (0..<questionCount).contains($0) }) { found.append(.pointsIndex) }
        return found
    }

    /// Refuses what a game cannot play with.
    public func validated(questionCount: Int) throws(Problem) -> LiveSettings {
        if let first = problems(questionCount: questionCount).first { throw first }
        return self
    }
}

public enum LivePhase: String, Sendable, Codable {
    case lobby, question, reveal, leaderboard, ended
}

/// A player of a live game, numbered from 1 in the order they joined.
public struct LivePlayer: Sendable, Equatable {
    public var id: Int
    public var nickname: String
    public var userId: Int64?
    /// 1-based; nil without teams.
    public var team: Int?
    public var score = 0
    public var correct = 0
    public var streak = 0
    public var kicked = false
    /// The rank at the last leaderboard, and the places moved to it from the one before.
    public var boardRank: Int?
    public var movement = 0

    public init(id: Int, nickname: String, userId: Int64?, team: Int?) {
        self.id = id
        self.nickname = nickname
        self.userId = userId
        self.team = team
    }
}

/// An answer a live game took: the first of its player for its question.
public struct LiveAnswer: Sendable, Equatable {
    public var playerId: Int
    public var questionIndex: Int
    public var answer: Answer
    public var isCorrect: Bool
    /// Speed points, without the streak bonus.
    public var points: Int
    public var bonus: Int
    /// From the question's opening to the answer's arrival.
    public var milliseconds: Int
    public var late: Bool

    public init(playerId: Int, questionIndex: Int, answer: Answer, isCorrect: Bool, points: Int, bonus: Int,
                milliseconds: Int, late: Bool) {
        self.playerId = playerId
        self.questionIndex = questionIndex
        self.answer = answer
        self.isCorrect = isCorrect
        self.points = points
        self.bonus = bonus
        self.milliseconds = milliseconds
        self.late = late
    }
}

public enum LiveGameError: Error, Equatable, Sendable {
    /// `full`: the game has as many players as the server lets one game take.
    case locked, full, nicknameTaken, nicknameInvalid, kicked, notOpen, alreadyAnswered, badAnswer, notNow, ended, unknownPlayer
}

/// The rules of a live game, as a value: every change takes the server's `now` and says what
/// happened, so the same state machine runs in tests with a hand-moved clock and on the server.
/// It does no I/O; `LiveGames` stores what it returns and sends the messages.
public struct LiveGame: Sendable {
    public let id: Int64
    public let pin: String
    public let quizId: Int64
    public let hostUserId: Int64
    public let title: String
    /// The questions played, in order (name-them-all questions are left out of live games).
    public let questions: [Question]
    public private(set) var settings: LiveSettings
    public private(set) var phase = LivePhase.lobby
    /// The question open or last played; -1 in the lobby.
    public private(set) var index = -1
    public private(set) var openedAt: Date?
    public private(set) var deadline: Date?
    /// When an auto-advancing reveal or leaderboard moves on.
    public private(set) var advanceAt: Date?
    public private(set) var locked = false
    /// By id; ids are 1…count.
    public private(set) var players: [LivePlayer] = []
    /// The open (or last) question's answers, by player id.
    public private(set) var answers: [Int: LiveAnswer] = [:]
    /// `Nickname.key` of every player's nickname, kicked ones too, to the player's id.
    private var nicknameKeys: [String: Int] = [:]
    /// Kept as players are kicked, so counting who is in costs nothing on every answer.
    private var kickedCount = 0

    public static let autoAdvanceSeconds: TimeInterval = 5
    public static let streakStep = 100
    public static let streakMax = 500

    public init(id: Int64, pin: String, quizId: Int64, hostUserId: Int64, title: String, questions: [Question], settings: LiveSettings) {
        self.id = id
        self.pin = pin
        self.quizId = quizId
        self.hostUserId = hostUserId
        self.title = title
        self.questions = questions
        self.settings = settings
    }

    /// Questions a live game can play: the kinds answered once, by everyone, against one clock.
    public static func playable(_ questions: [Question]) -> [Question] {
        questions.filter { $0.kind != .nameAll }
    }

    public var question: Question? { questions.indices.contains(index) ? questions[index] : nil }
    public var activePlayers: [LivePlayer] { players.filter { !$0.kicked } }
    /// `activePlayers.count`, without going through them.
    public var activeCount: Int { players.count - kickedCount }
    public func player(_ id: Int) -> LivePlayer? { players.indices.contains(id - 1) ? players[id - 1] : nil }

    /// The time limit of the open question.
    public var seconds: Int { settings.secondsPerQuestion }

    // MARK: Lobby

    public mutating func change(_ settings: LiveSettings) throws(LiveGameError) {
        guard phase == .lobby else { throw .notNow }
        guard let valid = try? settings.validated(questionCount: questions.count) else { throw .notNow }
        self.settings = valid
        if valid.teams > 0 {
            for index in players.indices where (players[index].team ?? 0) > valid.teams || players[index].team == nil {
                players[index].team = smallestTeam()
            }
        } else {
            for index in players.indices { players[index].team = nil }
        }
    }

    /// Joins a player: by a nickname of `Nickname`'s rules, not too like one taken (`Nickname.key`),
    /// or, signed in (`userId`), under their username, which nobody can take from them: when it
    /// is taken in this game (a look-alike joined first) they get "name (2)".
    public mutating func join(nickname raw: String, userId: Int64?, team: Int? = nil) throws(LiveGameError) -> LivePlayer {
        guard phase != .ended else { throw .ended }
        guard !locked else { throw .locked }
        var name = try Nickname.checked(raw, username: userId != nil)
        var key = Nickname.key(name)
        if userId != nil {
            let base = name
            var number = 2
            while nicknameKeys[key] != nil, number <= 99 {
                name = "\(base) (\(number))"
                key = Nickname.key(name)
                number += 1
            }
        }
        guard nicknameKeys[key] == nil else { throw .nicknameTaken }
        let chosen = settings.teams > 0 ? (team.flatMap { (1...settings.teams).contains($0) ? $0 : nil } ?? smallestTeam()) : nil
        let player = LivePlayer(id: players.count + 1, nickname: name, userId: userId, team: chosen)
        players.append(player)
        nicknameKeys[key] = player.id
        return player
    }

    /// Undoes a join whose storing failed; only the last player can be taken back.
    public mutating func unjoin(_ id: Int) {
        guard id == players.count, let player = players.last else { return }
        players.removeLast()
        nicknameKeys[Nickname.key(player.nickname)] = nil
    }

    /// The player a rejoin names: by nickname, as `Nickname.key` compares them.
    public func player(nickname: String) -> LivePlayer? {
        nicknameKeys[Nickname.key(nickname)].flatMap(player)
    }

    private func smallestTeam() -> Int {
        var sizes = [Int](repeating: 0, count: settings.teams + 1)
        for player in players where !player.kicked { if let team = player.team, team < sizes.count { sizes[team] += 1 } }
        return (1...settings.teams).min { sizes[$0] < sizes[$1] } ?? 1
    }

    /// A kicked player keeps their nickname (so it cannot be taken to come back) and leaves the board.
    public mutating func kick(_ id: Int) throws(LiveGameError) {
        guard let player = player(id) else { throw .unknownPlayer }
        if !player.kicked { kickedCount += 1 }
        players[id - 1].kicked = true
        answers[id] = nil
    }

    public mutating func lock(_ locked: Bool) { self.locked = locked }

    // MARK: Questions

    public mutating func start(now: Date) throws(LiveGameError) {
        guard phase == .lobby, !questions.isEmpty else { throw .notNow }
        open(0, now: now)
    }

    private mutating func open(_ index: Int, now: Date) {
        self.index = index
        phase = .question
        openedAt = now
        deadline = now.addingTimeInterval(TimeInterval(seconds))
        advanceAt = nil
        answers = [:]
    }

    /// Grades and scores an answer to the open question. After the deadline (and before the
    /// question is closed) it is taken, scores 0 and breaks the streak.
    public mutating func answer(_ answer: Answer, player id: Int, question: Int, now: Date) throws(LiveGameError) -> LiveAnswer {
        guard let player = player(id) else { throw .unknownPlayer }
        guard !player.kicked else { throw .kicked }
        guard phase == .question, question == index, let open = self.question, let openedAt, let deadline else { throw .notOpen }
        guard answers[id] == nil else { throw .alreadyAnswered }
        // Kept as a quiz keeps it: typed "1,5 km" for a numeric question is the number 1.5.
        let given: Answer
        let correct: Bool
        do {
            given = try open.normalized(answer)
            correct = try open.isCorrect(given)
        } catch {
            throw .badAnswer
        }
        let elapsed = max(0, now.timeIntervalSince(openedAt))
        let late = now > deadline
        let right = correct && !late
        var points = 0
        var bonus = 0
        if right {
            let base = Double(settings.points(at: index).base)
            points = Int((base * (1 - min(1, elapsed / Double(seconds)) / 2)).rounded())
            if settings.streakBonus { bonus = min(Self.streakMax, Self.streakStep * player.streak) }
        }
        let taken = LiveAnswer(playerId: id, questionIndex: index, answer: given, isCorrect: right, points: points, bonus: bonus,
                               milliseconds: Int((elapsed * 1000).rounded()), late: late)
        record(taken)
        return taken
    }

    /// Takes an answer to the open question (also how a restarted server or another instance's
    /// copy replays stored answers). It reaches the player's score, `correct` and streak only when
    /// the question closes (`settle`): until then nothing a player or host is shown may depend on
    /// whether it was right, or a throwaway player could learn the answer by resuming.
    public mutating func record(_ answer: LiveAnswer) {
        guard player(answer.playerId) != nil else { return }
        answers[answer.playerId] = answer
    }

    /// Takes back an answer that could not be stored, while its question is still open: the
    /// player may answer again. False when the question has moved on (then it stays, as shown).
    @discardableResult
    public mutating func withdraw(_ answer: LiveAnswer) -> Bool {
        guard phase == .question, index == answer.questionIndex, answers[answer.playerId] == answer,
              player(answer.playerId) != nil else { return false }
        answers[answer.playerId] = nil
        return true
    }

    /// The open question's answers join the totals; who did not answer loses their streak.
    private mutating func settle(resettingStreaks: Bool = true) {
        for index in players.indices where !players[index].kicked {
            guard let answer = answers[players[index].id] else {
                if resettingStreaks { players[index].streak = 0 }
                continue
            }
            players[index].score += answer.points + answer.bonus
            if answer.isCorrect {
                players[index].correct += 1
                players[index].streak += 1
            } else {
                players[index].streak = 0
            }
        }
    }

    /// Every player still in the game answered: `answers` holds only theirs (a kick takes its
    /// player's out), so counting is enough, once per answer of thousands.
    public var everyoneAnswered: Bool {
        activeCount > 0 && answers.count >= activeCount
    }

    /// Ends the open question: who did not answer loses their streak.
    public mutating func close(now: Date) throws(LiveGameError) {
        guard phase == .question else { throw .notNow }
        settle()
        phase = .reveal
        advanceAt = settings.autoAdvance ? now.addingTimeInterval(Self.autoAdvanceSeconds) : nil
    }

    public var isLastQuestion: Bool { index >= questions.count - 1 }

    /// From a reveal to the leaderboard (when shown after each question), the next question or the end.
    public mutating func next(now: Date) throws(LiveGameError) {
        switch phase {
        case .reveal where settings.leaderboardAfterEach && !isLastQuestion:
            phase = .leaderboard
            advanceAt = settings.autoAdvance ? now.addingTimeInterval(Self.autoAdvanceSeconds) : nil
            markRanks()
        case .reveal, .leaderboard:
            if isLastQuestion { end(now: now) } else { open(index + 1, now: now) }
        default:
            throw .notNow
        }
    }

    public mutating func end(now: Date) {
        if phase == .question {
            deadline = now
            settle(resettingStreaks: false)
        }
        phase = .ended
        advanceAt = nil
        markRanks()
    }

    /// What the clock makes happen by `now`: a question's time running out, an auto-advance.
    /// Returns whether anything changed.
    public mutating func tick(now: Date) -> Bool {
        if phase == .question, let deadline, now >= deadline {
            try? close(now: now)
            return true
        }
        if let advanceAt, now >= advanceAt, phase == .reveal || phase == .leaderboard {
            try? next(now: now)
            return true
        }
        return false
    }

    /// The next moment `tick` has work: a deadline or an auto-advance.
    public var nextTick: Date? {
        switch phase {
        case .question: deadline
        case .reveal, .leaderboard: advanceAt
        default: nil
        }
    }

    /// Puts a restored game back where it was.
    public mutating func restore(phase: LivePhase, index: Int, openedAt: Date?, deadline: Date?, advanceAt: Date?, locked: Bool,
                                 players: [LivePlayer], answers: [LiveAnswer]) {
        self.phase = phase
        self.index = index
        self.openedAt = openedAt
        self.deadline = deadline
        self.advanceAt = advanceAt
        self.locked = locked
        self.players = players.map { player in
            var player = player
            (player.score, player.correct, player.streak) = (0, 0, 0)
            return player
        }
        nicknameKeys = Dictionary(players.map { (Nickname.key($0.nickname), $0.id) }, uniquingKeysWith: { first, _ in first })
        kickedCount = players.filter(\.kicked).count
        self.answers = [:]
        guard index >= 0 else { return }
        defer { self.answers = self.answers.filter { self.player($0.key)?.kicked == false } }
        // Replayed question by question, so scores and streaks come out as they were played.
        let byQuestion = Dictionary(grouping: answers, by: \.questionIndex)
        for question in 0...index {
            self.answers = [:]
            for answer in byQuestion[question] ?? [] { record(answer) }
            if question < index || phase != .question { settle() }
        }
    }

    // MARK: Standings

    public struct Standing: Sendable, Equatable {
        public var player: LivePlayer
        public var rank: Int
        /// Places moved between the last two leaderboards: up is positive.
        public var movement: Int
    }

    /// Players still in the game, best first; equal scores share a rank.
    public func standings() -> [Standing] {
        let sorted = activePlayers.sorted { ($0.score, -$0.id) > ($1.score, -$1.id) }
        var result: [Standing] = []
        result.reserveCapacity(sorted.count)
        var rank = 0
        for (position, player) in sorted.enumerated() {
            if position == 0 || player.score != sorted[position - 1].score { rank = position + 1 }
            result.append(Standing(player: player, rank: rank, movement: player.movement))
        }
        return result
    }

    /// Works out each player's movement since the last leaderboard, for this one's arrows.
    private mutating func markRanks() {
        for standing in standings() {
            let index = standing.player.id - 1
            players[index].movement = (players[index].boardRank ?? standing.rank) - standing.rank
            players[index].boardRank = standing.rank
        }
    }

    public struct TeamScore: Sendable, Equatable {
        public var team: Int
        public var score: Int
        public var members: Int
    }

    /// Each team's average score, best first.
    public func teamScores() -> [TeamScore] {
        guard settings.teams > 0 else { return [] }
        return (1...settings.teams).map { team in
            let members = activePlayers.filter { $0.team == team }
            let total = members.reduce(0) { $0 + $1.score }
            return TeamScore(team: team, score: members.isEmpty ? 0 : Int((Double(total) / Double(members.count)).rounded()), members: members.count)
        }.sorted { ($0.score, -$0.team) > ($1.score, -$1.team) }
    }

    /// How the open or last question was answered, choice by choice for choice questions.
    public struct Tally: Sendable, Equatable {
        public var label: String
        public var choice: Int?
        public var count: Int
        public var isCorrect: Bool
    }

    public func distribution() -> [Tally] {
        guard let question else { return [] }
        let given = answers.values
        switch question.body {
        case .singleChoice(let choices), .multipleChoice(let choices):
            var counts: [Int: Int] = [:]
            for answer in given {
                switch answer.answer {
                case .choice(let id): counts[id, default: 0] += 1
                case .choices(let ids): for id in ids { counts[id, default: 0] += 1 }
                default: break
                }
            }
            return choices.map { Tally(label: $0.text, choice: $0.id, count: counts[$0.id] ?? 0, isCorrect: $0.isCorrect) }
        case .trueFalse(let value):
            let trues = given.filter { $0.answer == .bool(true) }.count
            return [Tally(label: "True", choice: nil, count: trues, isCorrect: value),
                    Tally(label: "False", choice: nil, count: given.count - trues, isCorrect: !value)]
        default:
            let right = given.filter(\.isCorrect).count
            return [Tally(label: "Right", choice: nil, count: right, isCorrect: true),
                    Tally(label: "Wrong", choice: nil, count: given.count - right, isCorrect: false)]
        }
    }
}
