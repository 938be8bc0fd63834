import Foundation
import QuizCore
import SQLKit

extension SQLStore: LiveGameStore {
    /// Rows per INSERT: SQLite allows 32,766 bound values, and an answer binds eleven.
    static let liveRowsPerStatement = 1_000

    public func createLiveGame(_ game: LiveGameRecord) async throws -> Int64? {
        try await insertLiveGame(game, lease: nil)
    }

    /// A new game; nil when a running game has its PIN. `lease`: its owner and the end of the lease.
    func insertLiveGame(_ game: LiveGameRecord, lease: (owner: String, until: SQLQueryString)?) async throws -> Int64? {
        let questionIds = try LiveJSON.encode(game.questionIds)
        let settings = try LiveJSON.encode(LiveStoredSettings(settings: game.settings, hiddenWords: game.hiddenWords))
        let owner: SQLQueryString = lease.map { ", \(bind: $0.owner), " + $0.until } ?? ""
        return try await database.write { db in
            try await db.raw("""
                INSERT INTO live_games (pin, quiz_id, host_user_id, title, question_ids, settings, phase, question_index,
                  opened_at, deadline, advance_at, locked, created_at, ended_at\(unsafeRaw: lease == nil ? "" : ", owner, lease_until"))
                VALUES (\(bind: game.pin), \(bind: game.quizId), \(bind: game.hostUserId), \(bind: game.title), \(bind: questionIds),
                  \(bind: settings), \(bind: game.phase.rawValue), \(bind: game.index), \(bind: game.openedAt?.millis),
                  \(bind: game.deadline?.millis), \(bind: game.advanceAt?.millis), \(bind: game.locked), \(bind: game.createdAt.millis),
                  \(bind: game.endedAt?.millis)\(owner))
                ON CONFLICT DO NOTHING RETURNING id
                """).first()?.int64("id")
        }
    }

    public func saveLiveGame(_ game: LiveGameRecord) async throws {
        let update = try Self.liveStateUpdate(game)
        try await database.write { db in try await db.raw(update).run() }
    }

    public func saveOwnedLiveGame(_ game: LiveGameRecord, owner: String) async throws -> Bool {
        let update = try Self.liveStateUpdate(game) + " AND owner = \(bind: owner) RETURNING id"
        return try await database.write { db in
            if try await db.raw(update).first() != nil { return true }
            // Not written: the game ended, the question it would reopen is closed, or another owner.
            let row = try await db.raw("SELECT owner FROM live_games WHERE id = \(bind: game.id)").first()
            return try row?.decode(column: "owner", as: String?.self) == owner
        }
    }

    /// Writes a game's state, except over an ended game or to reopen a question that ended (a late
    /// write from before its end).
    private static func liveStateUpdate(_ game: LiveGameRecord) throws -> SQLQueryString {
        let settings = try LiveJSON.encode(LiveStoredSettings(settings: game.settings, hiddenWords: game.hiddenWords))
        return """
            UPDATE live_games SET settings = \(bind: settings), phase = \(bind: game.phase.rawValue),
              question_index = \(bind: game.index), opened_at = \(bind: game.openedAt?.millis), deadline = \(bind: game.deadline?.millis),
              advance_at = \(bind: game.advanceAt?.millis), locked = \(bind: game.locked), ended_at = \(bind: game.endedAt?.millis)
            WHERE id = \(bind: game.id) AND ended_at IS NULL
              AND NOT (\(bind: game.phase.rawValue) = \(bind: LivePhase.question.rawValue) AND phase <> \(bind: LivePhase.question.rawValue)
                       AND question_index = \(bind: game.index))
            """
    }

    public func saveLiveBatch(players: [LivePlayerRecord], answers: [LiveAnswerRecord]) async throws {
        guard !players.isEmpty || !answers.isEmpty else { return }
        let playerRows = players.map(Self.livePlayerRow)
        try await database.write { db in
            for chunk in playerRows.chunked(Self.liveRowsPerStatement) {
                try await db.raw("""
                    INSERT INTO live_players (\(unsafeRaw: Self.livePlayerColumns))
                    VALUES \(chunk.joined(separator: ", ")) ON CONFLICT DO NOTHING
                    """).run()
            }
            try await Self.insertLiveAnswers(answers, on: db)
        }
    }

    /// Inserts answers a statement per `liveRowsPerStatement`; a player's first answer stored wins.
    static func insertLiveAnswers(_ answers: [LiveAnswerRecord], on db: any SQLDatabase) async throws {
        for chunk in answers.map(liveAnswerRow).chunked(liveRowsPerStatement) {
            try await db.raw("""
                INSERT INTO live_answers (\(unsafeRaw: liveAnswerColumns))
                VALUES \(chunk.joined(separator: ", ")) ON CONFLICT DO NOTHING
                """).run()
        }
    }

    static let livePlayerColumns = "game_id, id, nickname, nickname_key, user_id, team, secret_hash, code_hash, kicked, joined_at"
    static let liveAnswerColumns = """
        game_id, player_id, question_index, question_id, answer, correct, late, points, bonus, milliseconds, answered_at
        """

    /// One row of `live_answers`, in the order of `liveAnswerColumns`.
    static func liveAnswerRow(_ record: LiveAnswerRecord) -> SQLQueryString {
        let answer = record.answer
        // A partial credit (a matching's pairs, an estimate's closeness) is kept with the answer.
        let stored = GivenAnswer(answer.answer, late: answer.late, credit: answer.credit).stored
        return """
            (\(bind: record.gameId), \(bind: answer.playerId), \(bind: answer.questionIndex), \(bind: record.questionId), \(bind: stored),
             \(bind: answer.isCorrect), \(bind: answer.late), \(bind: answer.points), \(bind: answer.bonus), \(bind: answer.milliseconds),
             \(bind: record.answeredAt.millis))
            """
    }

    /// One row of `live_players`, in the order of `livePlayerColumns`.
    static func livePlayerRow(_ record: LivePlayerRecord) -> SQLQueryString {
        let player = record.player
        return """
            (\(bind: record.gameId), \(bind: player.id), \(bind: player.nickname), \(bind: Nickname.key(player.nickname)),
             \(bind: player.userId), \(bind: player.team),
             \(bind: record.secretHash), \(bind: record.codeHash), \(bind: player.kicked), \(bind: record.joinedAt.millis))
            """
    }

    public func kickLivePlayer(gameId: Int64, playerId: Int) async throws {
        try await database.write { db in
            try await db.raw("UPDATE live_players SET kicked = \(bind: true) WHERE game_id = \(bind: gameId) AND id = \(bind: playerId)").run()
        }
    }

    public func replaceLiveSecret(gameId: Int64, playerId: Int, secretHash: String) async throws {
        try await database.write { db in
            try await db.raw("""
                UPDATE live_players SET secret_hash = \(bind: secretHash) WHERE game_id = \(bind: gameId) AND id = \(bind: playerId)
                """).run()
        }
    }

    static let liveGameColumns = """
        id, pin, quiz_id, host_user_id, title, question_ids, settings, phase, question_index, opened_at, deadline, advance_at,
        locked, created_at, ended_at
        """

    static func liveGame(_ row: any SQLRow) throws -> LiveGameRecord {
        let stored = try LiveJSON.decode(LiveStoredSettings.self, from: row.string("settings"))
        var record = LiveGameRecord(
            id: try row.int64("id"), pin: try row.string("pin"), quizId: try row.int64("quiz_id"), hostUserId: try row.int64("host_user_id"),
            title: try row.string("title"), questionIds: try LiveJSON.decode([Int64].self, from: row.string("question_ids")),
            settings: stored.settings,
            phase: LivePhase(rawValue: try row.string("phase")) ?? .ended, index: try row.int("question_index"),
            openedAt: try row.optionalDate("opened_at"), deadline: try row.optionalDate("deadline"), advanceAt: try row.optionalDate("advance_at"),
            locked: try row.bool("locked"), createdAt: try row.date("created_at"), endedAt: try row.optionalDate("ended_at"))
        record.hiddenWords = stored.hiddenWords
        return record
    }

    public func liveGame(id: Int64) async throws -> LiveGameRecord? {
        try await database.read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.liveGameColumns) FROM live_games WHERE id = \(bind: id)").first().map(Self.liveGame)
        }
    }

    public func runningLiveGames() async throws -> [LiveGameRecord] {
        try await database.read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.liveGameColumns) FROM live_games WHERE ended_at IS NULL ORDER BY id").all().map(Self.liveGame)
        }
    }

    public func livePlayers(gameId: Int64) async throws -> [LivePlayerRecord] {
        try await livePlayers(gameId: gameId, after: 0)
    }

    /// The players numbered after `after`, in order.
    public func livePlayers(gameId: Int64, after: Int) async throws -> [LivePlayerRecord] {
        try await database.read { db in
            try await db.raw("""
                SELECT id, nickname, user_id, team, secret_hash, code_hash, kicked, joined_at FROM live_players
                WHERE game_id = \(bind: gameId) AND id > \(bind: after) ORDER BY id
                """).all().map { row in
                var player = LivePlayer(id: try row.int("id"), nickname: try row.string("nickname"),
                                        userId: try row.decode(column: "user_id", as: Int64?.self), team: try row.decode(column: "team", as: Int?.self))
                player.kicked = try row.bool("kicked")
                return LivePlayerRecord(gameId: gameId, player: player, secretHash: try row.string("secret_hash"),
                                        codeHash: try row.string("code_hash"), joinedAt: try row.date("joined_at"))
            }
        }
    }

    public func liveAnswers(gameId: Int64) async throws -> [LiveAnswerRecord] {
        try await database.read { db in try await Self.liveAnswers(gameId: gameId, questionIndex: nil, on: db) }
    }

    /// The answers of a game, or of one of its questions, in the order they were given.
    static func liveAnswers(gameId: Int64, questionIndex: Int?, on db: any SQLDatabase) async throws -> [LiveAnswerRecord] {
        let question: SQLQueryString = questionIndex.map { "AND question_index = \(bind: $0)" } ?? ""
        return try await db.raw("""
            SELECT player_id, question_index, question_id, answer, correct, late, points, bonus, milliseconds, answered_at
            FROM live_answers WHERE game_id = \(bind: gameId) \(question) ORDER BY question_index, answered_at, player_id
            """).all().compactMap { row in
            // An answer stored by a build that wrote another shape is left out rather than misread.
            guard let given = GivenAnswer(stored: try row.string("answer")) else { return nil }
            let answer = LiveAnswer(playerId: try row.int("player_id"), questionIndex: try row.int("question_index"), answer: given.answer,
                                    isCorrect: try row.bool("correct"), points: try row.int("points"), bonus: try row.int("bonus"),
                                    milliseconds: try row.int("milliseconds"), late: try row.bool("late"),
                                    credit: given.credit(correct: try row.bool("correct")))
            return LiveAnswerRecord(gameId: gameId, questionId: try row.int64("question_id"), answer: answer,
                                    answeredAt: try row.date("answered_at"))
        }
    }

    public func liveGames(hostUserId: Int64, limit: Int) async throws -> [LiveGameSummary] {
        try await liveGameSummaries(where: "g.host_user_id = \(bind: hostUserId)", limit: limit)
    }

    public func liveGamesPlayed(userId: Int64, limit: Int) async throws -> [LiveGameSummary] {
        var games = try await liveGameSummaries(where: "g.id IN (SELECT game_id FROM live_players WHERE user_id = \(bind: userId))", limit: limit)
        guard !games.isEmpty else { return [] }
        let ids = games.map { $0.id as any Encodable & Sendable }
        // Every player's total in those games, to place this user among them.
        let (totals, mine) = try await database.read { db -> ([Int64: [Int]], [Int64: Int]) in
            var totals: [Int64: [Int]] = [:]
            for row in try await db.raw("""
                SELECT game_id, SUM(points + bonus) AS total FROM live_answers WHERE game_id IN (\(binds: ids)) GROUP BY game_id, player_id
                """).all() {
                totals[try row.int64("game_id"), default: []].append(try row.int("total"))
            }
            var mine: [Int64: Int] = [:]
            for row in try await db.raw("""
                SELECT p.game_id, COALESCE((SELECT SUM(a.points + a.bonus) FROM live_answers a WHERE a.game_id = p.game_id AND a.player_id = p.id), 0) AS total
                FROM live_players p WHERE p.user_id = \(bind: userId) AND p.game_id IN (\(binds: ids))
                """).all() {
                mine[try row.int64("game_id")] = try row.int("total")
            }
            return (totals, mine)
        }
        for index in games.indices {
            let score = mine[games[index].id] ?? 0
            games[index].score = score
            games[index].rank = 1 + (totals[games[index].id] ?? []).filter { $0 > score }.count
        }
        return games
    }

    private func liveGameSummaries(where condition: SQLQueryString, limit: Int) async throws -> [LiveGameSummary] {
        try await database.read { db in
            try await db.raw("""
                SELECT g.id, g.pin, g.title, g.phase, g.created_at, g.ended_at,
                  (SELECT COUNT(*) FROM live_players p WHERE p.game_id = g.id AND p.kicked = \(bind: false)) AS players
                FROM live_games g WHERE \(condition) ORDER BY g.created_at DESC, g.id DESC LIMIT \(bind: limit)
                """).all().map { row in
                LiveGameSummary(id: try row.int64("id"), pin: try row.string("pin"), title: try row.string("title"),
                                phase: LivePhase(rawValue: try row.string("phase")) ?? .ended, createdAt: try row.date("created_at"),
                                endedAt: try row.optionalDate("ended_at"), playerCount: try row.int("players"))
            }
        }
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

/// The JSON columns of live games (question ids, settings).
/// The settings column: the game's settings and, beside them, the word cloud entries hidden (a
/// list that is only ever read with the settings, so it needs no column of its own).
struct LiveStoredSettings: Codable {
    var settings: LiveSettings
    var hiddenWords: [String]

    private enum Keys: String, CodingKey { case hiddenWords }

    init(settings: LiveSettings, hiddenWords: [String]) {
        (self.settings, self.hiddenWords) = (settings, hiddenWords)
    }

    init(from decoder: any Decoder) throws {
        settings = try LiveSettings(from: decoder)
        hiddenWords = try decoder.container(keyedBy: Keys.self).decodeIfPresent([String].self, forKey: .hiddenWords) ?? []
    }

    func encode(to encoder: any Encoder) throws {
        try settings.encode(to: encoder)
        // Left out when none, so a game without hides stores what it always did.
        if !hiddenWords.isEmpty {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(hiddenWords, forKey: .hiddenWords)
        }
    }
}

enum LiveJSON {
    static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
