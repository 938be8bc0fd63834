import Foundation
@testable import QuizCore
import Testing

@Suite struct NameAllGameTests {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    private let planets = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"]

    private func question(
        _ items: [NameAllItem], timeLimit: Int = 60, typos: Bool = false, points: Int = 1
    ) -> Question {
        Question(text: "Name them all", points: points, body: .nameAll(items: items, timeLimitSeconds: timeLimit, typoTolerance: typos))
    }

    private func makeSUT(
        _ answers: [String]? = nil, timeLimit: Int = 60, typos: Bool = false, points: Int = 1,
        grace: TimeInterval = NameAllGame.defaultGrace
    ) throws -> NameAllGame {
        let items = (answers ?? planets).map { NameAllItem(answer: $0) }
        return try NameAllGame(question: question(items, timeLimit: timeLimit, typos: typos, points: points), startedAt: t0, grace: grace)
    }

    private func at(_ seconds: TimeInterval) -> Date { t0 + seconds }

    // MARK: Start

    @Test func startingANonNameAllQuestionFails() {
        let typed = Question(text: "Capital of France?", body: .typedAnswer(["Paris"]))
        #expect(throws: NameAllGame.Error.notNameAll(.typedAnswer)) { try NameAllGame(question: typed, startedAt: t0) }
        #expect(throws: NameAllGame.Error.noItems) { try NameAllGame(question: question([]), startedAt: t0) }
    }

    @Test func aNewGameIsPlayingWithTheQuestionsTimeLimit() throws {
        let game = try makeSUT(timeLimit: 90)
        #expect(game.state == .playing)
        #expect(game.found.isEmpty)
        #expect(game.deadline == at(90))
        #expect(try makeSUT(timeLimit: 0).deadline == at(300))
    }

    // MARK: Restore

    @Test func aStoredGameComesBackAsItWasLeft() throws {
        let items = planets.map { NameAllItem(answer: $0) }
        var playing = try NameAllGame(question: question(items), startedAt: t0, found: [7, 1, 7, 42], ended: nil)
        #expect(playing.found == [7, 1], "repeated and unknown items are ignored")
        #expect(playing.guess("Venus", at: at(5)) == .alreadyFound(item: 1))
        #expect(playing.guess("Earth", at: at(6)) == .found(item: 2))

        let gaveUp = try NameAllGame(question: question(items), startedAt: t0, found: [3], ended: (.gaveUp, at(20)))
        #expect(gaveUp.state == .finished(.gaveUp))
        #expect(gaveUp.result(at: at(50)).secondsUsed == 20)
        var over = gaveUp
        #expect(over.guess("Mars", at: at(21)) == .gameOver)

        let all = try NameAllGame(question: question(items), startedAt: t0, found: Array(0..<8), ended: nil)
        #expect(all.state == .finished(.allFound))
    }

    // MARK: Add guess

    @Test func everyGuessVerdict() throws {
        var game = try makeSUT()
        #expect(game.guess("Mars", at: at(1)) == .found(item: 3))
        #expect(game.guess("mars", at: at(2)) == .alreadyFound(item: 3))
        #expect(game.guess("Pluto", at: at(3)) == .notAnItem)
        #expect(game.guess("  ?! ", at: at(4)) == .empty)
        #expect(game.guess(String(repeating: "x", count: 201), at: at(5)) == .tooLong)
        #expect(game.found == [3])
        #expect(game.state == .playing)
    }

    @Test func foundItemsAreKeptInTheOrderFound() throws {
        var game = try makeSUT()
        for name in ["Venus", "Neptune", "Mercury"] { _ = game.guess(name, at: at(1)) }
        #expect(game.found == [1, 7, 0])
        #expect(game.result(at: at(10)).found.map(\.answer) == ["Venus", "Neptune", "Mercury"])
    }

    @Test func alternateSpellingsFindTheirItem() throws {
        let items = [NameAllItem(answer: "Earth", alternates: ["Terra", "Gaia"]), NameAllItem(answer: "Moon", alternates: ["Luna"])]
        var game = try NameAllGame(question: question(items), startedAt: t0)
        #expect(game.guess("terra", at: at(1)) == .found(item: 0))
        #expect(game.guess("Earth", at: at(2)) == .alreadyFound(item: 0))
        #expect(game.guess("Gaia", at: at(3)) == .alreadyFound(item: 0))
        #expect(game.guess("LUNA", at: at(4)) == .found(item: 1))
    }

    @Test func articlesCaseDiacriticsAndPunctuationAreIgnored() throws {
        var game = try makeSUT(["The Hague", "Zürich", "Saint-Étienne", "São Paulo"])
        #expect(game.guess("hague", at: at(1)) == .found(item: 0))
        #expect(game.guess("ZURICH", at: at(2)) == .found(item: 1))
        #expect(game.guess("saint etienne!", at: at(3)) == .found(item: 2))
        #expect(game.guess("sao paulo", at: at(4)) == .found(item: 3))
    }

    // MARK: Typo tolerance

    @Test func typosAreNotAcceptedByDefault() throws {
        var game = try makeSUT()
        #expect(game.guess("Jupitr", at: at(1)) == .notAnItem)
        #expect(game.guess("Satrun", at: at(1)) == .notAnItem)
    }

    @Test func withTypoToleranceOneEditOrSwapFindsTheItem() throws {
        var game = try makeSUT(typos: true)
        #expect(game.guess("Jupitr", at: at(1)) == .found(item: 4))  // deletion
        #expect(game.guess("Satrun", at: at(2)) == .found(item: 5))  // swap of neighbours
        #expect(game.guess("Venis", at: at(3)) == .found(item: 1))  // substitution, exactly 5 letters
        #expect(game.guess("Neptunee", at: at(4)) == .found(item: 7))  // insertion
        #expect(game.guess("Jupiterr", at: at(5)) == .alreadyFound(item: 4))
        #expect(game.guess("Jpuitre", at: at(6)) == .notAnItem)  // two edits
        #expect(game.guess("Mercurry", at: at(7)) == .found(item: 0))
    }

    @Test func everySingleEditOrSwapAnywhereInTheWordIsForgiven() throws {
        let word = Array("neptune")
        var typos: [String] = []
        for i in word.indices {
            var deleted = word; deleted.remove(at: i); typos.append(String(deleted))
            var substituted = word; substituted[i] = "x"; typos.append(String(substituted))
            var inserted = word; inserted.insert("x", at: i); typos.append(String(inserted))
            if i + 1 < word.count { var swapped = word; swapped.swapAt(i, i + 1); typos.append(String(swapped)) }
        }
        typos.append("neptunex")
        for typo in typos {
            var game = try makeSUT(typos: true)
            #expect(game.guess(typo, at: at(1)) == .found(item: 7), "\(typo)")
        }
    }

    @Test func typoToleranceSkipsItemsShorterThanFiveCharacters() throws {
        var game = try makeSUT(typos: true)
        #expect(game.guess("Mras", at: at(1)) == .notAnItem)  // "mars" has 4 characters
        #expect(game.guess("Marz", at: at(1)) == .notAnItem)
        #expect(game.guess("Earht", at: at(1)) == .found(item: 2))  // "earth" has 5
    }

    @Test func typoToleranceAppliesToAlternatesToo() throws {
        let items = [NameAllItem(answer: "Earth", alternates: ["Terra"]), NameAllItem(answer: "Mars")]
        var game = try NameAllGame(question: question(items, typos: true), startedAt: t0)
        #expect(game.guess("Tera", at: at(1)) == .found(item: 0))
    }

    @Test func aTypoCloseToTwoItemsIsNotAnItem() throws {
        var game = try makeSUT(["Maria", "Mario", "Marcus"], typos: true)
        #expect(game.guess("Marip", at: at(1)) == .notAnItem)  // one edit from both
        #expect(game.guess("Mariox", at: at(2)) == .found(item: 1))  // two edits from "maria"
        #expect(game.guess("Marcuss", at: at(3)) == .found(item: 2))
    }

    @Test func typoDistanceIsOptimalStringAlignmentBoundedAtOne() {
        func close(_ a: String, _ b: String) -> Bool { Typo.withinOne(Array(a.unicodeScalars), Array(b.unicodeScalars)) }
        #expect(close("paris", "paris"))
        #expect(close("paris", "pairs"))
        #expect(close("paris", "pari"))
        #expect(close("paris", "aris"))
        #expect(close("paris", "parris"))
        #expect(close("paris", "paros"))
        #expect(close("", "a"))
        #expect(!close("paris", "pa"))
        #expect(!close("paris", "piras"))
        #expect(!close("paris", "aprsi"))
        #expect(!close("ab", "ba x"))
        #expect(close("ｚürich", "zürych") == false)  // raw, not normalised: two differences
    }

    // MARK: Finish

    @Test func findingEveryItemFinishesTheGame() throws {
        var game = try makeSUT(["Red", "Green", "Blue"])
        _ = game.guess("red", at: at(5))
        _ = game.guess("blue", at: at(10))
        #expect(game.guess("green", at: at(12.5)) == .found(item: 1))
        #expect(game.state == .finished(.allFound))
        let result = game.result(at: at(40))
        #expect(result.endReason == .allFound)
        #expect(result.secondsUsed == 12.5)
        #expect(result.missed.isEmpty)
        #expect(game.guess("red", at: at(13)) == .gameOver)
    }

    @Test func aGuessExactlyAtTheDeadlineCounts() throws {
        var game = try makeSUT(grace: 0)
        #expect(game.guess("Mars", at: game.deadline) == .found(item: 3))
        #expect(game.guess("Venus", at: game.deadline + 0.001) == .tooLate)
        #expect(game.state == .finished(.timeUp))
        #expect(game.guess("Earth", at: game.deadline + 0.002) == .tooLate)
        #expect(game.found == [3])
    }

    @Test func graceLetsSlightlyLateGuessesCount() throws {
        var game = try makeSUT()  // default grace: 1 s
        #expect(game.guess("Mars", at: at(60.5)) == .found(item: 3))
        #expect(game.guess("Venus", at: at(61)) == .found(item: 1))
        #expect(game.guess("Earth", at: at(61.01)) == .tooLate)
        var generous = try makeSUT(grace: 5)
        #expect(generous.guess("Earth", at: at(64)) == .found(item: 2))
    }

    @Test func timeRunsOutWithoutAnyGuess() throws {
        let game = try makeSUT()
        #expect(game.state(at: at(59)) == .playing)
        #expect(game.state(at: at(62)) == .finished(.timeUp))
        let result = game.result(at: at(500))
        #expect(result.endReason == .timeUp)
        #expect(result.secondsUsed == 60)
        #expect(result.missed.count == 8)
        #expect(result.points == 0)
    }

    @Test func givingUpEndsTheGameAndListsMissedItems() throws {
        var game = try makeSUT(["Red", "Green", "Blue"])
        _ = game.guess("blue", at: at(3))
        game.giveUp(at: at(20))
        #expect(game.state == .finished(.gaveUp))
        #expect(game.guess("red", at: at(21)) == .gameOver)
        game.giveUp(at: at(30))  // no effect
        let result = game.result(at: at(45))
        #expect(result.endReason == .gaveUp)
        #expect(result.found.map(\.answer) == ["Blue"])
        #expect(result.missed.map(\.index) == [0, 1])
        #expect(result.missed.map(\.answer) == ["Red", "Green"])
        #expect(result.secondsUsed == 20)
        #expect(result.points == 1)
    }

    @Test func givingUpAfterTimeRanOutCountsAsTimeUp() throws {
        var game = try makeSUT()
        game.giveUp(at: at(100))
        #expect(game.state == .finished(.timeUp))
        #expect(game.result(at: at(100)).secondsUsed == 60)
    }

    @Test func aResultMidGameShowsProgress() throws {
        var game = try makeSUT()
        _ = game.guess("Mars", at: at(4))
        let result = game.result(at: at(15))
        #expect(result.endReason == nil)
        #expect(result.secondsUsed == 15)
        #expect(result.points == 1)
    }

    // MARK: Points

    @Test func onePointPerItemFoundPlusABonusOfOneFifthOfTheItemsRoundedUpForFindingAll() throws {
        var game = try makeSUT()  // 8 items: bonus 2
        for planet in planets.dropLast() { _ = game.guess(planet, at: at(1)) }
        #expect(game.result(at: at(2)).points == 7)
        _ = game.guess("Neptune", at: at(3))
        #expect(game.result(at: at(3)).points == 10)

        var single = try makeSUT(["Sun"])  // bonus rounds up to 1
        _ = single.guess("sun", at: at(1))
        #expect(single.result(at: at(1)).points == 2)

        var ten = try makeSUT((1...10).map { "item \($0)" })  // bonus 2
        for n in 1...10 { _ = ten.guess("item \(n)", at: at(1)) }
        #expect(ten.result(at: at(1)).points == 12)
    }

    @Test func theQuestionsPointsScaleItemsAndBonus() throws {
        var game = try makeSUT(["Red", "Green", "Blue"], points: 3)
        for colour in ["red", "green", "blue"] { _ = game.guess(colour, at: at(1)) }
        #expect(game.result(at: at(1)).points == (3 + 1) * 3)
    }

    // MARK: Hostile guesses

    @Test func hugeGuessesAreRefusedCheaply() throws {
        var game = try makeSUT()
        #expect(game.guess(String(repeating: "Mars ", count: 2_048), at: at(1)) == .tooLong)
        #expect(game.guess(String(repeating: "é", count: 201), at: at(1)) == .tooLong)
        // 200 characters are allowed, however many bytes they take.
        #expect(game.guess(String(repeating: "é", count: 200), at: at(1)) == .notAnItem)
        #expect(game.guess(String(repeating: " ", count: 199) + "Mars", at: at(1)) == .tooLong)
        #expect(game.guess(String(repeating: " ", count: 196) + "Mars", at: at(1)) == .found(item: 3))
        #expect(game.state == .playing)
    }

    @Test func emptyGuessesAreRefused() throws {
        var game = try makeSUT()
        for blank in ["", "   ", "\n\t", "...", "\u{0}\u{7}\u{1B}", "\u{200B}"] {
            #expect(game.guess(blank, at: at(1)) == .empty)
        }
        #expect(game.found.isEmpty)
    }

    @Test func controlAndInvisibleCharactersAreStripped() throws {
        var game = try makeSUT()
        #expect(game.guess("\u{0}Mars\r\n", at: at(1)) == .found(item: 3))
        #expect(game.guess("\u{1B}Ve\u{200B}nus\u{7F}", at: at(2)) == .found(item: 1))
    }

    @Test func gamesWithTheSameHistoryAreEqual() throws {
        var a = try makeSUT()
        var b = try makeSUT()
        _ = a.guess("Mars", at: at(1))
        #expect(a != b)
        _ = b.guess("mars", at: at(2))
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
    }
}
