import Foundation
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases
import Testing

/// A stand-in for the server's downloads: each address answers with its file or its failure.
struct FakeDownloader: BankDownloader {
    var files: [String: Result<Data, ImportBank.DownloadFailure>] = [:]

    func downloadBank(_ url: URL) async throws(ImportBank.DownloadFailure) -> Data {
        guard let answer = files[url.absoluteString] else { throw .unusable("\(url.absoluteString) answered 404 Not Found, not 200 OK") }
        return try answer.get()
    }

    func downloadPicture(_ url: URL) async throws(ImportBank.DownloadFailure) -> Data {
        try await downloadBank(url)
    }
}

extension UseCaseEnvironment {
    func importBank(_ downloader: FakeDownloader = FakeDownloader()) -> ImportBank {
        ImportBank(store: store, downloader: downloader, time: time, images: pictures)
    }

    var catalog: CatalogAuthoring { CatalogAuthoring(store: store) }
    var questions: QuestionAuthoring { QuestionAuthoring(store: store, time: time, images: pictures) }
    /// Pictures' files, in a folder of this environment's own.
    var pictures: ImageFiles {
        ImageFiles(dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("quizbox-pictures-\(ObjectIdentifier(store.database).hashValue)").path)
    }

    /// An author, an admin and a player.
    func people() async throws -> (author: User, admin: User, player: User) {
        (try await register("writer", role: .author), try await register("root", role: .admin), try await register("ada"))
    }

    /// History › Rome, a quiz of two questions, imported by `author`; returns the quiz.
    func rome(by author: User) async throws -> ManagedQuiz {
        _ = try await importBank()(.pasted(Self.romeGIFT), .init(quizTitle: "Rome"), by: author)
        let quizId = try #require(try await store.outline().first { $0.name == "History" }?.topics.first?.quizzes.first?.id)
        return try #require(try await store.managedQuiz(id: quizId))
    }

    static let romeGIFT = """
        $CATEGORY: $course$/History/Rome

        Who was the first Roman emperor? {=Augustus ~Nero ~Caligula}

        Rome was founded in 753 BC. {T}
        """

    /// The player answers the quiz's first question, so its kind is locked and the quiz kept.
    func play(_ quiz: ManagedQuiz, as player: User) async throws {
        let attempt = try await store.startAttempt(userId: player.id, quizId: quiz.quiz.id, at: time.now())
        _ = try await store.recordAnswer(attemptId: attempt.id, questionId: quiz.questions[0].id!, answer: #"{"choiceId":1}"#,
                                         isCorrect: true, points: 1, at: time.now())
    }
}

/// The failure `body` throws, if it is a `F`.
func failure<F: Error>(_ type: F.Type, _ body: () async throws -> Void) async -> F? {
    do {
        try await body()
        return nil
    } catch let failure as F {
        return failure
    } catch {
        return nil
    }
}
