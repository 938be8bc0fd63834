import Foundation
import Logging
import QuizCore
import QuizStore

/// Live games: a host runs a quiz for a room, players join with a PIN and answer against one
/// clock. This is the entry point the adapters call (hosting in `LiveGames+Hosting`, playing in
/// `LiveGames+Playing`, the clock in `LiveGames+Clock`, instances in `LiveGames+Cluster`); each
/// method finds the game's room and hands over to the parts that run it:
///
/// - `LiveRoom`: one game's room — its `LiveGame` behind a lock, its clock, the answers it takes
///   and gives back, what its changes show (`LiveRoom+Events`);
/// - `LiveRooms`: the games held here, by id and PIN, and the limits;
/// - `LiveRole`: how this instance holds a game — `LiveOwner` runs it (always on one instance),
///   `LiveCopy` shows a game another instance runs; `LiveLeases` says which, `LiveSync` keeps
///   copies up to date, `LiveNotice` is what instances tell each other;
/// - `LiveAnswerLog`: group commit of answers and joins; `LatestStateWriter`: a game's state.
///
/// Each running game lives in memory (its room) and in the database (its phase at every change,
/// its players and answers in group commits), so a restarted server carries on where it stopped.
/// Events go to the `LiveOutbox` (the WebSocket adapter); the clock is the injected `TimeSource`,
/// moved on by `tick`.
package final class LiveGames: Sendable {
    package enum Failure: Error, Equatable, Sendable {
        /// No such quiz, or not one this user may host.
        case quizNotFound
        /// The quiz has no question a live game can play.
        case noPlayableQuestions
        /// Every setting the game cannot play with.
        case badSettings([LiveSettings.Problem])
        /// No running game with that PIN or id.
        case unknownGame
        case notHost
        case game(LiveGameError)
        case badRejoin
        /// A resume that names no game running here or a player with another secret: the same
        /// answer for both, so resuming cannot tell which PINs are in play.
        case notResumable
        /// Too many joins from one address.
        case rateLimited
        /// The host already runs `limits.gamesPerHost` games.
        case tooManyGames
    }

    /// What one host and one game may take; the server's configuration sets them.
    package struct Limits: Sendable, Equatable {
        /// Games a host may run at once.
        package var gamesPerHost = 5
        /// Players one game takes; the next one is told the game is full and the game goes on.
        package var playersPerGame = 10_000

        package init(gamesPerHost: Int = 5, playersPerGame: Int = 10_000) {
            self.gamesPerHost = gamesPerHost
            self.playersPerGame = playersPerGame
        }
    }

    package typealias Catalog = CatalogStore & PracticeStore
    let context: LiveContext
    let joins: RateLimiter
    package let limits: Limits

    /// How long a game waits for a host who left before it ends.
    package static let hostTimeout: TimeInterval = 300

    package init(store: any LiveGameStore, catalog: any Catalog, time: any TimeSource, joins: RateLimiter, key: ChoiceKey,
                 limits: Limits = Limits(), logger: Logger = Logger(label: "quizbox.live"), metrics: ActivityMetrics = .off,
                 cluster: Cluster? = nil) {
        self.limits = limits
        self.joins = joins
        context = LiveContext(store: store, catalog: catalog, time: time, key: key, limits: limits, logger: logger, metrics: metrics,
                              cluster: cluster)
    }

    /// Where events go; set once the adapter is built.
    package func deliver(to outbox: any LiveOutbox) {
        context.deliver(to: outbox)
    }

    /// Games running in this process, for the live-games gauge.
    package var runningCount: Int { context.rooms.count }

    /// Whether the game is running on this server now.
    package func isRunning(gameId: Int64) -> Bool { context.rooms.room(id: gameId) != nil }

    package enum HostCommand: Sendable, Equatable {
        case settings(LiveSettings)
        case start, close, next, end
        case kick(Int)
        case lock(Bool)
        /// A word cloud's entry (its key) hidden from every screen.
        case hide(question: Int, key: String)
    }

    /// What hosting a quiz would play: its questions a live game can play, and how many it leaves out.
    package struct Setup: Sendable {
        package var quiz: QuizSummary
        package var questions: [Question]
        package var skipped: Int
        /// The kinds of the questions left out, in `QuestionKind` order.
        package var skippedKinds: [QuestionKind]
        /// The questions left out, in the quiz's order (the setup page names each and why).
        package var leftOut: [Question] = []
    }

    package struct Joined: Sendable {
        package var player: LivePlayer
        /// Kept by the player's browser to come back automatically; only its hash is stored.
        package var secret: String
        /// Short, shown to the player, for coming back from another device with the nickname; nil
        /// on an automatic resume (only its hash is kept: the browser still has it).
        package var code: String?
        package var game: LiveGame
    }
}

extension LiveGames.Failure {
    /// A refusal that a wrong guess (of a PIN, a secret, a rejoin code) gets, or too many of them:
    /// a socket that collects `LiveGames.maxFailedGreetings` of them is closed.
    package var isGuess: Bool {
        switch self {
        case .unknownGame, .badRejoin, .notResumable, .rateLimited, .notHost: true
        default: false
        }
    }
}

extension LiveGames {
    /// Refused greetings one socket may send before it is closed: a phone retrying its own game
    /// needs one or two, a script guessing PINs or secrets is cut short.
    package static let maxFailedGreetings = 3
}
