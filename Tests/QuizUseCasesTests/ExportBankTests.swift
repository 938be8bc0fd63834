import Foundation
import QuizCore
import QuizFormats
import QuizStore
import QuizUseCases
import Testing

@Suite struct ExportBankTests {
    @Test func everyWritableFormatImportsBackWhatItWrote() async throws {
        try await withUseCases { env in
            let (author, _, _) = try await env.people()
            let quiz = try await env.rome(by: author)
            for format in BankFormat.allCases where format.canWrite {
                let exported = try await ExportBank(store: env.store, images: env.pictures)(.quiz(quiz.quiz.id), as: format, by: author)
                // Kahoot's template and Quizbox's sheet are both .xlsx: the name tells them apart.
                #expect(exported.fileName == "quiz-\(quiz.quiz.id)\(format == .kahoot ? "-kahoot" : "").\(format.fileExtension)")
                let back = try await env.importBank().preview(.file(exported.data, name: exported.fileName), .init(format: format), by: author)
                // CSV, Aiken and Quizbox's sheet hold choice questions only: the true-or-false one is
                // skipped, and said so (Kahoot's template holds it).
                #expect(exported.skipped.count == ([.csv, .aiken, .xlsx].contains(format) ? 1 : 0), "\(format)")
                let texts = back.bank.subjects.flatMap(\.topics).flatMap { $0.questions + $0.quizzes.flatMap(\.questions) }.map(\.text)
                #expect(texts.count + exported.skipped.count == 2, "\(format)")
                #expect(Set(texts).isSubset(of: quiz.questions.map(\.text)), "\(format)")
            }
        }
    }

    @Test func aPlayerAMissingQuizAndAReadOnlyFormatAreRefused() async throws {
        try await withUseCases { env in
            let (author, _, player) = try await env.people()
            let quiz = try await env.rome(by: author)
            let export = ExportBank(store: env.store, images: env.pictures)
            #expect(await failure(ExportBank.Failure.self) { _ = try await export(.quiz(quiz.quiz.id), as: .gift, by: player) } == .notAuthor)
            #expect(await failure(ExportBank.Failure.self) { _ = try await export(.quiz(999), as: .gift, by: author) } == .notFound)
            #expect(await failure(ExportBank.Failure.self) { _ = try await export(.topic(quiz.quiz.topicId), as: .openTriviaDB, by: author) }
                    == .notWritable(.openTriviaDB))
            #expect(try await export(.topic(quiz.quiz.topicId), as: .bundle, by: author).fileName == "topic-\(quiz.quiz.topicId).json")
        }
    }
}
