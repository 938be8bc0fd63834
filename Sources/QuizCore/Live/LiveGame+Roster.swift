import Foundation

/// The players: who joins under which nickname and team, who is kicked, whether the game is locked.
extension LiveGame {
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
}
