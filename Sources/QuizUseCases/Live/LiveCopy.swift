import CoreMetrics
import Foundation
import Logging
import QuizCore
import QuizStore
import Synchronization

/// A copy of a game another instance runs (across instances only): read from the database, read
/// again when a notice says the game changed, and shown to this instance's sockets. It runs no
/// clock. An answer it takes is graded against the copy, stored in its own transaction only if
/// the question is still open in the database, and acknowledged after commit (the owner counts
/// it when it ends the question); a host's command is passed on to the owner.
struct LiveCopy: LiveRole {
    let context: LiveContext

    func join(_ room: LiveRoom, nickname: String, userId: Int64?, team: Int?, secret: String, code: String)
        async throws(LiveGames.Failure) -> LiveGames.Joined {
        try await LiveSync(context: context).join(room, nickname: nickname, userId: userId, team: team, secret: secret, code: code)
    }

    func keep(_ taken: LiveRoom.Taken, in room: LiveRoom, stored: @Sendable (LiveAnswer) -> Void)
        async throws(LiveGames.Failure) -> LiveAnswer {
        guard let cluster = context.cluster else {
            room.withdraw(taken.answer)
            throw .game(.notNow)
        }
        // No clock runs here, and none anywhere while no instance owns the game: past its deadline
        // a question is over, as on one instance, where the clock ends it at the deadline.
        if taken.answer.late {
            room.withdraw(taken.answer)
            throw .game(.notOpen)
        }
        let outcome: LiveAnswerOutcome
        do {
            outcome = try await cluster.store.saveCheckedLiveAnswer(taken.record(gameId: room.id), notice: context.payload(.answers, gameId: room.id) ?? "")
        } catch {
            room.withdraw(taken.answer)  // so a try again here is not "already answered"
            context.logger.error("storing a live answer failed", metadata: ["game": "\(room.id)", "error": "\(error)"])
            throw .game(.notNow)
        }
        switch outcome {
        case .stored:
            context.metrics.liveAnswers.increment()
            stored(taken.answer)
            return taken.answer
        case .duplicate: throw .game(.alreadyAnswered)
        case .closed: throw .game(.notOpen)
        }
    }

    /// Passed on to the owner, which runs it. While no instance owns the game (the seconds after
    /// its owner died) nobody would: the host is told to try again rather than nothing.
    func command(_ command: LiveGames.HostCommand, in room: LiveRoom) async throws(LiveGames.Failure) {
        guard context.payload(.command(command), gameId: room.id) != nil, let cluster = context.cluster else { throw .game(.notNow) }
        do {
            guard try await cluster.store.liveGameIsOwned(gameId: room.id) else { throw LiveGameError.notNow }
        } catch {
            throw .game(.notNow)
        }
        context.publish(.command(command), gameId: room.id)
    }

    /// Told to the owner, which speaks for the host to every instance.
    func hostConnected(_ connected: Bool, in room: LiveRoom) {
        context.publish(.hostSocket(connected), gameId: room.id)
    }

    func received(_ notice: LiveNotice, in room: LiveRoom) async {
        switch notice {
        case .state:
            LiveSync(context: context).requestReload(room)
        case .players:
            LiveSync(context: context).requestJoined(room)
        case .host(let connected):
            context.send(room.hostConnected(connected, now: context.time.now()), gameId: room.id)
        case .progress(let index, let answered, let players):
            guard room.hostHere.load(ordering: .relaxed) else { return }
            context.send([(.progress(index: index, answered: answered, players: players), .host)], gameId: room.id)
        case .kicked(let id):
            context.send([(.kicked(playerId: id), .player(id))], gameId: room.id)
            LiveSync(context: context).requestReload(room)
        case .hidden(let index, let key):
            if let change = try? room.hide(key, question: index) { context.send(change.events, gameId: room.id) }
        case .answers, .command, .hostSocket:
            break  // for the owner
        }
    }

    func resync(_ room: LiveRoom) {
        LiveSync(context: context).requestReload(room)
    }

    func refresh(_ room: LiveRoom) async {
        await LiveSync(context: context).reload(room)
    }
}
