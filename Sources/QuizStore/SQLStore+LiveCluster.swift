import Foundation
import QuizCore
import SQLKit

/// Live games across instances: PostgreSQL only (SQLite has one instance and never calls these).
/// Leases count in the database's own clock, so instances whose clocks differ agree on them.
extension SQLStore: LiveClusterStore {
    /// Milliseconds of the database's clock, `seconds` from now.
    private static func leaseEnd(_ seconds: Int) -> SQLQueryString {
        "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT + \(bind: seconds * 1000)"
    }

    private static let databaseNow: SQLQueryString = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT"

    public func createOwnedLiveGame(_ game: LiveGameRecord, owner: String, seconds: Int) async throws -> Int64? {
        try await insertLiveGame(game, lease: (owner, Self.leaseEnd(seconds)))
    }

    public func renewLiveLeases(owner: String, seconds: Int) async throws -> [Int64] {
        try await database.write { db in
            try await db.raw("""
                UPDATE live_games SET lease_until = \(Self.leaseEnd(seconds))
                WHERE owner = \(bind: owner) AND ended_at IS NULL RETURNING id
                """).all().map { try $0.int64("id") }
        }
    }

    public func releaseLiveLeases(owner: String) async throws {
        try await database.write { db in
            try await db.raw("UPDATE live_games SET lease_until = 0 WHERE owner = \(bind: owner) AND ended_at IS NULL").run()
        }
    }

    public func takeExpiredLiveGames(owner: String, seconds: Int) async throws -> [Int64] {
        // A row another instance takes at the same moment is locked by its UPDATE: this one waits,
        // then finds the lease renewed and leaves it.
        try await database.write { db in
            try await db.raw("""
                UPDATE live_games SET owner = \(bind: owner), lease_until = \(Self.leaseEnd(seconds))
                WHERE ended_at IS NULL AND (lease_until IS NULL OR lease_until < \(Self.databaseNow)) RETURNING id
                """).all().map { try $0.int64("id") }
        }
    }

    public func liveGameIsOwned(gameId: Int64) async throws -> Bool {
        try await database.read { db in
            try await db.raw("""
                SELECT id FROM live_games WHERE id = \(bind: gameId) AND ended_at IS NULL AND owner IS NOT NULL
                  AND lease_until >= \(Self.databaseNow)
                """).first() != nil
        }
    }

    public func closeLiveQuestion(gameId: Int64, index: Int, owner: String) async throws -> LiveCloseOutcome {
        try await database.transaction { db in
            // FOR UPDATE waits for every answer transaction holding the row (FOR SHARE) to commit;
            // the SELECT of answers after it (READ COMMITTED: a new snapshot) sees theirs, and
            // later ones find the question closed.
            guard let game = try await db.raw("""
                SELECT owner, phase, question_index FROM live_games WHERE id = \(bind: gameId) AND ended_at IS NULL FOR UPDATE
                """).first(), try game.decode(column: "owner", as: String?.self) == owner else { return .notOwner }
            let stored = try game.int("question_index")
            guard try game.string("phase") == LivePhase.question.rawValue, stored == index else { return .notOpen(index: stored) }
            try await db.raw("UPDATE live_games SET phase = \(bind: LivePhase.reveal.rawValue) WHERE id = \(bind: gameId)").run()
            return .closed(try await Self.liveAnswers(gameId: gameId, questionIndex: index, on: db))
        }
    }

    public func saveOwnedLiveAnswers(_ answers: [LiveAnswerRecord], owner: String) async throws -> Set<Int64> {
        guard !answers.isEmpty else { return [] }
        let games = Array(Set(answers.map(\.gameId))).sorted()
        return try await database.transaction { db in
            let held = Set(try await db.raw("""
                SELECT id FROM live_games WHERE id IN (\(binds: games)) AND owner = \(bind: owner) ORDER BY id FOR SHARE
                """).all().map { try $0.int64("id") })
            try await Self.insertLiveAnswers(answers.filter { held.contains($0.gameId) }, on: db)
            return Set(games).subtracting(held)
        }
    }

    public func saveCheckedLiveAnswer(_ record: LiveAnswerRecord, notice: String) async throws -> LiveAnswerOutcome {
        try await database.transaction { db in
            let game = try await db.raw("""
                SELECT phase, question_index FROM live_games WHERE id = \(bind: record.gameId) AND ended_at IS NULL FOR SHARE
                """).first()
            guard let game, try game.string("phase") == LivePhase.question.rawValue,
                  try game.int("question_index") == record.answer.questionIndex else { return .closed }
            let stored = try await db.raw("""
                INSERT INTO live_answers (\(unsafeRaw: Self.liveAnswerColumns)) VALUES \(Self.liveAnswerRow(record))
                ON CONFLICT DO NOTHING RETURNING player_id
                """).first()
            guard stored != nil else { return .duplicate }
            try await db.raw("SELECT pg_notify(\(bind: LiveNotifications.channel), \(bind: notice))").run()
            return .stored
        }
    }

    public func joinLivePlayer(_ record: LivePlayerRecord, teams: Int, limit: Int, notice: String) async throws -> LiveJoinOutcome {
        try await database.transaction { db in
            guard let game = try await db.raw("""
                SELECT locked, ended_at FROM live_games WHERE id = \(bind: record.gameId) FOR UPDATE
                """).first(), try game.optionalDate("ended_at") == nil else { return .ended }
            guard try !game.bool("locked") else { return .locked }
            // Players are numbered 1, 2, 3… and never deleted (a kicked one stays), so the last
            // number is also how many joined: both read from indexes, not by counting the game.
            let counts = try await db.raw("""
                SELECT COALESCE((SELECT MAX(id) FROM live_players WHERE game_id = \(bind: record.gameId)), 0) AS last,
                  EXISTS (SELECT 1 FROM live_players WHERE game_id = \(bind: record.gameId)
                          AND nickname_key = \(bind: Nickname.key(record.player.nickname))) AS taken,
                  EXISTS (SELECT 1 FROM live_players WHERE game_id = \(bind: record.gameId) AND nickname_key IS NULL
                          AND LOWER(nickname) = LOWER(\(bind: record.player.nickname))) AS taken_before
                """).first()
            let last = try counts?.int("last") ?? 0
            guard try counts?.bool("taken") != true, try counts?.bool("taken_before") != true else { return .nicknameTaken }
            guard last < limit else { return .full }
            var team: Int?
            if teams > 0 {
                if let chosen = record.player.team, (1...teams).contains(chosen) {
                    team = chosen
                } else {
                    // The smallest team, the first of equals, as `LiveGame.join` picks.
                    var sizes = [Int](repeating: 0, count: teams + 1)
                    for row in try await db.raw("""
                        SELECT team, COUNT(*) AS members FROM live_players
                        WHERE game_id = \(bind: record.gameId) AND kicked = \(bind: false) AND team IS NOT NULL GROUP BY team
                        """).all() {
                        let index = try row.int("team")
                        if sizes.indices.contains(index) { sizes[index] = try row.int("members") }
                    }
                    team = (1...teams).min { sizes[$0] < sizes[$1] } ?? 1
                }
            }
            var joined = record
            joined.player.id = last + 1
            joined.player.team = team
            try await db.raw("INSERT INTO live_players (\(unsafeRaw: Self.livePlayerColumns)) VALUES \(Self.livePlayerRow(joined))").run()
            try await db.raw("SELECT pg_notify(\(bind: LiveNotifications.channel), \(bind: notice))").run()
            return .joined(id: last + 1, team: team)
        }
    }

    public func liveAnswers(gameId: Int64, questionIndex: Int) async throws -> [LiveAnswerRecord] {
        try await database.read { db in try await Self.liveAnswers(gameId: gameId, questionIndex: questionIndex, on: db) }
    }

    public func runningLiveGame(pin: String) async throws -> LiveGameRecord? {
        try await database.read { db in
            try await db.raw("""
                SELECT \(unsafeRaw: Self.liveGameColumns) FROM live_games WHERE pin = \(bind: pin) AND ended_at IS NULL
                """).first().map(Self.liveGame)
        }
    }

    public func notifyLive(_ payload: String) async throws {
        try await database.write { db in
            try await db.raw("SELECT pg_notify(\(bind: LiveNotifications.channel), \(bind: payload))").run()
        }
    }
}
