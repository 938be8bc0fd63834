import Foundation
import QuizCore
import QuizStore
import Synchronization

/// Across instances: what the database says of a game, taken into the room held here.
extension LiveRoom {
    /// Takes what another instance stored for the open question: answers this copy lacks are
    /// counted. Returns the host's progress when anything was added.
    func merge(_ answers: [LiveAnswer]) -> [(LiveEvent, LiveAudience)] {
        state.withLock { state in
            var added = 0
            for answer in answers where state.game.phase == .question && answer.questionIndex == state.game.index
                && state.game.answers[answer.playerId] == nil && state.game.player(answer.playerId)?.kicked == false {
                state.game.record(answer)
                added += 1
            }
            guard added > 0 else { return [] }
            let progress = (LiveEvent.progress(index: state.game.index, answered: state.game.answers.count, players: state.game.activeCount),
                            LiveAudience.host)
            return state.game.question?.kind == .wordCloud ? [progress, (.cloud(LiveCloud(state.game)), .host)] : [progress]
        }
    }

    /// Adds a player the database numbered; false when this copy is behind (it is read again).
    func add(_ player: LivePlayer) -> Bool {
        state.withLock { state in
            guard state.game.players.count + 1 == player.id,
                  let added = try? state.game.join(nickname: player.nickname, userId: player.userId, team: player.team) else { return false }
            return added.id == player.id && added.team == player.team
        }
    }

    /// Replaces this copy with the game as read from the database; the change says what the
    /// sockets on this instance are to be shown (nothing is stored: the owner stored it).
    func adopt(_ game: LiveGame, secretHashes: [Int: String], codeHashes: [Int: String]) -> Change {
        state.withLock { state in
            let before = Marker(state.game)
            let roster = state.game.players.count != game.players.count
                || zip(state.game.players, game.players).contains { $0.kicked != $1.kicked || $0.team != $1.team }
            // What the owner's host hid stays hidden here (the database keeps no hides).
            let hidden = state.game.index == game.index ? state.game.cloud.hidden : []
            state.game = game
            for key in hidden.sorted() { try? state.game.hide(key, question: game.index) }
            state.secretHashes.merge(secretHashes) { $1 }
            state.codeHashes.merge(codeHashes) { $1 }
            var change = change(from: before, to: game, now: nil)
            change.record = nil
            if roster || before.locked != game.locked { change.events.insert((.players(game.players, locked: game.locked), .host), at: 0) }
            return change
        }
    }
}
