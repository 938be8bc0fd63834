import Foundation
import QuizCore
import QuizLiveProtocol
import QuizUseCases

/// The use case's events as the protocol's messages, and their text: through `Codable`, but
/// `result` and `ack` (one per player at once) through the protocol's hand-written `fastText`.
extension LiveMessages {
    typealias Message = LiveServerMessage

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    static func error(_ code: String, _ message: String, of type: String?) -> String {
        Message.error(.init(code: code, message: message, of: type)).text
    }

    static func player(_ player: LivePlayer, connected: Bool? = nil) -> Message.Player {
        Message.Player(id: player.id, nickname: player.nickname, team: player.team, score: player.score, streak: player.streak,
                       correct: player.correct, connected: connected)
    }

    static func game(_ game: LiveGame) -> Message.Game {
        Message.Game(pin: game.pin, title: game.title, phase: .init(rawValue: game.phase.rawValue), index: game.index,
                     questionCount: game.questions.count, teams: game.settings.teams)
    }

    static func settings(_ settings: LiveSettings) -> LiveProtocol.Settings {
        LiveProtocol.Settings(secondsPerQuestion: settings.secondsPerQuestion,
                              points: settings.points.mapValues { LiveProtocol.Points(rawValue: $0.rawValue) ?? .standard },
                              streakBonus: settings.streakBonus, shuffleAnswers: settings.shuffleAnswers,
                              leaderboardAfterEach: settings.leaderboardAfterEach, autoAdvance: settings.autoAdvance, teams: settings.teams,
                              soundOnPhones: settings.soundOnPhones ? true : nil)
    }

    static func joined(_ joined: LiveGames.Joined) -> String {
        Message.joined(.init(player: player(joined.player), secret: joined.secret, code: joined.code, game: game(joined.game))).text
    }

    static func hosting(_ game: LiveGame, joinURL: String) -> String {
        let shown = Self.game(game)
        return Message.hosting(.init(game: .init(id: game.id, pin: shown.pin, title: shown.title, joinURL: joinURL, phase: shown.phase,
                                                 index: shown.index, questionCount: shown.questionCount, teams: shown.teams,
                                                 locked: game.locked, settings: settings(game.settings)))).text
    }

    /// `host`: the host's screen, which plays the clip; phones get it only with `soundOnPhones`.
    static func question(_ view: LiveQuestionView, now: Date, host: Bool = false) -> String {
        Message.question(questionMessage(view, now: now, host: host)).text
    }

    static func questionMessage(_ view: LiveQuestionView, now: Date, host: Bool) -> Message.Question {
        let image = view.picture.map { Message.Image(url: $0.url, alt: $0.alt, width: $0.width, height: $0.height) }
        var message = Message.Question(index: view.index, count: view.count, text: view.text, kind: .init(rawValue: view.kind.rawValue),
                                       choices: view.choices.map(choice), unit: view.unit, image: image,
                                       points: LiveProtocol.Points(rawValue: view.points.rawValue) ?? .standard, seconds: view.seconds,
                                       openedAt: millis(view.openedAt), deadline: millis(view.deadline), now: millis(now))
            .with(items: parts(view.items), prompts: parts(view.prompts), answers: parts(view.answers),
                  estimate: view.estimate.map { .init(minimum: $0.minimum, maximum: $0.maximum, step: $0.step) },
                  maxLength: view.maxLength)
        message.html = LiveMaths.html(view.text)
        message.audio = view.audio(forHost: host).map { Message.Sound(url: $0.url, description: $0.description, seconds: $0.seconds) }
        return message
    }

    /// A shuffled question's messages to players, its maths converted once: each player's is
    /// `shown` with the choices in that player's order.
    static func shuffledQuestions(_ view: LiveQuestionView, now: Date) -> (Int) -> String {
        let shown = questionMessage(view, now: now, host: false)
        let byId = Dictionary(shown.choices.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return { playerId in
            var own = shown
            own.choices = view.shuffled(playerId: playerId).choices.compactMap { byId[$0.id] }
            return Message.question(own).text
        }
    }

    static func choice(_ choice: LiveQuestionView.Choice) -> Message.Choice {
        Message.Choice(id: choice.id, text: choice.text, html: LiveMaths.html(choice.text))
    }

    /// A kind's parts as choices; nil (left out of the message) for a kind without them.
    static func parts(_ parts: [LiveQuestionView.Choice]) -> [Message.Choice]? {
        parts.isEmpty ? nil : parts.map(choice)
    }

    static func cloud(_ cloud: LiveCloud) -> Message.Cloud {
        Message.Cloud(index: cloud.index, words: cloud.entries.map { .init(key: $0.key, text: $0.text, count: $0.count) }, others: cloud.others)
    }

    static func standing(_ standing: LiveGame.Standing) -> Message.Standing {
        Message.Standing(id: standing.player.id, nickname: standing.player.nickname, team: standing.player.team, score: standing.player.score,
                         rank: standing.rank, movement: standing.movement, correct: standing.player.correct)
    }

    static func teams(_ teams: [LiveGame.TeamScore]) -> [Message.TeamScore] {
        teams.map { .init(team: $0.team, score: $0.score, members: $0.members) }
    }

    /// Whom an `ended` is for: the host gets every standing, a player their own place.
    enum Viewer {
        case host(standings: [LiveGame.Standing])
        /// nil: a player the standings do not list (`you` is `{}`).
        case player(LiveGame.Standing?)
    }

    static func ended(podium: [LiveGame.Standing], teams: [LiveGame.TeamScore], for viewer: Viewer) -> String {
        var ended = Message.Ended(podium: podium.map(standing), teams: Self.teams(teams))
        switch viewer {
        case .host(let standings): ended.standings = standings.map(standing)
        case .player(let own):
            ended.you = .init(rank: own?.rank, score: own?.player.score, correct: own?.player.correct)
        }
        return Message.ended(ended).text
    }

    /// The text of an event for everyone in `audience` alike; nil for events written per player.
    /// `connected`: the players with a socket open on this server, for the host's list.
    static func shared(_ event: LiveEvent, host: Bool, now: Date, connected: Set<Int> = []) -> String? {
        switch event {
        case .players(let players, let locked):
            let shown = players.lazy.filter { !$0.kicked }
            let listed = shown.prefix(rosterSize).map { player($0, connected: connected.contains($0.id)) }
            return Message.players(.init(players: Array(listed), count: shown.count, locked: locked)).text
        case .question(let view, _):
            return question(view, now: now, host: host)
        case .progress(let index, let answered, let players):
            return Message.progress(.init(index: index, answered: answered, players: players)).text
        case .reveal(let reveal):
            let distribution = reveal.distribution.map {
                Message.Tally(label: $0.label, labelHTML: LiveMaths.html($0.label), choice: $0.choice, count: $0.count, correct: $0.isCorrect)
            }
            var shown = Message.Reveal(index: reveal.index, correct: reveal.correct, correctChoices: reveal.correctChoices,
                                       explanation: reveal.explanation, distribution: distribution, answered: reveal.answered,
                                       players: reveal.players)
            (shown.correctHTML, shown.explanationHTML) = (LiveMaths.html(reveal.correct), LiveMaths.html(reveal.explanation))
            return Message.reveal(shown
                .with(order: parts(reveal.order), pairs: reveal.pairs.isEmpty ? nil : reveal.pairs.map { .init(prompt: $0.prompt, answer: $0.answer) },
                      estimate: reveal.estimate.map { estimate in
                          .init(value: estimate.value, closest: estimate.closest.map { .init(nickname: $0.nickname, value: $0.value, points: $0.points) })
                      },
                      cloud: reveal.cloud.map(cloud))).text
        case .cloud(let cloud):
            return Message.cloud(Self.cloud(cloud)).text
        case .leaderboard(let top, let teams, let final):
            return Message.leaderboard(.init(top: top.map(standing), teams: Self.teams(teams), final: final)).text
        case .ended(let podium, let standings, let teams):
            guard host else { return Message.ended(.init(podium: podium.map(standing), teams: Self.teams(teams))).text }
            return ended(podium: podium, teams: teams, for: .host(standings: standings))
        case .host(let connected, let endsAt):
            return Message.host(.init(connected: connected, endsAt: endsAt.map(millis), now: endsAt.map { _ in millis(now) })).text
        case .result, .kicked:
            return nil
        }
    }

    /// Through the protocol's hand-written encoder: one per player when a question ends. `credit`
    /// only for part of the points: all or nothing is `correct`, so old kinds' results are as they were.
    static func result(_ result: LivePlayerResult) -> String {
        let answer = result.answer
        return Message.text(Message.Result(index: result.index, answered: answer != nil, correct: answer?.isCorrect ?? false,
                                           late: answer?.late ?? false, points: answer?.points ?? 0, bonus: answer?.bonus ?? 0,
                                           score: result.score, rank: result.rank, streak: result.streak,
                                           behind: result.behind.map { .init(nickname: $0.nickname, points: $0.points) },
                                           credit: result.graded && answer?.credit.isPartial == true ? answer?.credit.percent : nil))
    }

    /// Through the protocol's hand-written encoder: one per answer, thousands a second in a full room.
    static func ack(question: Int) -> String { Message.ack(question: question) }
    static var kicked: String { Message.kicked.text }
}
