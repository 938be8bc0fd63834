import Foundation
import QuizCore
import Testing

@Suite struct PracticeSettingsTests {
    private func field(of settings: PracticeSettings) -> String? {
        let error = #expect(throws: PracticeSettings.Invalid.self) { try settings.validate() }
        return error?.field
    }

    @Test func defaultSettingsAreValidAndPlayTenRandomQuestionsOfAnyKindWithoutTimeLimit() throws {
        let settings = PracticeSettings()
        try settings.validate()
        #expect(settings.count == 10)
        #expect(settings.order == .random)
        #expect(settings.timeLimitSeconds == nil)
        #expect(settings.difficulty == nil)
    }

    @Test(arguments: [1, 2, 25, 50])
    func aCountFromOneToFiftyIsAccepted(count: Int) throws {
        try PracticeSettings(count: count).validate()
    }

    @Test(arguments: [Int.min, -1, 0, 51, 1_000])
    func aCountOutsideOneToFiftyIsRejectedOnTheCountField(count: Int) {
        #expect(field(of: PracticeSettings(count: count)) == "count")
    }

    @Test(arguments: [nil, 10, 20, 30, 60] as [Int?])
    func theOfferedTimeLimitsAreAccepted(seconds: Int?) throws {
        try PracticeSettings(timeLimitSeconds: seconds).validate()
    }

    @Test(arguments: [-10, 0, 5, 15, 45, 61, 3_600])
    func anyOtherTimeLimitIsRejectedOnTheTimeLimitField(seconds: Int) {
        #expect(field(of: PracticeSettings(timeLimitSeconds: seconds)) == "timeLimitSeconds")
    }

    @Test func choosingNameAllQuestionsIsRejectedOnTheKindsField() throws {
        #expect(field(of: PracticeSettings(kinds: [.nameAll])) == "kinds")
        #expect(field(of: PracticeSettings(kinds: [.trueFalse, .nameAll])) == "kinds")
        try PracticeSettings(kinds: PracticeSettings.playableKinds).validate()
    }

    @Test func everyBrokenRuleIsListedInTheFormsOrderAndTheFirstIsThrown() {
        let settings = PracticeSettings(count: 0, kinds: [.nameAll], timeLimitSeconds: 15)
        #expect(settings.validationErrors().map(\.field) == ["count", "kinds", "timeLimitSeconds"])
        #expect(throws: PracticeSettings.Invalid(
            field: "count", message: "Number of questions must be between 1 and 50, not 0.")) {
            try settings.validate()
        }
    }

    @Test func noKindsChosenMeansEveryKindWithARightAnswerExceptNameAll() {
        #expect(PracticeSettings().effectiveKinds == Set(QuestionKind.allCases).subtracting([.nameAll, .poll, .wordCloud, .slide]))
        #expect(PracticeSettings(kinds: [.numeric]).effectiveKinds == [.numeric])
    }

    @Test func settingsSurviveAJSONRoundTrip() throws {
        let settings = PracticeSettings(
            subjectIds: [1, 2], topicIds: [30], difficulty: .hard, count: 20,
            kinds: [.singleChoice, .typedAnswer], order: .bankOrder, timeLimitSeconds: 30)
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(PracticeSettings.self, from: data) == settings)
    }

    @Test func anyDifficultyAndNoTimeLimitMayBeLeftOutOfTheJSON() throws {
        let json = #"{"subjectIds":[],"topicIds":[7],"count":5,"kinds":[],"order":"random"}"#
        let settings = try JSONDecoder().decode(PracticeSettings.self, from: Data(json.utf8))
        #expect(settings == PracticeSettings(topicIds: [7], count: 5))
    }
}
