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
        answers = [:]
        cloud = WordCloud.Tally()
        // A slide has no clock: the host moves on (or, auto-advancing, the question's time does).
        if questions[index].kind == .slide {
            deadline = nil
            advanceAt = settings.autoAdvance ? now.addingTimeInterval(TimeInterval(seconds)) : nil
        } else {
            deadline = now.addingTimeInterval(TimeInterval(seconds))
            advanceAt = nil
        }
    }

    /// Whether the open question is a slide (shown, never answered).
    var onSlide: Bool { phase == .question && question?.kind == .slide }

    /// The credit a live game gives an answer: an ordering's whole order or nothing (Kahoot's
    /// rule), every other kind as graded (partial credit, a matching's pairs, an estimate's closeness).
    public static func credit(_ question: Question, for answer: Answer) throws(GradingError) -> Credit {
        guard question.kind.takesAnswers else { throw .answerDoesNotFitKind(expected: question.kind) }
        if case .ordering(let ordering) = question.body {
            guard case .order(let order) = answer else { throw .answerDoesNotFitKind(expected: .ordering) }
            return try ordering.isWhollyRight(order) ? .full : .none
        }
        let credit = try question.credit(for: answer)
        return question.kind.hasRightAnswer ? credit : .none
    }

    /// Grades and scores an answer to the open question. After the deadline (and before the
    /// question is closed) it is taken, scores 0 and breaks the streak.
    public mutating func answer(_ answer: Answer, player id: Int, question: Int, now: Date) throws(LiveGameError) -> LiveAnswer {
        guard let player = player(id) else { throw .unknownPlayer }
        guard !player.kicked else { throw .kicked }
        guard phase == .question, question == index, let open = self.question, let openedAt else { throw .notOpen }
        guard let deadline else { throw .badAnswer }  // a slide: nothing to answer
        guard answers[id] == nil else { throw .alreadyAnswered }
        // Kept as a quiz keeps it: typed "1,5 km" for a numeric question is the number 1.5.
        let given: Answer
        let credit: Credit
        do {
            given = try open.normalized(answer)
            credit = try Self.credit(open, for: given)
        } catch {
            throw .badAnswer
        }
        let elapsed = max(0, now.timeIntervalSince(openedAt))
        let late = now > deadline
        let right = credit.isFull && !late
        let (points, bonus) = late || credit.isNone ? (0, 0) : award(elapsed: elapsed, streak: player.streak, credit: credit, kind: open.kind)
        let taken = LiveAnswer(playerId: id, questionIndex: index, answer: given, isCorrect: right, points: points, bonus: bonus,
                               milliseconds: Int((elapsed * 1000).rounded()), late: late, credit: late ? .none : credit)
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
        if question?.kind == .wordCloud, answer.questionIndex == index, case .text(let entry) = answer.answer { cloud.add(entry) }
    }

    /// Hides again what the host hid from the current word cloud (a game read back from the
    /// database): only keys it has counted, at most `maxHidden`.
    public mutating func restoreHidden(_ keys: [String]) {
        guard question?.kind == .wordCloud else { return }
        for key in keys.prefix(Self.maxHidden) { cloud.hide(key) }
    }

    /// Hides a word cloud entry (by its key) from every screen, while its question is open or shown.
    public mutating func hide(_ key: String, question: Int) throws(LiveGameError) {
        guard question == index, self.question?.kind == .wordCloud, [.question, .reveal, .leaderboard].contains(phase) else { throw .notOpen }
        guard cloud.hidden.count < Self.maxHidden, cloud.top(WordCloud.Tally.maxKeys).contains(where: { $0.key == key }) else {
            throw .badHide
        }
        cloud.hide(key)
    }

    /// Takes back an answer that could not be stored, while its question is still open: the
    /// player may answer again. False when the question has moved on (then it stays, as shown).
    @discardableResult
    public mutating func withdraw(_ answer: LiveAnswer) -> Bool {
        guard phase == .question, index == answer.questionIndex, answers[answer.playerId] == answer,
              player(answer.playerId) != nil else { return false }
        answers[answer.playerId] = nil
        if question?.kind == .wordCloud { recount() }
        return true
    }

    /// The word cloud counted again from the answers (an answer taken back cannot be uncounted).
    mutating func recount() {
        let hidden = cloud.hidden
        cloud = WordCloud.Tally()
        for answer in answers.values.sorted(by: { ($0.milliseconds, $0.playerId) < ($1.milliseconds, $1.playerId) }) {
            if case .text(let entry) = answer.answer { cloud.add(entry) }
        }
        for key in hidden { cloud.hide(key) }
    }

    /// Every player still in the game answered: `answers` holds only theirs (a kick takes its
    /// player's out), so counting is enough, once per answer of thousands.
    public var everyoneAnswered: Bool {
        activeCount > 0 && answers.count >= activeCount
    }

    /// Ends the open question: who did not answer loses their streak.
    public mutating func close(now: Date) throws(LiveGameError) {
        guard phase == .question, !onSlide else { throw .notNow }
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
        // A slide's "question" has nothing to close: next moves on from it as from a reveal.
        case .reveal, .leaderboard,
             .question where onSlide:
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
        if let advanceAt, now >= advanceAt, phase == .reveal || phase == .leaderboard || onSlide {
            try? next(now: now)
            return true
        }
        return false
    }

    /// The next moment `tick` has work: a deadline or an auto-advance.
    public var nextTick: Date? {
        switch phase {
        case .question: deadline ?? advanceAt
        case .reveal, .leaderboard: advanceAt
        default: nil
        }
    }
}
