import QuizLiveProtocol

/// At least one of every message, both directions, with the optional fields given and left out.
enum LiveProtocolSamples {
    typealias Message = LiveServerMessage

    static let ann = Message.Player(id: 1, nickname: "Ann \"A\" / Zoë", team: 2, score: 1_250, streak: 2, correct: 2)
    static let bob = Message.Player(id: 2, nickname: "Bob", team: nil, score: 0, streak: 0, correct: 0)
    static let game = Message.Game(pin: "048213", title: "Rivers & <capitals>", phase: .question, index: 0, questionCount: 3, teams: 2)
    static let settings = LiveProtocol.Settings(secondsPerQuestion: 30, points: [1: .double, 10: .none], streakBonus: true, shuffleAnswers: false,
                                                leaderboardAfterEach: true, autoAdvance: false, teams: 2)
    static let standing = Message.Standing(id: 1, nickname: "Ann", team: 1, score: 1_250, rank: 1, movement: -2, correct: 2)
    static let soloStanding = Message.Standing(id: 3, nickname: "Solo 🎉", team: nil, score: 900, rank: 2, movement: 0, correct: 1)
    static let teams = [Message.TeamScore(team: 1, score: 1_250, members: 1), Message.TeamScore(team: 2, score: 0, members: 3)]

    static let half = #"<math display="block"><semantics><mfrac><mn>1</mn><mn>2</mn></mfrac><annotation encoding="application/x-tex">\frac{1}{2}</annotation></semantics></math>"#
    static let interval = #"<math display="block"><semantics><mrow><mo>[</mo><mn>0</mn><mo>,</mo><mn>1</mn><mo>]</mo></mrow></semantics></math>"#
    static let maths: Message.Question = {
        var question = Message.Question(index: 0, count: 3, text: "Half of $$1$$ & <b>?", kind: .singleChoice,
                                        choices: [.init(id: 482_019_331, text: "$$\\frac{1}{2}$$", html: half),
                                                  .init(id: 917_220_004, text: "$$[0,1]$$", html: interval), .init(id: 100_000_007, text: "$2")],
                                        unit: nil, image: nil, points: .standard, seconds: 30, openedAt: 0, deadline: 30_000, now: 1)
        question.html = "Half of <math display=\"block\"><semantics><mn>1</mn></semantics></math> &amp; &lt;b&gt;?"
        return question
    }()

    static let server: [Message] = [
        .joined(.init(player: ann, secret: "c2VjcmV0/+=", code: "AB12CD", game: game)),
        .joined(.init(player: bob, secret: "s", code: nil, game: .init(pin: "1", title: "", phase: .lobby, index: -1, questionCount: 1, teams: 0))),
        .hosting(.init(game: .init(id: 42, pin: "048213", title: "T", joinURL: "https://quiz.example.org/join/048213", phase: .lobby, index: -1,
                                   questionCount: 3, teams: 2, locked: true, settings: settings))),
        .players(.init(players: [Message.Player(id: 1, nickname: "Ann", team: 1, score: 0, streak: 0, correct: 0, connected: true),
                                 Message.Player(id: 2, nickname: "Bob", team: nil, score: 0, streak: 0, correct: 0, connected: false)],
                       count: 700, locked: false)),
        .players(.init(players: [], count: 0, locked: true)),
        .question(.init(index: 0, count: 3, text: "Which?\nPick one.", kind: .singleChoice,
                        choices: [.init(id: 482_019_331, text: "Paris"), .init(id: 100_000_007, text: "Lyon \\ Lugdunum")], unit: nil,
                        image: .init(url: "/images/ab.png", alt: "A map", width: 640, height: 480), points: .double, seconds: 30,
                        openedAt: 1_700_000_000_250, deadline: 1_700_000_030_250, now: 1_700_000_000_457)),
        .question(.init(index: 1, count: 3, text: "How long?", kind: .numeric, choices: [], unit: "km", image: nil, points: .none, seconds: 20,
                        openedAt: 1, deadline: 20_001, now: 2)),
        .question(.init(index: 2, count: 3, text: "New kind", kind: .init(rawValue: "ordering"), choices: [], unit: nil, image: nil,
                        points: .standard, seconds: 5, openedAt: 0, deadline: 0, now: 0)),
        // Issue 31's kinds: their parts, an estimate's slider, a word cloud's length.
        .question(Message.Question(index: 3, count: 6, text: "Oldest first", kind: .ordering, choices: [], unit: nil, image: nil, points: .standard,
                                   seconds: 20, openedAt: 0, deadline: 20_000, now: 5)
            .with(items: [.init(id: 204_000_002, text: "Paris"), .init(id: 731_000_001, text: "Rome")])),
        .question(Message.Question(index: 4, count: 6, text: "Capitals", kind: .matching, choices: [], unit: nil, image: nil, points: .standard,
                                   seconds: 20, openedAt: 0, deadline: 20_000, now: 5)
            .with(prompts: [.init(id: 1, text: "France"), .init(id: 2, text: "Italy")],
                  answers: [.init(id: 204_000_002, text: "Paris"), .init(id: 388_000_004, text: "Lyon")])),
        .question(Message.Question(index: 5, count: 6, text: "Eiffel", kind: .estimate, choices: [], unit: "m", image: nil, points: .standard,
                                   seconds: 20, openedAt: 0, deadline: 20_000, now: 5)
            .with(estimate: .init(minimum: -10, maximum: 1_000.5, step: 0.5))),
        .question(Message.Question(index: 5, count: 6, text: "A word", kind: .wordCloud, choices: [], unit: nil, image: nil, points: .none,
                                   seconds: 20, openedAt: 0, deadline: 20_000, now: 5).with(maxLength: 40)),
        // Maths: an `html` beside each text that holds TeX (a `]` in it too), none beside the rest.
        .question(Self.maths),
        .question(Self.maths.with(items: [.init(id: 204_000_002, text: "$$x^2$$", html: half), .init(id: 731_000_001, text: "x")])),
        .question(Self.maths.with(prompts: [.init(id: 1, text: "\\(a\\)", html: half)], answers: [.init(id: 388_000_004, text: "$$[0,1]$$", html: interval)])),
        .reveal({
            var reveal = Message.Reveal(index: 0, correct: "$$\\frac{1}{2}$$", correctChoices: [482_019_331], explanation: "Halves: \\(1/2\\)",
                                        distribution: [.init(label: "$$\\frac{1}{2}$$", labelHTML: half, choice: 482_019_331, count: 1, correct: true),
                                                       .init(label: "Lyon", choice: 100_000_007, count: 0, correct: false)],
                                        answered: 1, players: 2)
            (reveal.correctHTML, reveal.explanationHTML) = (half, "Halves: " + half)
            return reveal.with(order: [.init(id: 731_000_001, text: "$$[0,1]$$", html: interval)])
        }()),
        .progress(.init(index: 0, answered: 1, players: 2)),
        .cloud(.init(index: 5, words: [.init(key: "coffee", text: "Coffee", count: 7), .init(key: "b", text: "<b>\"", count: 1)], others: 3)),
        .reveal(Message.Reveal(index: 3, correct: "Rome → Paris", correctChoices: [], explanation: nil, distribution: [], answered: 1, players: 1)
            .with(order: [.init(id: 731_000_001, text: "Rome"), .init(id: 204_000_002, text: "Paris")])),
        .reveal(Message.Reveal(index: 4, correct: "France: Paris", correctChoices: [], explanation: nil, distribution: [], answered: 1, players: 1)
            .with(pairs: [.init(prompt: 1, answer: 204_000_002)])),
        .reveal(Message.Reveal(index: 5, correct: "330 m", correctChoices: [], explanation: nil, distribution: [], answered: 1, players: 1)
            .with(estimate: .init(value: 330, closest: [.init(nickname: "Ann", value: 330.5, points: 995)]))),
        .reveal(Message.Reveal(index: 5, correct: "", correctChoices: [], explanation: nil, distribution: [], answered: 8, players: 9)
            .with(cloud: .init(index: 5, words: [.init(key: "tea", text: "Tea", count: 8)], others: 0))),
        .result(.init(index: 4, answered: true, correct: false, late: false, points: 667, bonus: 0, score: 667, rank: 1, streak: 0, credit: 67)),
        .result(.init(index: 4, answered: true, correct: false, late: false, points: 250, bonus: 0, score: 900, rank: 2, streak: 0,
                      behind: .init(nickname: "Ann", points: 5), credit: 25)),
        .reveal(.init(index: 0, correct: "Paris", correctChoices: [482_019_331], explanation: "Since 987.",
                      distribution: [.init(label: "Paris", choice: 482_019_331, count: 1, correct: true),
                                     .init(label: "Lyon", choice: 100_000_007, count: 0, correct: false)],
                      answered: 1, players: 2)),
        .reveal(.init(index: 1, correct: "777 km", correctChoices: [], explanation: nil, distribution: [.init(label: "right", choice: nil, count: 3, correct: true)],
                      answered: 3, players: 4)),
        .result(.init(index: 0, answered: true, correct: true, late: false, points: 850, bonus: 100, score: 1_250, rank: 1, streak: 2)),
        .result(.init(index: 12, answered: true, correct: false, late: true, points: 0, bonus: 0, score: -3, rank: 10_000, streak: 0)),
        .result(.init(index: 0, answered: false, correct: false, late: false, points: 0, bonus: 0, score: 0, rank: 2, streak: 0)),
        .result(.init(index: 1, answered: true, correct: false, late: false, points: 0, bonus: 0, score: 900, rank: 2, streak: 0,
                      behind: .init(nickname: "Ann / A-1", points: 350))),
        // Nicknames that need escaping, are not ASCII, or hold a control character (written through
        // Codable): the same bytes either way.
        .result(.init(index: 1, answered: true, correct: false, late: false, points: 0, bonus: 0, score: 0, rank: 3, streak: 0,
                      behind: .init(nickname: "Zoë \"Z\" \\ 🎉 </script>", points: 900))),
        .result(.init(index: 1, answered: true, correct: false, late: false, points: 0, bonus: 0, score: 0, rank: 3, streak: 0,
                      behind: .init(nickname: "line\u{2028}sep\u{7F}", points: 1))),
        .result(.init(index: 1, answered: true, correct: false, late: false, points: 0, bonus: 0, score: 0, rank: 3, streak: 0,
                      behind: .init(nickname: "tab\there\n", points: 2))),
        .leaderboard(.init(top: [standing, soloStanding], teams: teams, final: false)),
        .leaderboard(.init(top: [], teams: [], final: true)),
        .ended(.init(podium: [standing], teams: teams, standings: [standing, soloStanding])),
        .ended(.init(podium: [standing], teams: [], you: .init(rank: 1, score: 1_250, correct: 2))),
        .ended(.init(podium: [], teams: [], you: .init(rank: nil, score: nil, correct: nil))),
        .ended(.init(podium: [standing], teams: teams)),
        .host(.init(connected: false, endsAt: 1_700_000_300_000, now: 1_700_000_000_457)),
        .host(.init(connected: true)),
        .kicked,
        .ack(.init(question: 0)),
        .ack(.init(question: 41)),
        .error(.init(code: "not-open", message: "That question is not open.", of: "answer")),
        .error(.init(code: "rate-limited", message: "Too many messages: slow down.", of: nil)),
    ]

    static let client: [LiveClientMessage] = [
        .host(game: 9_007_199_254_740_993),
        .join(pin: "048213", nickname: "Zoë \"Z\"", team: 2),
        .join(pin: "048213", nickname: "Bob", team: nil),
        .resume(pin: "048213", player: 3, secret: "c2VjcmV0/+="),
        .rejoin(pin: "048213", nickname: "Bob", code: "AB12CD"),
        .answer(question: 0, answer: .choice(482_019_331)),
        .answer(question: 0, answer: .choices([3, 1])),
        .answer(question: 1, answer: .value(false)),
        .answer(question: 2, answer: .text("Seine\n")),
        .answer(question: 3, answer: .number(.digits("1,5"))),
        .answer(question: 3, answer: .number(.value(-1.25))),
        .settings(LiveProtocolSamples.settings),
        .settings(.init(teams: 3)),
        .start, .close, .next, .end,
        .kick(player: 7),
        .lock(locked: true),
        .hide(question: 5, key: "coffee \"x\""),
        .answer(question: 3, answer: .order([731_000_001, 204_000_002])),
        .answer(question: 4, answer: .matches([1: 204_000_002, 2: 388_000_004])),
    ]
}
