import Foundation
import QuizCore
import QuizLiveProtocol
import Testing

/// The messages as version 1 of the server wrote them before the protocol was typed (taken from
/// that code, keys sorted: it wrote them in no fixed order), byte for byte: a change of a field's
/// name, presence, number format or escaping fails here. The browser scripts and any client
/// written against docs/live-protocol.md read these.
struct LiveWireFormatTests {
    static let pinned: [(String, String)] = [
        ("error", #"{"code":"not-open","message":"That question is not open.","of":"answer","type":"error","v":1}"#),
        ("error-without-of", #"{"code":"rate-limited","message":"Too many messages: slow down.","type":"error","v":1}"#),
        ("joined", #"{"code":"AB12CD","game":{"index":0,"phase":"question","pin":"048213","questionCount":3,"teams":2,"title":"Rivers & <capitals> / “quoted”"},"player":{"correct":2,"id":1,"nickname":"Ann \"A\" / Zoë","score":1250,"streak":2,"team":1},"secret":"c2VjcmV0/+=","type":"joined","v":1}"#),
        ("joined-resumed", #"{"game":{"index":0,"phase":"question","pin":"048213","questionCount":3,"teams":0,"title":"Rivers & <capitals> / “quoted”"},"player":{"correct":1,"id":3,"nickname":"Solo 🎉","score":900,"streak":1},"secret":"s","type":"joined","v":1}"#),
        ("hosting", #"{"game":{"id":42,"index":0,"joinURL":"https://quiz.example.org/join/048213","locked":false,"phase":"question","pin":"048213","questionCount":3,"settings":{"autoAdvance":true,"leaderboardAfterEach":true,"points":{"1":"double","2":"none"},"secondsPerQuestion":30,"shuffleAnswers":true,"streakBonus":true,"teams":2},"teams":2,"title":"Rivers & <capitals> / “quoted”"},"type":"hosting","v":1}"#),
        ("players", #"{"count":3,"locked":true,"players":[{"connected":true,"correct":2,"id":1,"nickname":"Ann \"A\" / Zoë","score":1250,"streak":2,"team":1},{"connected":false,"correct":0,"id":2,"nickname":"Bob","score":0,"streak":0,"team":2},{"connected":true,"correct":1,"id":3,"nickname":"Solo 🎉","score":900,"streak":1}],"type":"players","v":1}"#),
        ("question", #"{"choices":[{"id":100000007,"text":"Nice"},{"id":482019331,"text":"Paris"},{"id":917220004,"text":"Lyon \\ Lugdunum"}],"count":3,"deadline":1700000030250,"image":{"alt":"A map: rivers & <seas>","height":480,"url":"/images/abababababababababababababababababababababababababababababababab.png","width":640},"index":0,"kind":"singleChoice","now":1700000000457,"openedAt":1700000000250,"points":"standard","seconds":30,"text":"Which is the capital of France?\nPick one.","type":"question","v":1}"#),
        ("question-shuffled", #"{"choices":[{"id":100000007,"text":"Nice"},{"id":917220004,"text":"Lyon \\ Lugdunum"},{"id":482019331,"text":"Paris"}],"count":3,"deadline":1700000030250,"image":{"alt":"A map: rivers & <seas>","height":480,"url":"/images/abababababababababababababababababababababababababababababababab.png","width":640},"index":0,"kind":"singleChoice","now":1700000000457,"openedAt":1700000000250,"points":"standard","seconds":30,"text":"Which is the capital of France?\nPick one.","type":"question","v":1}"#),
        ("question-numeric", #"{"choices":[],"count":3,"deadline":1700000030250,"index":0,"kind":"numeric","now":1700000000457,"openedAt":1700000000250,"points":"standard","seconds":30,"text":"How long is the Seine?","type":"question","unit":"km","v":1}"#),
        ("progress", #"{"answered":1,"index":0,"players":2,"type":"progress","v":1}"#),
        ("reveal", #"{"answered":1,"correct":"Paris","correctChoices":[482019331],"distribution":[{"choice":482019331,"correct":true,"count":1,"label":"Paris"},{"choice":917220004,"correct":false,"count":0,"label":"Lyon \\ Lugdunum"}],"explanation":"Paris, since 987.","index":0,"players":2,"type":"reveal","v":1}"#),
        ("reveal-typed", #"{"answered":3,"correct":"777 km","correctChoices":[],"distribution":[{"correct":true,"count":3,"label":"right"}],"index":1,"players":4,"type":"reveal","v":1}"#),
        ("result", #"{"answered":true,"bonus":100,"correct":true,"index":0,"late":false,"points":850,"rank":1,"score":1250,"streak":2,"type":"result","v":1}"#),
        ("result-late", #"{"answered":true,"bonus":0,"correct":false,"index":0,"late":true,"points":0,"rank":3,"score":0,"streak":0,"type":"result","v":1}"#),
        ("result-unanswered", #"{"answered":false,"bonus":0,"correct":false,"index":0,"late":false,"points":0,"rank":2,"score":900,"streak":0,"type":"result","v":1}"#),
        ("result-behind", #"{"answered":false,"behind":{"nickname":"Ann \"A\" / Zoë","points":350},"bonus":0,"correct":false,"index":0,"late":false,"points":0,"rank":2,"score":900,"streak":0,"type":"result","v":1}"#),
        ("leaderboard", #"{"final":false,"teams":[{"members":1,"score":1250,"team":1},{"members":1,"score":0,"team":2}],"top":[{"correct":2,"id":1,"movement":1,"nickname":"Ann \"A\" / Zoë","rank":1,"score":1250,"team":1},{"correct":1,"id":3,"movement":0,"nickname":"Solo 🎉","rank":2,"score":900},{"correct":0,"id":2,"movement":-1,"nickname":"Bob","rank":3,"score":0,"team":2}],"type":"leaderboard","v":1}"#),
        ("ended-host", #"{"podium":[{"correct":2,"id":1,"movement":1,"nickname":"Ann \"A\" / Zoë","rank":1,"score":1250,"team":1},{"correct":1,"id":3,"movement":0,"nickname":"Solo 🎉","rank":2,"score":900},{"correct":0,"id":2,"movement":-1,"nickname":"Bob","rank":3,"score":0,"team":2}],"standings":[{"correct":2,"id":1,"movement":1,"nickname":"Ann \"A\" / Zoë","rank":1,"score":1250,"team":1},{"correct":1,"id":3,"movement":0,"nickname":"Solo 🎉","rank":2,"score":900},{"correct":0,"id":2,"movement":-1,"nickname":"Bob","rank":3,"score":0,"team":2}],"teams":[{"members":1,"score":1250,"team":1},{"members":1,"score":0,"team":2}],"type":"ended","v":1}"#),
        ("ended-player", #"{"podium":[{"correct":2,"id":1,"movement":1,"nickname":"Ann \"A\" / Zoë","rank":1,"score":1250,"team":1},{"correct":1,"id":3,"movement":0,"nickname":"Solo 🎉","rank":2,"score":900},{"correct":0,"id":2,"movement":-1,"nickname":"Bob","rank":3,"score":0,"team":2}],"teams":[{"members":1,"score":1250,"team":1},{"members":1,"score":0,"team":2}],"type":"ended","v":1,"you":{"correct":2,"rank":1,"score":1250}}"#),
        ("ended-player-unlisted", #"{"podium":[{"correct":2,"id":1,"movement":1,"nickname":"Ann \"A\" / Zoë","rank":1,"score":1250,"team":1},{"correct":1,"id":3,"movement":0,"nickname":"Solo 🎉","rank":2,"score":900},{"correct":0,"id":2,"movement":-1,"nickname":"Bob","rank":3,"score":0,"team":2}],"teams":[],"type":"ended","v":1,"you":{}}"#),
        ("host-away", #"{"connected":false,"endsAt":1700000300000,"now":1700000000457,"type":"host","v":1}"#),
        ("host-back", #"{"connected":true,"type":"host","v":1}"#),
        ("ack", #"{"question":3,"type":"ack","v":1}"#),
        ("kicked", #"{"type":"kicked","v":1}"#),
    ]

    /// Issue 31's kinds: the new fields, each left out for the kinds without it; nothing in a
    /// question that says the right order, pair or value.
    static let kinds: [(String, String)] = [
        ("question-ordering", #"{"choices":[],"count":5,"deadline":1700000030250,"index":0,"items":[{"id":204000002,"text":"Paris"},{"id":519000003,"text":"Helsinki"},{"id":731000001,"text":"Rome"}],"kind":"ordering","now":1700000000457,"openedAt":1700000000250,"points":"standard","seconds":30,"text":"Oldest first","type":"question","v":1}"#),
        ("question-matching", #"{"answers":[{"id":204000002,"text":"Rome"},{"id":519000003,"text":"Lyon"},{"id":731000001,"text":"Paris"}],"choices":[],"count":5,"deadline":1700000030250,"index":1,"kind":"matching","now":1700000000457,"openedAt":1700000000250,"points":"standard","prompts":[{"id":1,"text":"France"},{"id":2,"text":"Italy <it>"}],"seconds":30,"text":"Capitals","type":"question","v":1}"#),
        ("question-estimate", #"{"choices":[],"count":5,"deadline":1700000030250,"estimate":{"maximum":1000,"minimum":0,"step":0.5},"index":2,"kind":"estimate","now":1700000000457,"openedAt":1700000000250,"points":"standard","seconds":30,"text":"Eiffel tower","type":"question","unit":"m","v":1}"#),
        ("question-wordCloud", #"{"choices":[],"count":5,"deadline":1700000030250,"index":3,"kind":"wordCloud","maxLength":40,"now":1700000000457,"openedAt":1700000000250,"points":"standard","seconds":30,"text":"One word for Monday","type":"question","v":1}"#),
        ("question-slide", #"{"choices":[],"count":5,"deadline":1700000000250,"index":4,"kind":"slide","now":1700000000457,"openedAt":1700000000250,"points":"standard","seconds":0,"text":"Now for geography","type":"question","v":1}"#),
        ("reveal-ordering", #"{"answered":1,"correct":"Rome → Paris → Helsinki","correctChoices":[],"distribution":[{"correct":true,"count":1,"label":"Right"},{"correct":false,"count":0,"label":"Wrong"}],"index":0,"order":[{"id":731000001,"text":"Rome"},{"id":204000002,"text":"Paris"},{"id":519000003,"text":"Helsinki"}],"players":1,"type":"reveal","v":1}"#),
        ("reveal-matching", #"{"answered":1,"correct":"France: Paris; Italy <it>: Rome","correctChoices":[],"distribution":[{"correct":true,"count":1,"label":"Right"},{"correct":false,"count":0,"label":"Wrong"}],"index":1,"pairs":[{"answer":731000001,"prompt":1},{"answer":204000002,"prompt":2}],"players":1,"type":"reveal","v":1}"#),
        ("reveal-estimate", #"{"answered":1,"correct":"330 m","correctChoices":[],"distribution":[{"correct":true,"count":1,"label":"Right"},{"correct":false,"count":0,"label":"Wrong"}],"estimate":{"closest":[{"nickname":"Ann","points":995,"value":330.5}],"value":330},"index":2,"players":1,"type":"reveal","v":1}"#),
        ("reveal-wordCloud", #"{"answered":10,"cloud":{"index":3,"others":2,"words":[{"count":7,"key":"coffee","text":"Coffee"},{"count":1,"key":"b","text":"<b>"}]},"correct":"","correctChoices":[],"distribution":[],"index":3,"players":12,"type":"reveal","v":1}"#),
        ("cloud", #"{"index":3,"others":2,"type":"cloud","v":1,"words":[{"count":7,"key":"coffee","text":"Coffee"},{"count":1,"key":"b","text":"<b>"}]}"#),
        ("result-partly", #"{"answered":true,"bonus":0,"correct":false,"credit":50,"index":1,"late":false,"points":425,"rank":1,"score":425,"streak":0,"type":"result","v":1}"#),
    ]

    @Test func theServerWritesTheNewKindsAsDocumented() throws {
        let written = try LiveWireKindSamples.messages()
        #expect(written.map(\.0) == Self.kinds.map(\.0))
        for ((name, text), (_, pinned)) in zip(written, Self.kinds) {
            #expect(text == pinned, "\(name)")
        }
    }

    @Test func aShuffledQuestionIsTheSameWrittenOnceOrPerPlayer() throws {
        for (fanOut, alone) in try LiveWireSamples.shuffledBothWays(players: 1...20) { #expect(fanOut == alone) }
    }

    @Test func theServerWritesEveryMessageAsVersion1Did() throws {
        let written = try LiveWireSamples.messages()
        #expect(written.map(\.0) == Self.pinned.map(\.0))
        for ((name, text), (_, pinned)) in zip(written, Self.pinned) {
            #expect(text == pinned, "\(name)")
        }
    }
}

/// The protocol's closed sets name every value the domain has, so the server's mappings never
/// fall back to a default.
struct LiveProtocolDomainNamesTests {
    @Test func everyPointsSettingAndPhaseHasItsProtocolName() {
        for points in LiveSettings.Points.allCases { #expect(LiveProtocol.Points(rawValue: points.rawValue) != nil, "\(points)") }
        #expect(LiveProtocol.Points.allCases.count == LiveSettings.Points.allCases.count)
        let phases: [LivePhase] = [.lobby, .question, .reveal, .leaderboard, .ended]
        #expect(phases.map { LiveProtocol.Phase(rawValue: $0.rawValue) } == [.lobby, .question, .reveal, .leaderboard, .ended])
        let kinds: [LiveProtocol.QuestionKind] = [.singleChoice, .multipleChoice, .trueFalse, .typedAnswer, .numeric, .ordering, .matching,
                                                  .poll, .wordCloud, .estimate, .slide]
        #expect(kinds.map(\.rawValue) == QuestionKind.allCases.filter(\.playsLive).map(\.rawValue))
    }
}
