import QuizCore
import Testing

@Suite struct PracticeDrawTests {
    // MARK: - Fixture

    /// 2 subjects; subject 1 has topics 10 and 11, subject 2 has topic 20. Every topic holds every
    /// (difficulty, kind) pair twice, nameAll included: 3 × 3 × 6 × 2 = 108 candidates, ids and
    /// positions 1...108 in bank order.
    private static let bank: [PracticeCandidate] = {
        var out: [PracticeCandidate] = []
        for (subject, topic) in [(1, 10), (1, 11), (2, 20)] as [(Int64, Int64)] {
            for difficulty in Difficulty.allCases {
                for kind in [QuestionKind.singleChoice, .multipleChoice, .trueFalse, .typedAnswer, .numeric, .nameAll] {
                    for _ in 0..<2 {
                        let id = Int64(out.count + 1)
                        out.append(PracticeCandidate(
                            id: id, subjectId: subject, topicId: topic, difficulty: difficulty, kind: kind,
                            position: out.count + 1))
                    }
                }
            }
        }
        return out
    }()

    private static func byId(_ id: Int64) -> PracticeCandidate { bank[Int(id) - 1] }

    private func draw(
        _ settings: PracticeSettings, seen: Set<Int64> = [], from candidates: [PracticeCandidate] = bank,
        seed: UInt64 = 1
    ) -> PracticeDraw.Outcome {
        var generator = SplitMix(seed: seed)
        return PracticeDraw.draw(from: candidates, settings: settings, seen: seen, using: &generator)
    }

    /// The ids a draw of everything (count 50 is the maximum, so ask repeatedly via `seen`) would
    /// return: checks the filter against a plain predicate.
    private func allMatching(_ settings: PracticeSettings, _ predicate: (PracticeCandidate) -> Bool) -> Set<Int64> {
        Set(Self.bank.filter { $0.kind != .nameAll && predicate($0) }.map(\.id))
    }

    /// Draws until the pool is used up and returns every id drawn, checking no id comes twice.
    private func drainPool(_ settings: PracticeSettings) -> Set<Int64> {
        var seen: Set<Int64> = []
        for round in 0..<100 {
            let outcome = draw(settings, seen: seen, seed: UInt64(round))
            if case .poolUsedUp = outcome.status { return seen }
            if case .nothingMatches = outcome.status { return seen }
            #expect(seen.isDisjoint(with: outcome.questionIds))
            seen.formUnion(outcome.questionIds)
        }
        Issue.record("pool never used up")
        return seen
    }

    // MARK: - Filters

    @Test func withNoFiltersEveryPlayableQuestionMatchesButNoNameAll() {
        let outcome = draw(PracticeSettings(count: 50))
        #expect(outcome.matching == 90)
        #expect(outcome.unseen == 90)
        #expect(outcome.status == .full)
        #expect(outcome.questionIds.count == 50)
        #expect(Set(outcome.questionIds).count == 50)
        #expect(outcome.questionIds.allSatisfy { Self.byId($0).kind != .nameAll })
    }

    @Test func nameAllIsNeverDrawnEvenWhenTheSettingsAskForIt() {
        let outcome = draw(PracticeSettings(kinds: [.nameAll]))
        #expect(outcome.status == .nothingMatches)
        #expect(outcome.questionIds.isEmpty)
    }

    @Test func aSubjectFilterKeepsThatSubjectsQuestionsOnly() {
        let settings = PracticeSettings(subjectIds: [2], count: 50)
        #expect(drainPool(settings) == allMatching(settings) { $0.subjectId == 2 })
        #expect(draw(settings).matching == 30)
    }

    @Test func aTopicFilterKeepsThatTopicsQuestionsOnly() {
        let settings = PracticeSettings(topicIds: [11], count: 50)
        #expect(drainPool(settings) == allMatching(settings) { $0.topicId == 11 })
        #expect(draw(settings).matching == 30)
    }

    @Test func subjectsAndTopicsTogetherTakeTheQuestionsOfEither() {
        let settings = PracticeSettings(subjectIds: [2], topicIds: [10], count: 50)
        #expect(drainPool(settings) == allMatching(settings) { $0.subjectId == 2 || $0.topicId == 10 })
        #expect(draw(settings).matching == 60)
    }

    @Test func idsFarApartFilterAndExcludeTheSameAsCloseOnes() {
        // Ids spanning the whole Int64 range cannot be a bitmap; the draw falls back to hashing.
        let settings = PracticeSettings(subjectIds: [Int64.min, 1, Int64.max], topicIds: [-5, 20], count: 50)
        let seen: Set<Int64> = [Int64.min, 2, 40, 80, Int64.max]
        let outcome = draw(settings, seen: seen)
        #expect(outcome.matching == 90)
        #expect(outcome.unseen == 87)
        #expect(seen.isDisjoint(with: outcome.questionIds))
        #expect(drainPool(PracticeSettings(subjectIds: [Int64.max, 2], count: 50))
            == allMatching(settings) { $0.subjectId == 2 })
    }

    @Test(arguments: Difficulty.allCases)
    func aDifficultyFilterKeepsThatDifficultyOnly(difficulty: Difficulty) {
        let settings = PracticeSettings(difficulty: difficulty, count: 50)
        #expect(drainPool(settings) == allMatching(settings) { $0.difficulty == difficulty })
        #expect(draw(settings).matching == 30)
    }

    @Test func aKindsFilterKeepsThoseKindsOnly() {
        let settings = PracticeSettings(count: 50, kinds: [.trueFalse, .numeric])
        #expect(drainPool(settings) == allMatching(settings) { $0.kind == .trueFalse || $0.kind == .numeric })
        #expect(draw(settings).matching == 36)
    }

    @Test func allFiltersCombine() {
        let settings = PracticeSettings(
            subjectIds: [2], topicIds: [11], difficulty: .hard, count: 50, kinds: [.singleChoice, .typedAnswer])
        let expected = allMatching(settings) {
            ($0.subjectId == 2 || $0.topicId == 11) && $0.difficulty == .hard
                && ($0.kind == .singleChoice || $0.kind == .typedAnswer)
        }
        #expect(expected.count == 8)
        let outcome = draw(settings)
        #expect(Set(outcome.questionIds) == expected)
        #expect(outcome.matching == 8)
        #expect(outcome.status == .fewerThanAsked(available: 8))
    }

    // MARK: - Seen questions, shortfall, used-up pool

    @Test func questionsSeenRecentlyAreNeverDrawn() {
        let seen = Set(Self.bank.map(\.id).filter { $0.isMultiple(of: 2) })
        for seed in 0..<50 as Range<UInt64> {
            let outcome = draw(PracticeSettings(count: 20), seen: seen, seed: seed)
            #expect(seen.isDisjoint(with: outcome.questionIds))
            #expect(outcome.matching == 90)
            #expect(outcome.unseen == 45)
            #expect(outcome.status == .full)
            #expect(outcome.questionIds.count == 20)
        }
    }

    @Test func whenFewerUnseenQuestionsMatchThanAskedAllOfThemAreDrawnAndTheShortfallIsReported() {
        let settings = PracticeSettings(topicIds: [20], difficulty: .easy, count: 10)  // 10 playable match
        let seen: Set<Int64> = Set(allMatching(settings) { $0.topicId == 20 && $0.difficulty == .easy }.prefix(4))
        let outcome = draw(settings, seen: seen)
        #expect(outcome.status == .fewerThanAsked(available: 6))
        #expect(outcome.matching == 10)
        #expect(outcome.unseen == 6)
        #expect(Set(outcome.questionIds) == allMatching(settings) {
            $0.topicId == 20 && $0.difficulty == .easy && !seen.contains($0.id)
        })
        #expect(outcome.questionIds.count == 6)
    }

    @Test func whenEveryMatchingQuestionWasSeenNothingIsDrawnAndThePoolIsReportedUsedUp() {
        let settings = PracticeSettings(topicIds: [10], difficulty: .medium, count: 5)
        let seen = allMatching(settings) { $0.topicId == 10 && $0.difficulty == .medium }.union([1, 2, 3])
        let outcome = draw(settings, seen: seen)
        #expect(outcome.status == .poolUsedUp(matching: 10))
        #expect(outcome.questionIds.isEmpty)
        #expect(outcome.matching == 10)
        #expect(outcome.unseen == 0)
        // Starting over (forgetting what was seen) draws again.
        #expect(draw(settings, seen: []).status == .full)
    }

    @Test func whenNoQuestionPassesTheFiltersNothingMatchesIsReported() {
        for settings in [PracticeSettings(topicIds: [999]), PracticeSettings(subjectIds: [3])] {
            let outcome = draw(settings)
            #expect(outcome.status == .nothingMatches)
            #expect(outcome.matching == 0)
            #expect(outcome.questionIds.isEmpty)
        }
        #expect(draw(PracticeSettings(), from: []).status == .nothingMatches)
    }

    @Test func exactlyAsManyUnseenAsAskedIsAFullDraw() {
        let settings = PracticeSettings(topicIds: [10], difficulty: .hard, count: 10)
        let outcome = draw(settings)
        #expect(outcome.status == .full)
        #expect(outcome.questionIds.count == 10)
    }

    @Test func aCountBelowOneDrawsNothing() {
        #expect(draw(PracticeSettings(count: 0)).questionIds.isEmpty)
        #expect(draw(PracticeSettings(count: -3)).questionIds.isEmpty)
    }

    // MARK: - Order

    @Test func bankOrderPlaysTheFirstUnseenMatchesByPositionWhateverOrderTheStoreGaveThem() {
        let settings = PracticeSettings(subjectIds: [1], difficulty: .easy, count: 4, order: .bankOrder)
        // Subject 1, easy, playable: ids 1...10 (topic 10) and 37...46 (topic 11).
        let seen: Set<Int64> = [1, 3, 4]
        let expected: [Int64] = [2, 5, 6, 7]
        #expect(draw(settings, seen: seen).questionIds == expected)
        var shuffler = SplitMix(seed: 99)
        let shuffled = Self.bank.shuffled(using: &shuffler)
        #expect(draw(settings, seen: seen, from: shuffled).questionIds == expected)
        #expect(draw(settings, seen: seen, from: Self.bank.reversed()).questionIds == expected)
    }

    @Test func bankOrderBreaksTiesInPositionById() {
        let tied = [3, 1, 2].map {
            PracticeCandidate(id: $0, subjectId: 1, topicId: 1, difficulty: .easy, kind: .trueFalse, position: 7)
        }
        #expect(draw(PracticeSettings(count: 2, order: .bankOrder), from: tied).questionIds == [1, 2])
    }

    @Test func bankOrderIsTheSameForEverySeed() {
        let settings = PracticeSettings(count: 30, order: .bankOrder)
        let first = draw(settings, seed: 1).questionIds
        for seed in 2..<20 as Range<UInt64> { #expect(draw(settings, seed: seed).questionIds == first) }
        #expect(first == first.sorted())
    }

    @Test func aRandomDrawIsReproducibleFromItsSeedAndHasNoRepeats() {
        let settings = PracticeSettings(count: 50)
        let a = draw(settings, seed: 7).questionIds
        #expect(a == draw(settings, seed: 7).questionIds)
        #expect(a != draw(settings, seed: 8).questionIds)
        #expect(Set(a).count == a.count)
    }

    @Test func randomDrawsCoverEveryEligibleQuestionEvenlyAndInEveryPlace() {
        // 10 eligible (topic 20, hard); draw 3 of them 3,000 times: each is expected 900 times,
        // and 300 times in first place. Seeded, so the bounds are not flaky; they are ~6 standard
        // deviations wide, far tighter than a biased draw (e.g. bank order) could meet.
        let settings = PracticeSettings(topicIds: [20], difficulty: .hard, count: 3)
        let eligible = allMatching(settings) { $0.topicId == 20 && $0.difficulty == .hard }
        #expect(eligible.count == 10)
        var total: [Int64: Int] = [:]
        var first: [Int64: Int] = [:]
        for seed in 0..<3_000 as Range<UInt64> {
            let ids = draw(settings, seed: seed).questionIds
            #expect(ids.count == 3 && Set(ids).count == 3)
            for id in ids { total[id, default: 0] += 1 }
            first[ids[0], default: 0] += 1
        }
        #expect(Set(total.keys) == eligible)
        #expect(Set(first.keys) == eligible)
        for id in eligible {
            #expect((750...1_050).contains(total[id] ?? 0), "id \(id) drawn \(total[id] ?? 0) times")
            #expect((200...400).contains(first[id] ?? 0), "id \(id) first \(first[id] ?? 0) times")
        }
    }
}
