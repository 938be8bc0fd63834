import Foundation
import QuizCore
import QuizStore
import QuizTestSupport
import Testing

/// What live games across instances rely on the database for: leases, joins numbered under the
/// game's lock, answers checked against the stored phase, and a question that stays ended.
@Suite struct LiveClusterStoreTests {
    /// A running game of the binary quiz, in its lobby, and its store.
    private func withGame(_ kind: DatabaseKind, _ body: (SQLStore, LiveGameRecord) async throws -> Void) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(store)
            let host = try await store.createUser(newUser("host"))
            var record = LiveGameRecord(id: 0, pin: "123456", quizId: quizId, hostUserId: host.id, title: "Powers of two",
                                        questionIds: try await store.questions(quizId: quizId).compactMap(\.id), settings: LiveSettings(),
                                        createdAt: t0)
            record.id = try #require(try await store.sql.createLiveGame(record))
            try await body(store.sql, record)
        }
    }

    private func answer(_ game: LiveGameRecord, player: Int, question: Int) -> LiveAnswerRecord {
        LiveAnswerRecord(gameId: game.id, questionId: game.questionIds[question],
                         answer: LiveAnswer(playerId: player, questionIndex: question, answer: .bool(true), isCorrect: true, points: 900,
                                            bonus: 0, milliseconds: 1_000, late: false),
                         answeredAt: t0)
    }

    private func join(_ store: SQLStore, _ game: LiveGameRecord, _ nickname: String, limit: Int = 100) async throws -> LiveJoinOutcome {
        try await store.joinLivePlayer(
            LivePlayerRecord(gameId: game.id, player: LivePlayer(id: 0, nickname: nickname, userId: nil, team: nil), secretHash: "s",
                             codeHash: "c", joinedAt: t0),
            teams: 0, limit: limit, notice: "{}")
    }

    @Test(arguments: DatabaseKind.available)
    func aStaleStateNeverReopensAQuestionThatEndedInTheDatabase(_ kind: DatabaseKind) async throws {
        try await withGame(kind) { store, game in
            var open = game
            (open.phase, open.index) = (.question, 0)
            try await store.saveLiveGame(open)
            var revealed = open
            revealed.phase = .reveal
            try await store.saveLiveGame(revealed)
            try await store.saveLiveGame(open)  // written late, after the question ended
            #expect(try await store.liveGame(id: game.id)?.phase == .reveal)
            var next = open
            next.index = 1
            try await store.saveLiveGame(next)  // the next question opens as usual
            let stored = try #require(try await store.liveGame(id: game.id))
            #expect(stored.phase == .question && stored.index == 1)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aLateWriteNeverUndoesTheEndOfAGame(_ kind: DatabaseKind) async throws {
        try await withGame(kind) { store, game in
            var playing = game
            (playing.phase, playing.index) = (.reveal, 2)
            var ended = playing
            (ended.phase, ended.endedAt) = (.ended, t0.addingTimeInterval(60))
            try await store.saveLiveGame(ended)
            try await store.saveLiveGame(playing)  // from an instance that had let go of the game
            let stored = try #require(try await store.liveGame(id: game.id))
            #expect(stored.phase == .ended && stored.endedAt != nil)
        }
    }

    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func joinsAreNumberedByTheDatabaseAndNicknamesStayUnique() async throws {
        try await withGame(.postgres) { store, game in
            #expect(try await join(store, game, "Ann") == .joined(id: 1, team: nil))
            #expect(try await join(store, game, "ANN") == .nicknameTaken)
            #expect(try await join(store, game, "Bob") == .joined(id: 2, team: nil))
            #expect(try await join(store, game, "Cy", limit: 2) == .full)
            // Side by side, as from several instances: each gets a number of its own.
            let outcomes = try await withThrowingTaskGroup(of: LiveJoinOutcome.self) { group in
                for index in 0..<20 { group.addTask { try await join(store, game, "P\(index)") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let ids = outcomes.compactMap { if case .joined(let id, _) = $0 { id } else { nil } }
            #expect(ids.sorted() == Array(3...22))
        }
    }

    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func anAnswerCheckedAgainstTheDatabaseIsEitherCountedByTheCloseOrRefused() async throws {
        try await withGame(.postgres) { store, game in
            for name in ["Ann", "Bob"] { _ = try await join(store, game, name) }
            #expect(try await store.saveCheckedLiveAnswer(answer(game, player: 1, question: 0), notice: "{}") == .closed)  // lobby
            #expect(try await store.takeExpiredLiveGames(owner: "a", seconds: 3) == [game.id])
            var open = game
            (open.phase, open.index) = (.question, 0)
            try await store.saveLiveGame(open)
            #expect(try await store.saveCheckedLiveAnswer(answer(game, player: 1, question: 0), notice: "{}") == .stored)
            #expect(try await store.saveCheckedLiveAnswer(answer(game, player: 1, question: 0), notice: "{}") == .duplicate)
            // Only the lease's holder ends a question.
            #expect(try await store.closeLiveQuestion(gameId: game.id, index: 0, owner: "b") == .notOwner)
            #expect(try await store.closeLiveQuestion(gameId: game.id, index: 1, owner: "a") == .notOpen(index: 0))
            guard case .closed(let counted) = try await store.closeLiveQuestion(gameId: game.id, index: 0, owner: "a") else {
                Issue.record("the question did not end")
                return
            }
            #expect(counted.map(\.answer.playerId) == [1])
            #expect(try await store.saveCheckedLiveAnswer(answer(game, player: 2, question: 0), notice: "{}") == .closed)
            #expect(try await store.closeLiveQuestion(gameId: game.id, index: 0, owner: "a") == .notOpen(index: 0))
            #expect(try await store.liveAnswers(gameId: game.id).count == 1)
        }
    }

    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func aLeaseIsRenewedByItsHolderAndTakenOnlyOnceItRanOut() async throws {
        try await withGame(.postgres) { store, game in
            // A game without a lease (created on one instance, or restored from a dump) is taken by whoever comes first.
            #expect(try await store.takeExpiredLiveGames(owner: "a", seconds: 3) == [game.id])
            #expect(try await store.takeExpiredLiveGames(owner: "b", seconds: 3) == [])
            #expect(try await store.renewLiveLeases(owner: "a", seconds: 3) == [game.id])
            #expect(try await store.renewLiveLeases(owner: "b", seconds: 3) == [])
            try await store.releaseLiveLeases(owner: "a")  // shutting down
            #expect(try await store.takeExpiredLiveGames(owner: "b", seconds: 3) == [game.id])
            #expect(try await store.renewLiveLeases(owner: "a", seconds: 3) == [])
        }
    }

    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func aStateIsStoredOnlyByTheInstanceHoldingTheLease() async throws {
        try await withGame(.postgres) { store, game in
            #expect(try await store.takeExpiredLiveGames(owner: "a", seconds: 5) == [game.id])
            var started = game
            (started.phase, started.index) = (.question, 0)
            #expect(try await store.saveOwnedLiveGame(started, owner: "a"))
            #expect(try await store.liveGame(id: game.id)?.phase == .question)

            // "a" stalled past its lease and "b" took the game: what "a" writes now is refused.
            try await store.releaseLiveLeases(owner: "a")
            #expect(try await store.takeExpiredLiveGames(owner: "b", seconds: 5) == [game.id])
            var late = started
            late.phase = .reveal
            #expect(try await store.saveOwnedLiveGame(late, owner: "a") == false)
            #expect(try await store.liveGame(id: game.id)?.phase == .question)
            #expect(try await store.saveOwnedLiveGame(late, owner: "b"))
            #expect(try await store.liveGame(id: game.id)?.phase == .reveal)

            // A write the database leaves alone for another reason (it would reopen the question) is
            // still the holder's own: not a lost lease.
            #expect(try await store.saveOwnedLiveGame(started, owner: "b"))
            #expect(try await store.liveGame(id: game.id)?.phase == .reveal)
        }
    }

    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
    func aGameCreatedAcrossInstancesIsItsCreatorsFromItsFirstMoment() async throws {
        try await withGame(.postgres) { store, game in
            var second = game
            second.pin = "654321"
            let id = try #require(try await store.createOwnedLiveGame(second, owner: "a", seconds: 5))
            // Renewing their leases, neither another instance nor the creator itself takes it over.
            #expect(try await store.takeExpiredLiveGames(owner: "b", seconds: 5) == [game.id])  // the first one had no lease
            #expect(try await store.takeExpiredLiveGames(owner: "a", seconds: 5) == [])
            #expect(try await store.renewLiveLeases(owner: "a", seconds: 5) == [id])
            // A running game's PIN is not given twice.
            #expect(try await store.createOwnedLiveGame(second, owner: "b", seconds: 5) == nil)
        }
    }
}
