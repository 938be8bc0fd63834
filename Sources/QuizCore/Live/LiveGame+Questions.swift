import Foundation

/// The questions and the clock: opening one, taking its answers, closing it, moving on.
extension LiveGame {
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
        let (points, bonus) = right ? award(elapsed: elapsed, streak: player.streak) : (0, 0)
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

    /// Every player still in the game answered: `answers` holds only theirs (a kick takes its
    /// player's out), so counting is enough, once per answer of thousands.
    public var everyoneAnswered: Bool {
        activeCount > 0 && answers.count >= activeCount
    }

    /// Ends the open question: who did not answer loses their streak.
    public mutating func close(now: Date) throws(LiveGameError) {
        guard phase == .question else { throw .notNow }
        settle(graded: question?.kind.hasRightAnswer ?? true)
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
            settle(resettingStreaks: false, graded: question?.kind.hasRightAnswer ?? true)
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
}
