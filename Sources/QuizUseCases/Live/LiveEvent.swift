import Foundation
import QuizCore

/// A question as a live game shows it: what to ask and what can be chosen, never which is right.
/// Built by `LiveGames` so no adapter holds the correct answer before the question ends.
package struct LiveQuestionView: Sendable, Equatable {
    package struct Choice: Sendable, Equatable {
        package var id: Int
        package var text: String
    }

    package var index: Int
    package var count: Int
    package var text: String
    package var kind: QuestionKind
    package var choices: [Choice]
    /// An ordering's items, in the order of their public ids (which says nothing of the right one).
    package var items: [Choice] = []
    /// A matching's prompts (ids 1…n in the author's order: a prompt's place says nothing) and the
    /// answers offered, under public ids in their order.
    package var prompts: [Choice] = []
    package var answers: [Choice] = []
    /// An estimate's slider: its range and step, never its value or margin.
    package var estimate: EstimateRange?
    /// A word cloud's longest entry, in characters.
    package var maxLength: Int?
    package var unit: String?
    /// Served by its hash, so it names no answer.
    package var picture: QuestionPicture?
    /// Served by its hash too: see `audio(forHost:)` for who gets it.
    var audio: QuestionAudio?
    var soundOnPhones = false

    /// The clip, for the host's screen, which plays it to the room; phones get it only when the
    /// host plays sound on phones too.
    package func audio(forHost host: Bool) -> QuestionAudio? { host || soundOnPhones ? audio : nil }
    package var points: LiveSettings.Points
    package var seconds: Int
    package var openedAt: Date
    package var deadline: Date
    /// Keyed (`ChoiceKey`): each player's order comes from it and their id, never sent.
    var seed: UInt64

    /// Choices under their public ids: in the author's order, or when shuffled, in the public
    /// ids' order (which each player's own shuffle starts from).
    package struct EstimateRange: Sendable, Equatable {
        package var minimum: Double
        package var maximum: Double
        package var step: Double
    }

    init(game: LiveGame, question: Question, ids: ChoiceIds) {
        index = game.index
        count = game.questions.count
        text = question.text
        kind = question.kind
        // A poll's choices are its own list, not the body's choices.
        let stored: [(id: Int, text: String)] = if case .poll(let poll) = question.body {
            Array(zip(poll.ids, poll.choices)).map { (id: $0.0, text: $0.1) }
        } else {
            question.body.choices.map { (id: $0.id, text: $0.text) }
        }
        let shown = stored.map { Choice(id: ids.publicId($0.id), text: $0.text) }
        choices = game.settings.shuffleAnswers ? shown.sorted { $0.id < $1.id } : shown
        seed = ids.mixed(game.id)
        switch ids.presenting(question).body {
        case .numeric(_, _, let unit, _): self.unit = unit
        case .ordering(let ordering): items = ordering.shown.map { Choice(id: $0.id, text: $0.text) }
        case .matching(let matching):
            prompts = matching.pairs.enumerated().map { Choice(id: $0.offset + 1, text: $0.element.prompt) }
            answers = matching.shownAnswers.map { Choice(id: $0.id, text: $0.text) }
        case .estimate(let estimate):
            self.estimate = EstimateRange(minimum: estimate.minimum, maximum: estimate.maximum, step: estimate.step)
            unit = estimate.unit
        case .wordCloud: maxLength = WordCloud.maxEntryLength
        default: break
        }
        picture = question.picture
        audio = question.audio
        soundOnPhones = game.settings.soundOnPhones
        points = game.settings.points(at: game.index)
        // A slide has no clock: 0 seconds, its deadline its opening.
        seconds = question.kind == .slide ? 0 : game.seconds
        openedAt = game.openedAt ?? Date(timeIntervalSince1970: 0)
        deadline = game.deadline ?? openedAt
    }

    /// The same question with its choices in a player's own order, the same on every reload.
    package func shuffled(playerId: Int) -> LiveQuestionView {
        guard choices.count > 1, kind != .trueFalse else { return self }
        var copy = self
        var generator = SplitMix64(seed: seed ^ UInt64(playerId) &* 0x9E37_79B9_7F4A_7C15)
        copy.choices.shuffle(using: &generator)
        return copy
    }
}

/// What a question's end shows everyone.
package struct LiveReveal: Sendable, Equatable {
    package var index: Int
    /// The correct answer as words.
    package var correct: String
    package var correctChoices: [Int]
    package var explanation: String?
    package var distribution: [LiveGame.Tally]
    package var answered: Int
    package var players: Int
    /// An ordering's items in their right order, under the ids the question showed.
    package var order: [LiveQuestionView.Choice] = []
    /// A matching's right answer id for each prompt id.
    package var pairs: [(prompt: Int, answer: Int)] = []
    /// An estimate's value and the players closest to it.
    package var estimate: (value: Double, closest: [LiveGame.Closest])?
    /// A word cloud as it closed.
    package var cloud: LiveCloud?

    package static func == (lhs: LiveReveal, rhs: LiveReveal) -> Bool {
        (lhs.index, lhs.correct, lhs.correctChoices, lhs.explanation) == (rhs.index, rhs.correct, rhs.correctChoices, rhs.explanation)
            && (lhs.distribution, lhs.answered, lhs.players, lhs.order, lhs.cloud) == (rhs.distribution, rhs.answered, rhs.players, rhs.order, rhs.cloud)
            && lhs.pairs.map { [$0.prompt, $0.answer] } == rhs.pairs.map { [$0.prompt, $0.answer] }
            && lhs.estimate?.value == rhs.estimate?.value && lhs.estimate?.closest == rhs.estimate?.closest
    }
}

/// A word cloud's entries as counted on the server: the most common first, hidden ones left out.
package struct LiveCloud: Sendable, Equatable {
    package var index: Int
    package var entries: [WordCloud.Tally.Entry]
    /// Answers not among `entries` (past the cloud's size, or new words past the tally's limit).
    package var others: Int
}

extension LiveCloud {
    init(_ game: LiveGame) {
        index = game.index
        let visible = game.cloud.top(WordCloud.Tally.maxKeys)
        entries = Array(visible.prefix(LiveGame.cloudSize))
        others = game.cloud.others + visible.dropFirst(LiveGame.cloudSize).reduce(0) { $0 + $1.count }
    }
}

/// What one player learns when a question ends.
package struct LivePlayerResult: Sendable, Equatable {
    package var index: Int
    package var answer: LiveAnswer?
    package var score: Int
    package var rank: Int
    package var streak: Int
    /// The nearest player with a higher score, and the gap to them; nil for whoever leads.
    package var behind: Behind?
    /// Whether the question has a right answer, so the answer a credit (a poll's vote has none).
    package var graded = true

    package struct Behind: Sendable, Equatable {
        package var nickname: String
        package var points: Int
        package init(nickname: String, points: Int) { (self.nickname, self.points) = (nickname, points) }
    }

    package init(index: Int, answer: LiveAnswer?, score: Int, rank: Int, streak: Int, behind: Behind? = nil, graded: Bool = true) {
        (self.index, self.answer, self.score, self.rank, self.streak, self.behind) = (index, answer, score, rank, streak, behind)
        self.graded = graded
    }
}

/// Who a message is for.
package enum LiveAudience: Sendable, Equatable {
    case host, players, everyone
    case player(Int)
}

/// What happens in a game, for the adapters to send: the WebSocket adapter encodes each event
/// once per audience.
package enum LiveEvent: Sendable {
    case players([LivePlayer], locked: Bool)
    case question(LiveQuestionView, shuffle: Bool)
    case progress(index: Int, answered: Int, players: Int)
    /// A word cloud as it stands: to the host while its question is open, to everyone after a hide.
    case cloud(LiveCloud)
    case reveal(LiveReveal)
    case result(LivePlayerResult)
    case leaderboard(top: [LiveGame.Standing], teams: [LiveGame.TeamScore], final: Bool)
    case ended(podium: [LiveGame.Standing], standings: [LiveGame.Standing], teams: [LiveGame.TeamScore])
    case host(connected: Bool, endsAt: Date?)
    case kicked(playerId: Int)
}

/// Where a game's events go: the adapter that holds the sockets.
package protocol LiveOutbox: Sendable {
    func send(_ event: LiveEvent, gameId: Int64, to audience: LiveAudience)
    /// Each player's own result after a question, all at once: one per player of a stadium,
    /// which one by one cost a lock and a wake-up each.
    func sendResults(_ results: [(playerId: Int, result: LivePlayerResult)], gameId: Int64)
    /// An event and the players' own results that follow it (a question's reveal and each one's
    /// score), to go out together: at 10,000 players a socket's write costs more than its bytes.
    func send(_ event: LiveEvent, gameId: Int64, to audience: LiveAudience, then results: [(playerId: Int, result: LivePlayerResult)])
}

extension LiveOutbox {
    package func sendResults(_ results: [(playerId: Int, result: LivePlayerResult)], gameId: Int64) {
        for (playerId, result) in results { send(.result(result), gameId: gameId, to: .player(playerId)) }
    }

    package func send(_ event: LiveEvent, gameId: Int64, to audience: LiveAudience, then results: [(playerId: Int, result: LivePlayerResult)]) {
        send(event, gameId: gameId, to: audience)
        sendResults(results, gameId: gameId)
    }
}
