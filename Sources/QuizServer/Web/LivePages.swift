import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QuizCore
import QuizStore
import QuizText
import QuizUseCases

/// The pages of live games: setting one up, the host's screen, the players' page, the host's games
/// and each game's results (also as CSV and an Excel workbook; as JSON through the API). The game itself runs over the socket
/// (`LiveSocket`); these pages only load it.
struct LivePages: Sendable {
    let pages: Pages
    let games: LiveGames
    /// Draws the join address's QR code as SVG.
    let qrCode: @Sendable (String) -> String

    func register(anyone: some RouterMethods<PageContext>, signedIn: some RouterMethods<SignedInContext>) {
        signedIn.get("/live") { _, context in try await myGames(context) }
        signedIn.get("/live/new") { request, context in
            guard let quizId = request.uri.queryParameters["quiz"].flatMap({ Int64($0) }) else { throw HTTPError(.notFound) }
            return try await newGame(context, quizId: quizId)
        }
        signedIn.post("/live") { _, context in try await create(context) }
        signedIn.get("/live/:id/host") { request, context in try await hostScreen(context, gameId: context.pathID("id"), request: request) }
        signedIn.get("/live/:id/results") { _, context in try await resultsPage(context, gameId: context.pathID("id")) }
        signedIn.get("/live/:id/results.csv") { request, context in
            try await resultsCSV(context, gameId: context.pathID("id"), separator: request.uri.queryParameters["separator"].map(String.init))
        }
        signedIn.get("/live/:id/results.xlsx") { _, context in try await resultsWorkbook(context, gameId: context.pathID("id")) }
        anyone.get("/join") { request, context in joinPage(context, pin: request.uri.queryParameters["pin"].map(String.init)) }
        anyone.get("/join/:pin") { _, context in
            joinPage(context, pin: try context.parameters.require("pin"))
        }
    }

    // MARK: Setting up

    struct QuestionLine: Encodable {
        var index: Int
        var position: Int
        var text: String
        /// The question's own time, which the game's setting does not change.
        var ownSeconds: String?
        var double = false
        var none = false
    }

    /// A question a live game leaves out, and why.
    struct LeftOutLine: Encodable {
        var text: String
        var reason: String
    }

    struct NewGamePage: Encodable {
        var quizId: Int64
        var quizTitle: String
        var questions: [QuestionLine]
        var error: String?
        var skipped: String?
        var ownTimes: String?
        var leftOut: [LeftOutLine] = []
        var hasLeftOut = false
        // What was sent, shown again after a mistake (nil and false show the defaults).
        var secondsPerQuestion: String?
        var streakBonusOff = false
        var shuffleAnswers = false
        var leaderboardAfterEachOff = false
        var autoAdvance = false
        var soundOnPhones = false
        /// "2 questions have a sound clip": the option only shows when one does.
        var sounds: String?
        var teams2 = false, teams3 = false, teams4 = false, teams5 = false, teams6 = false
        var secondsError: String?
        var teamsError: String?
    }

    /// A sent form shown again: its values and what is wrong with each field.
    struct SentSettings {
        var seconds: String
        var settings: LiveSettings
        var problems: [LiveSettings.Problem]
    }

    func newGame(_ context: SignedInContext, quizId: Int64, error: String? = nil, sent: SentSettings? = nil) async throws -> Response {
        let t = context.visit.t
        let setup: LiveGames.Setup
        do {
            setup = try await games.setup(quizId: quizId, user: context.user)
        } catch .quizNotFound {
            throw HTTPError(.notFound)
        } catch {
            return pages.render("live-new", NewGamePage(quizId: quizId, quizTitle: "", questions: [],
                                                        error: t("This quiz has no question a live game can play.")),
                                visit: context.visit, title: t("Host a live game"), tab: "Quizzes", status: .unprocessableContent)
        }
        var model = NewGamePage(
            quizId: quizId, quizTitle: setup.quiz.title,
            questions: setup.questions.enumerated().map { index, question in
                let points = sent?.settings.points(at: index) ?? .standard
                return QuestionLine(index: index, position: index + 1, text: question.text,
                                    ownSeconds: question.timeLimitSeconds.map { t("{seconds} s", ["seconds": t.number($0)]) },
                                    double: points == .double, none: points == .none)
            },
            error: error,
            skipped: setup.skipped > 0
                ? t.count(setup.skipped, "{count} question of this quiz is left out: live games do not play these kinds: {kinds}.",
                          "{count} questions of this quiz are left out: live games do not play these kinds: {kinds}.",
                          ["kinds": setup.skippedKinds.map { ManageText.kindLabel($0, t).lowercased() }.joined(separator: ", ")])
                : nil,
            leftOut: setup.leftOut.map { question in
                LeftOutLine(text: question.text.count > 80 ? String(question.text.prefix(79)) + "…" : question.text,
                            reason: question.kind == .gapFill
                                ? t("a gap fill is too much to read and fill in on a phone against the clock")
                                : t("name them all is a game of its own"))
            })
        model.hasLeftOut = !model.leftOut.isEmpty
        let timed = setup.questions.count { $0.timeLimitSeconds != nil }
        if timed > 0 {
            model.ownTimes = t.count(timed, "{count} question has its own time and keeps it.", "{count} questions have their own time and keep it.")
        }
        let withSound = setup.questions.count { $0.audio != nil }
        if withSound > 0 {
            model.sounds = t.count(withSound, "{count} question has a sound clip: it plays on this screen when the question opens.",
                                   "{count} questions have a sound clip: each plays on this screen when its question opens.")
        }
        if let sent {
            let settings = sent.settings
            model.secondsPerQuestion = sent.seconds
            model.streakBonusOff = !settings.streakBonus
            model.shuffleAnswers = settings.shuffleAnswers
            model.leaderboardAfterEachOff = !settings.leaderboardAfterEach
            model.autoAdvance = settings.autoAdvance
            model.soundOnPhones = settings.soundOnPhones
            (model.teams2, model.teams3, model.teams4, model.teams5, model.teams6) =
                (settings.teams == 2, settings.teams == 3, settings.teams == 4, settings.teams == 5, settings.teams == 6)
            if sent.problems.contains(.seconds) {
                model.secondsError = t("Give a whole number of seconds from {min} to {max}.", ["min": t.number(LiveSettings.secondsRange.lowerBound), "max": t.number(LiveSettings.secondsRange.upperBound)])
            }
            if sent.problems.contains(.teams) { model.teamsError = t("Choose no teams, or 2 to 6.") }
        }
        return pages.render("live-new", model, visit: context.visit, title: t("Host a live game"), tab: "Quizzes",
                            status: error == nil ? .ok : .unprocessableContent)
    }

    func create(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let form = context.form
        guard let quizId = Int64(form.text("quiz")) else { throw HTTPError(.notFound) }
        var settings = LiveSettings()
        settings.secondsPerQuestion = Int(form.text("secondsPerQuestion")) ?? -1
        settings.streakBonus = form["streakBonus"] != nil
        settings.shuffleAnswers = form["shuffleAnswers"] != nil
        settings.leaderboardAfterEach = form["leaderboardAfterEach"] != nil
        settings.autoAdvance = form["autoAdvance"] != nil
        settings.soundOnPhones = form["soundOnPhones"] != nil
        settings.teams = Int(form.text("teams")) ?? -1
        for pair in form.pairs where pair.name.hasPrefix("points-") {
            guard let index = Int(pair.name.dropFirst("points-".count)), let points = LiveSettings.Points(rawValue: pair.value) else { continue }
            if points != .standard { settings.points[index] = points }
        }
        do {
            let game = try await games.host(quizId: quizId, user: context.user, settings: settings)
            return PageRenderer.redirect(to: "/live/\(game.id)/host")
        } catch .quizNotFound {
            throw HTTPError(.notFound)
        } catch .badSettings(let problems) {
            return try await newGame(context, quizId: quizId, error: t("Please fix the marked fields; no game was created."),
                                     sent: SentSettings(seconds: form.text("secondsPerQuestion"), settings: settings, problems: problems))
        } catch .tooManyGames {
            return try await newGame(context, quizId: quizId,
                                     error: t("You are running {count} games already: end one first.", ["count": t.number(games.limits.gamesPerHost)]),
                                     sent: SentSettings(seconds: form.text("secondsPerQuestion"), settings: settings, problems: []))
        } catch {
            return try await newGame(context, quizId: quizId, error: t("This quiz has no question a live game can play."))
        }
    }

    // MARK: Playing

    struct HostPage: Encodable {
        var gameId: Int64
        var pin: String
        var joinURL: String
        var joinPath: String
        var qrSVG: PageHTML
        var quizTitle: String
    }

    func hostScreen(_ context: SignedInContext, gameId: Int64, request: Request) async throws -> Response {
        // Across instances the game may run on another one: read it from the database.
        await games.loadRoom(id: gameId)
        let game: LiveGame
        do {
            game = try games.hostView(gameId: gameId, userId: context.user.id)
        } catch .unknownGame {
            // Over (or never here): its results stay.
            throw Redirect(location: "/live/\(gameId)/results")
        } catch {
            throw HTTPError(.notFound)
        }
        let joinURL = LiveSocket.joinURL(pin: game.pin, authority: request.head.authority, publicURL: pages.config.publicURL.isEmpty ? nil : pages.config.publicURL)
        return pages.render("live-host", HostPage(gameId: gameId, pin: game.pin, joinURL: joinURL, joinPath: "/join",
                                                  qrSVG: PageHTML(qrCode(joinURL)), quizTitle: game.title),
                            visit: context.visit, title: context.visit.t("Hosting: {quiz}", ["quiz": game.title]), tab: "Quizzes")
    }

    struct JoinPage: Encodable {
        var pin: String?
        var username: String?
    }

    func joinPage(_ context: PageContext, pin: String?) -> Response {
        // Only digits reach the page: the PIN is put into a data attribute for the script.
        let digits = pin.map { String($0.filter(\.isASCII).filter(\.isNumber).prefix(6)) }
        return pages.render("live-join", JoinPage(pin: digits?.isEmpty == false ? digits : nil, username: context.visit.user?.username),
                            visit: context.visit, title: context.visit.t("Join a live game"))
    }

    // MARK: Results

    struct GameLine: Encodable {
        var id: Int64
        var pin: String
        var title: String
        var created: String
        var phaseLabel: String
        var playerCount: Int
        var running: Bool
    }

    struct GamesPage: Encodable {
        var games: [GameLine]
    }

    func myGames(_ context: SignedInContext) async throws -> Response {
        let t = context.visit.t
        let hosted = try await games.hostedGames(userId: context.user.id)
        func line(_ game: LiveGameSummary) -> GameLine {
            let running = game.endedAt == nil && games.isRunning(gameId: game.id)
            return GameLine(id: game.id, pin: game.pin, title: game.title, created: t.date(game.createdAt),
                            phaseLabel: running ? t("Running") : t("Ended"), playerCount: game.playerCount, running: running)
        }
        return pages.render("live-games", GamesPage(games: hosted.map(line)), visit: context.visit,
                            title: t("Live games"), tab: "Quizzes")
    }

    struct PlayerLine: Encodable {
        var rank: Int
        var nickname: String
        var team: Int?
        /// Written as the podium writes numbers ("3,227"; "3 227" in Finnish).
        var score: String
        var correct: Int
    }

    /// A player's answer to one question asked: no answer shows "—" and no points.
    struct Cell: Encodable {
        var answer: String?
        var verdictClass: String
        var answered: Bool?
        /// Speed points; the streak bonus apart (nil when none).
        var points: String
        var bonus: String?
        var seconds: String
    }

    struct Row: Encodable {
        var nickname: String
        var cells: [Cell]
    }

    struct ResultsPage: Encodable {
        var id: Int64
        var title: String
        var created: String
        var players: [PlayerLine]
        var questions: [QuestionLine]
        var rows: [Row]
    }

    private func results(_ context: SignedInContext, gameId: Int64) async throws -> LiveGames.Results {
        do {
            return try await games.results(gameId: gameId, userId: context.user.id)
        } catch .unknownGame, .notHost {
            throw HTTPError(.notFound)
        }
    }

    func resultsPage(_ context: SignedInContext, gameId: Int64) async throws -> Response {
        let t = context.visit.t
        let results = try await results(context, gameId: gameId)
        let rows = results.askedGrid.map { standing, records in
            Row(nickname: standing.player.nickname, cells: records.map { record in
                Cell(answer: record.map { QuestionFragments.words(results.words($0), of: $0.answer.answer, t: t) ?? "" },
                     verdictClass: record.map { $0.answer.isCorrect ? "right" : "wrong" } ?? "none",
                     answered: record == nil ? nil : true, points: t.number(record?.answer.points ?? 0),
                     bonus: record.flatMap { $0.answer.bonus > 0 ? t.number($0.answer.bonus) : nil },
                     seconds: record.map { t.decimal(Double($0.answer.milliseconds) / 1000, digits: 1) } ?? "")
            })
        }
        let model = ResultsPage(
            id: gameId, title: results.game.title, created: t.date(results.game.createdAt),
            players: results.standings.map { PlayerLine(rank: $0.rank, nickname: $0.player.nickname, team: $0.player.team,
                                                        score: t.number($0.player.score), correct: $0.player.correct) },
            questions: results.questions.prefix(results.asked).enumerated().map {
                QuestionLine(index: $0.offset, position: $0.offset + 1, text: $0.element.text)
            },
            rows: rows)
        return pages.render("live-results", model, visit: context.visit, title: t("Results: {quiz}", ["quiz": results.game.title]), tab: "Quizzes")
    }

    /// Comma-separated, or (`separator=semicolon`, or a Finnish page) semicolon-separated with a BOM.
    func resultsCSV(_ context: SignedInContext, gameId: Int64, separator: String?) async throws -> Response {
        let results = try await results(context, gameId: gameId)
        let separator = LiveResultsExport.Separator(parameter: separator, language: context.visit.t.language)
        return PageRenderer.download(Data(LiveResultsExport(results: results).csv(separator: separator).utf8),
                                     type: "text/csv; charset=utf-8", name: "live-game-\(gameId).csv")
    }

    func resultsWorkbook(_ context: SignedInContext, gameId: Int64) async throws -> Response {
        let results = try await results(context, gameId: gameId)
        return PageRenderer.download(LiveResultsExport(results: results).workbook(t: context.visit.t),
                                     type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", name: "live-game-\(gameId).xlsx")
    }
}
