import Foundation

/// Scoring: what the open question's answers add to the players' totals and streaks when it
/// closes, and replaying a stored game's answers question by question.
extension LiveGame {
    /// An answer's points: the speed points (the question's points, down to half of them by its
    /// time limit) times its credit, and for a wholly right one the streak bonus (`Streak.bonus`).
    /// An estimate scores its closeness alone: the question's points at the value, none at the
    /// margin, however long the player took to get there.
    func award(elapsed: TimeInterval, streak: Int, credit: Credit = .full, kind: QuestionKind = .singleChoice) -> (points: Int, bonus: Int) {
        let base = settings.points(at: index).base
        let speed = Int((Double(base) * Self.speedShare(elapsed: elapsed, seconds: seconds, kind: kind)).rounded())
        let bonus = settings.streakBonus && credit.isFull ? Streak.bonus(after: streak) : 0
        return (credit.points(of: speed), bonus)
    }

    /// The share of a question's points a right answer after `elapsed` of `seconds` earns: all at
    /// once, down to half at the limit; an estimate's closeness is its whole score (1).
    public static func speedShare(elapsed: TimeInterval, seconds: Int, kind: QuestionKind) -> Double {
        kind == .estimate ? 1 : 1 - min(1, elapsed / Double(seconds)) / 2
    }

    /// The open question's answers join the totals; who did not answer loses their streak. A
    /// question with no right answer (a poll) scores nothing and leaves streaks as they were.
    mutating func settle(resettingStreaks: Bool = true, graded: Bool = true) {
        guard graded else { return }
        for index in players.indices where !players[index].kicked {
            guard let answer = answers[players[index].id] else {
                if resettingStreaks { players[index].streak = Streak.after(players[index].streak, isCorrect: false) }
                continue
            }
            players[index].score += answer.points + answer.bonus
            if answer.isCorrect { players[index].correct += 1 }
            players[index].streak = Streak.after(players[index].streak, isCorrect: answer.isCorrect)
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
            self.cloud = WordCloud.Tally()
            for answer in byQuestion[question] ?? [] { record(answer) }
            if question < index || phase != .question { settle(graded: questions.indices.contains(question) ? questions[question].kind.hasRightAnswer : true) }
        }
    }
}
