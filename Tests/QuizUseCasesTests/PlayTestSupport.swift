import Foundation
import QuizCore
import QuizStore
import QuizUseCases
import Testing

/// A small bank with one question of each kind in a quiz, and a name-them-all question.
func playBank() -> Bank {
    let quiz = BankQuiz(title: "Europe", questions: [
        Question(text: "Capital of France?", explanation: "Since 987.", points: 2,
                 body: .singleChoice([Choice(id: 1, text: "Lyon", isCorrect: false), Choice(id: 2, text: "Paris", isCorrect: true)])),
        Question(text: "Which border Germany?",
                 body: .multipleChoice([Choice(id: 1, text: "France", isCorrect: true), Choice(id: 2, text: "Spain", isCorrect: false),
                                        Choice(id: 3, text: "Poland", isCorrect: true)])),
        Question(text: "The Danube flows into the Black Sea.", body: .trueFalse(true)),
        Question(text: "Capital of the Netherlands?", body: .typedAnswer(["Amsterdam"])),
        Question(text: "How long is the Rhine?", body: .numeric(value: 1233, tolerance: 10, unit: "km")),
    ])
    let planets = Question(text: "Name all the planets.", body: .nameAll(
        items: ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"].map { NameAllItem(answer: $0) },
        timeLimitSeconds: 120, typoTolerance: false))
    return Bank(subjects: [BankSubject(name: "Geography", topics: [
        BankTopic(name: "Europe", quizzes: [quiz]),
        BankTopic(name: "Space", questions: [planets]),
    ])])
}

/// The bank loaded, with the ids tests need.
struct PlayFixture {
    var quiz: QuizSummary
    /// The quiz's questions in order: single, multiple, true/false, typed, numeric.
    var questions: [Question]
    var planetsId: Int64

    func id(_ index: Int) -> Int64 { questions[index].id ?? 0 }
}

extension UseCaseEnvironment {
    /// One key for every test: ids stay the same between the use cases a test builds.
    static let choiceKey = ChoiceKey(secret: Array(repeating: 7, count: ChoiceKey.secretLength))
    var choiceKey: ChoiceKey { Self.choiceKey }
    var playQuiz: PlayQuiz { PlayQuiz(store: store, time: time, key: choiceKey) }
    var practice: Practice { Practice(store: store, time: time) }
    var singleQuestion: SingleQuestion { SingleQuestion(store: store, time: time, key: choiceKey) }

    /// The public id a player is shown for the stored choice `id` of `question`.
    func shown(_ id: Int, of question: Question) -> Int { choiceKey.ids(for: question).publicId(id) }

    func shown(_ id: Int, ofQuestion questionId: Int64) async throws -> Int {
        shown(id, of: try #require(try await store.question(id: questionId)))
    }

    func nameAllGames(guessesPerSecond: Int = NameAllGames.guessesPerSecond) -> NameAllGames {
        NameAllGames(store: store, time: time, games: GameTable(), guessLimiter: RateLimiter(limit: guessesPerSecond, window: 1, time: time))
    }

    func loadPlayBank() async throws -> PlayFixture {
        _ = try await store.importBank(playBank(), at: time.now())
        let quiz = try #require(try await store.allQuizzes().first?.quiz)
        let planets = try #require(try await store.nameAllQuestions().first?.question.id)
        return PlayFixture(quiz: quiz, questions: try await store.questions(quizId: quiz.id), planetsId: planets)
    }
}
