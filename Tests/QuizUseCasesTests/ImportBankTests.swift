import Foundation
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases
import Testing

/// Importing banks on the use case: who may, what a preview stores (nothing), all or nothing
/// unless skipping, kept uploads, and banks from an address.
@Suite struct ImportBankTests {
    static let csvWithABadRow = "question,option1,option2,option3,option4,answer\nLargest ocean?,Pacific,Atlantic,,,Pacific\nBroken?,A,B,,,C\nRed planet?,Venus,Mars,,,Mars\n"

    @Test func aPlayerIsRefusedAndNothingIsStored() async throws {
        try await withUseCases { env in
            let (_, _, player) = try await env.people()
            let refused = await failure(ImportBank.Failure.self) {
                _ = try await env.importBank()(.pasted(UseCaseEnvironment.romeGIFT), .init(), by: player)
            }
            #expect(refused == .notAuthor)
            #expect(try await env.store.isEmpty())
        }
    }

    @Test func aPreviewSaysWhatTheFileHoldsAndStoresNothing() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let essay = UseCaseEnvironment.romeGIFT + "\n\nAn essay about Rome. {}\n"
            let report = try await env.importBank().preview(.file(Data(essay.utf8), name: "rome.gift"), .init(), by: author)
            #expect(report.format == .gift)
            #expect(report.questionCount == 2)
            #expect(report.kinds == [.singleChoice: 1, .trueFalse: 1])
            #expect(report.warnings.first?.line == 7, "the essay is left out, where it is")
            #expect(report.imported == nil)
            #expect(try await env.store.isEmpty())

            let stored = try await env.importBank()(.file(Data(essay.utf8), name: "rome.gift"), .init(), by: author)
            #expect(stored.imported?.questions == 2)
            #expect(try await ExportBank(store: env.store, images: env.pictures).quizzes(by: author).map(\.quiz.title) == ["rome"], "named after the file, published")
        }
    }

    /// A bundle whose quiz lists a name-them-all question keeps it in the topic's bank (Games
    /// plays it) and leaves it out of the quiz, which could otherwise never be finished.
    @Test func aNameThemAllQuestionOfAnImportedQuizStaysInTheBank() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let bundle = """
                {"format": "quizbox-bundle", "version": 1, "subjects": [{"name": "Space", "topics": [{"name": "Planets",
                 "questions": [], "quizzes": [{"title": "Planets", "questions": [
                  {"kind": "nameAll", "text": "Name the gas giants.", "items": [{"answer": "Jupiter"}, {"answer": "Saturn"}]},
                  {"kind": "trueFalse", "text": "Mars is red.", "answer": true}]}]}]}]}
                """
            let report = try await env.importBank()(.pasted(bundle), .init(), by: author)
            #expect(report.imported?.questions == 2)
            let topic = try #require(try await env.store.outline().first { $0.name == "Space" }?.topics.first)
            let quizId = try #require(topic.quizzes.first?.id)
            let quiz = try #require(try await env.store.managedQuiz(id: quizId))
            #expect(quiz.questions.map(\.kind) == [.trueFalse])
            #expect(try await env.questions.bank(ofTopic: topic.id, by: author).map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.nameAll, .trueFalse])
        }
    }

    /// One title typed for a file of two topics made two quizzes of that title, told apart by
    /// nothing: each is named with its topic.
    @Test func oneQuizTitleForSeveralTopicsNamesEachQuizWithItsTopic() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let gift = """
                $CATEGORY: $course$/History/Rome

                Who was the first Roman emperor? {=Augustus ~Nero}

                $CATEGORY: $course$/History/Greece

                Athens is in Greece. {T}
                """
            let preview = try await env.importBank().preview(.pasted(gift), .init(quizTitle: "Ancient world"), by: author)
            #expect(preview.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).map(\.title) == ["Ancient world (Rome)", "Ancient world (Greece)"])
            _ = try await env.importBank()(.pasted(gift), .init(quizTitle: "Ancient world"), by: author)
            let titles = try await env.store.outline().flatMap(\.topics).flatMap(\.quizzes).map(\.title)
            #expect(titles.filter { $0.hasPrefix("Ancient world") }.sorted() == ["Ancient world (Greece)", "Ancient world (Rome)"])
            // One topic keeps the title as typed.
            let single = try await env.importBank().preview(.pasted(UseCaseEnvironment.romeGIFT), .init(quizTitle: "Rome"), by: author)
            #expect(single.bank.subjects.flatMap(\.topics).flatMap(\.quizzes).map(\.title) == ["Rome"])
        }
    }

    @Test func oneBadQuestionStoresNothingUnlessTheOthersAreImportedWithoutIt() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let strict = await failure(ImportBank.Failure.self) {
                _ = try await env.importBank()(.pasted(Self.csvWithABadRow), .init(subject: "Geo"), by: author)
            }
            guard case .unreadable(let file) = strict else { Issue.record("\(String(describing: strict))"); return }
            #expect(file.format == .csv)
            #expect(file.problems.map(\.line) == [3])
            #expect(try await env.store.isEmpty(), "all or nothing")

            let skipping = try await env.importBank()(.pasted(Self.csvWithABadRow), .init(subject: "Geo", skipInvalid: true), by: author)
            #expect(skipping.imported?.questions == 2)
            #expect(skipping.skipped.map(\.description) == [#"line 3, column 6: answer "C" is not one of the options"#])
            #expect(try await env.store.outline().map(\.name) == ["Geo"])

            // A problem with the file as a whole is not skipped past.
            let header = await failure(ImportBank.Failure.self) {
                _ = try await env.importBank()(.pasted("question,option1,option2,answer,colour\nOK?,Yes,No,Yes,red\n"), .init(skipInvalid: true), by: author)
            }
            guard case .unreadable(let whole) = header else { Issue.record("\(String(describing: header))"); return }
            #expect(whole.problems.map(\.message) == [#"unknown column "colour""#])
        }
    }

    @Test func aPreviewedUploadIsImportedOnceOnlyByItsAuthorWithinHalfAnHour() async throws {
        try await withUseCases { env in
            let (author, admin, _) = try await env.people()
            let use = env.importBank()
            let upload = ImportBank.Source.upload(Data(UseCaseEnvironment.romeGIFT.utf8), name: "rome.gift")
            let preview = try await use.preview(upload, .init(), by: author)
            let kept = try #require(preview.kept)
            #expect(kept.name == "rome.gift")
            #expect(try await env.store.isEmpty())

            #expect(await failure(ImportBank.Failure.self) { _ = try await use(.kept(token: kept.token), .init(), by: admin) } == .keptFileGone,
                    "someone else's upload")
            let stored = try await use(.kept(token: kept.token), .init(), by: author)
            #expect(stored.imported?.questions == 2)
            #expect(await failure(ImportBank.Failure.self) { _ = try await use(.kept(token: kept.token), .init(), by: author) } == .keptFileGone,
                    "imported once")

            let again = try #require(try await use.preview(upload, .init(), by: author).kept)
            env.time.advance(by: ImportBank.keptFor + 60)
            #expect(await failure(ImportBank.Failure.self) { _ = try await use.preview(.kept(token: again.token), .init(), by: author) } == .keptFileGone)
        }
    }

    @Test func anUploadThatCannotBeReadStaysKeptForAnotherTry() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let use = env.importBank()
            #expect(await failure(ImportBank.Failure.self) { _ = try await use.preview(.upload(Data(), name: "bank.csv"), .init(), by: author) }
                    == .emptyFile(name: "bank.csv"))
            let big = Data(repeating: 0x41, count: ImportBank.maxFileBytes + 1)
            #expect(await failure(ImportBank.Failure.self) { _ = try await use.preview(.upload(big, name: "big.csv"), .init(), by: author) }
                    == .tooLarge(name: "big.csv", limit: ImportBank.maxFileBytes))

            let strict = await failure(ImportBank.Failure.self) {
                _ = try await use.preview(.upload(Data(Self.csvWithABadRow.utf8), name: "seas.csv"), .init(), by: author)
            }
            guard case .unreadable(let file) = strict, let kept = file.kept else { Issue.record("\(String(describing: strict))"); return }
            let skipping = try await use(.kept(token: kept.token), .init(skipInvalid: true), by: author)
            #expect(skipping.imported?.questions == 2, "ticking “skip invalid” needs no second upload")
        }
    }

    @Test func aBankFromAnAddressIsReadLikeAFileAndItsFailuresSayWhere() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let payload = #"[{"question": "Name the primary colours", "answer": ["red", "yellow", "blue"]}, {"question": "", "answer": ["x"]}]"#
            let downloader = FakeDownloader(files: [
                "https://example.org/colours.json": .success(Data(payload.utf8)),
                "https://example.org/down.gift": .failure(.unreachable("the connection was refused")),
                "http://169.254.169.254/bank": .failure(.privateAddress("169.254.169.254 is a private, loopback or link-local address")),
            ])
            let use = env.importBank(downloader)
            let strict = await failure(ImportBank.Failure.self) { _ = try await use(.address("https://example.org/colours.json"), .init(), by: author) }
            guard case .unreadable(let file) = strict else { Issue.record("\(String(describing: strict))"); return }
            #expect(file.format == .remote)
            #expect(file.address == "https://example.org/colours.json")
            let skipping = try await use(.address("https://example.org/colours.json"), .init(skipInvalid: true), by: author)
            #expect(skipping.imported?.questions == 1)
            #expect(skipping.skipped.first?.path == "[1].question")
            #expect(try await env.store.outline().flatMap(\.topics).flatMap(\.quizzes).map(\.title) == ["colours"])

            #expect(await failure(ImportBank.Failure.self) { _ = try await use.preview(.address("https://example.org/down.gift"), .init(), by: author) }
                    == .download(address: "https://example.org/down.gift", .unreachable("the connection was refused")))
            let refused = await failure(ImportBank.Failure.self) { _ = try await use.preview(.address("http://169.254.169.254/bank"), .init(), by: author) }
            guard case .download(_, .privateAddress) = refused else { Issue.record("\(String(describing: refused))"); return }
        }
    }
}
