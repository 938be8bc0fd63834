import Foundation
import Logging
import QuizCore
import QuizStore
import Synchronization

/// Hosting: setting a game up, running it by the host's commands, and its results.
extension LiveGames {
    /// Published quizzes anyone signed in may host; authors also their drafts.
    package func setup(quizId: Int64, user: User) async throws(Failure) -> Setup {
        do {
            guard let quiz = try await context.catalog.quiz(id: quizId), quiz.mayBeHosted(by: user) else {
                throw Failure.quizNotFound
            }
            let all = try await context.catalog.questions(quizId: quizId)
            let playable = LiveGame.playable(all)
            guard !playable.isEmpty else { throw Failure.noPlayableQuestions }
            let leftOut = Set(all.map(\.kind).filter { !$0.playsLive })
            return Setup(quiz: quiz, questions: playable, skipped: all.count - playable.count,
                         skippedKinds: QuestionKind.allCases.filter(leftOut.contains), leftOut: all.filter { !$0.kind.playsLive })
        } catch let failure as Failure {
            throw failure
        } catch {
            context.logger.error("reading a quiz to host failed", metadata: ["error": "\(error)"])
            throw .game(.notNow)
        }
    }

    /// A new game of `quizId` in its lobby, run by this instance. Kinds live games do not play are left out.
    package func host(quizId: Int64, user: User, settings: LiveSettings) async throws(Failure) -> LiveGameRecord {
        let setup = try await setup(quizId: quizId, user: user)
        let (quiz, questions) = (setup.quiz, setup.questions)
        let problems = settings.problems(questionCount: questions.count)
        guard problems.isEmpty else { throw .badSettings(problems) }
        guard context.rooms.mayHost(userId: user.id) else { throw .tooManyGames }
        let now = context.time.now()
        let cluster = context.cluster
        for _ in 0..<20 {
            let pin = String(Int.random(in: 100_000...999_999))
            var record = LiveGameRecord(id: 0, pin: pin, quizId: quiz.id, hostUserId: user.id, title: quiz.title,
                                        questionIds: questions.compactMap(\.id), settings: settings, createdAt: now)
            let claimed = cluster?.uptime() ?? 0
            let id: Int64?
            do {
                if let cluster {
                    // With this instance's lease from the start: no other instance (nor this one's
                    // own renewals) ever finds the new game without an owner and takes it meanwhile.
                    id = try await cluster.store.createOwnedLiveGame(record, owner: cluster.instance, seconds: Cluster.leaseSeconds)
                } else {
                    id = try await context.store.createLiveGame(record)
                }
            } catch {
                context.logger.error("creating a live game failed", metadata: ["error": "\(error)"])
                throw .game(.notNow)
            }
            guard let id else { continue }  // a running game has this PIN: draw another
            record.id = id
            let game = LiveGame(id: id, pin: pin, quizId: quiz.id, hostUserId: user.id, title: quiz.title, questions: questions, settings: settings)
            let room = context.rooms.addIfAbsent(context.makeRoom(game, createdAt: now, holding: .owner))
            room.renewed(sentAt: claimed)
            return record
        }
        throw .game(.notNow)
    }

    /// The running game `gameId` as its host sees it; someone else's is `notHost`.
    package func hostView(gameId: Int64, userId: Int64) throws(Failure) -> LiveGame {
        try hostedRoom(gameId: gameId, userId: userId).snapshot()
    }

    /// The running game with this PIN, as a joining player sees it.
    package func game(pin: String) throws(Failure) -> LiveGame {
        guard let room = context.rooms.room(pin: pin) else { throw .unknownGame }
        return room.snapshot()
    }

    /// The host's socket came or went: a game whose host stays away ends after `hostTimeout`.
    package func hostConnected(_ connected: Bool, gameId: Int64) {
        guard let room = context.rooms.room(id: gameId) else { return }
        room.hostHere.store(connected, ordering: .relaxed)
        context.role(of: room).hostConnected(connected, in: room)
    }

    package func command(_ command: HostCommand, gameId: Int64, userId: Int64) async throws(Failure) {
        let room = try hostedRoom(gameId: gameId, userId: userId)
        try await context.role(of: room).command(command, in: room)
    }

    private func hostedRoom(gameId: Int64, userId: Int64) throws(Failure) -> LiveRoom {
        guard let room = context.rooms.room(id: gameId) else { throw .unknownGame }
        guard room.hostUserId == userId else { throw .notHost }
        return room
    }

    // MARK: Results

    package struct Results: Sendable {
        package var game: LiveGameRecord
        package var questions: [Question]
        package var players: [LivePlayerRecord]
        package var answers: [LiveAnswerRecord]
        /// Final (or current) standings, with ranks.
        package var standings: [LiveGame.Standing]

        /// One row per player in standings order, one cell per question (nil: not answered).
        package var grid: [(standing: LiveGame.Standing, answers: [LiveAnswerRecord?])] { grid(questions: questions.count) }

        /// The questions the game got to: a game ended after its third question asked three, not
        /// the quiz's twenty (the lobby: none).
        package var asked: Int { game.phase == .lobby ? 0 : min(questions.count, max(0, game.index + 1)) }

        /// `grid` over the questions asked only: a question never asked is no one's unanswered one.
        package var askedGrid: [(standing: LiveGame.Standing, answers: [LiveAnswerRecord?])] { grid(questions: asked) }

        private func grid(questions count: Int) -> [(standing: LiveGame.Standing, answers: [LiveAnswerRecord?])] {
            var byPlayer: [Int: [Int: LiveAnswerRecord]] = [:]
            for record in answers { byPlayer[record.answer.playerId, default: [:]][record.answer.questionIndex] = record }
            return standings.map { standing in (standing, (0..<count).map { byPlayer[standing.player.id]?[$0] }) }
        }

        /// An answer in words: choice texts, a number with its unit.
        package func words(_ record: LiveAnswerRecord) -> String {
            questions.indices.contains(record.answer.questionIndex)
                ? questions[record.answer.questionIndex].display(record.answer.answer) ?? "?" : "?"
        }
    }

    /// Everything one game recorded, for its host.
    package func results(gameId: Int64, userId: Int64) async throws(Failure) -> Results {
        do {
            guard let record = try await context.store.liveGame(id: gameId) else { throw Failure.unknownGame }
            guard record.hostUserId == userId else { throw Failure.notHost }
            var questions: [Question] = []
            for id in record.questionIds {
                questions.append(try await context.catalog.question(id: id) ?? Question(id: id, text: "(deleted question)", body: .trueFalse(true)))
            }
            let players = try await context.store.livePlayers(gameId: gameId)
            let answers = try await context.store.liveAnswers(gameId: gameId)
            var game = LiveGame(id: record.id, pin: record.pin, quizId: record.quizId, hostUserId: record.hostUserId, title: record.title,
                                questions: questions, settings: record.settings)
            game.restore(phase: record.phase == .question ? .reveal : record.phase, index: record.index, openedAt: nil, deadline: nil,
                         advanceAt: nil, locked: record.locked, players: players.map(\.player), answers: answers.map(\.answer))
            return Results(game: record, questions: questions, players: players, answers: answers, standings: game.standings())
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .game(.notNow)
        }
    }

    package func hostedGames(userId: Int64) async throws -> [LiveGameSummary] {
        try await context.store.liveGames(hostUserId: userId, limit: 100)
    }

    /// One game of this host, as stored, and its players.
    package func hosted(gameId: Int64, userId: Int64) async throws(Failure) -> (LiveGameRecord, players: Int) {
        do {
            guard let record = try await context.store.liveGame(id: gameId) else { throw Failure.unknownGame }
            guard record.hostUserId == userId else { throw Failure.notHost }
            let players = try await context.store.livePlayers(gameId: gameId).filter { !$0.player.kicked }.count
            return (record, players)
        } catch let failure as Failure {
            throw failure
        } catch {
            context.logger.error("reading a live game failed", metadata: ["error": "\(error)"])
            throw .game(.notNow)
        }
    }
}
