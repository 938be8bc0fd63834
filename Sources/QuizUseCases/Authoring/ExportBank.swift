import Foundation
import QuizCore
import QuizFormats
import QuizStore

/// Exporting a quiz or a topic as a file in one of the formats Quizbox writes, drafts included:
/// for authors and admins.
package struct ExportBank: Sendable {
    package enum Failure: Error, Equatable {
        case notAuthor
        case notFound
        /// The format can be imported but not written (Open Trivia DB, remote payloads).
        case notWritable(BankFormat)
    }

    package struct Exported: Sendable {
        package var data: Data
        /// "quiz-3.gift", "topic-1.json".
        package var fileName: String
        package var format: BankFormat
        /// Questions the format has no way to write, each with why.
        package var skipped: [FormatProblem]
    }

    let store: any CatalogStore
    let pictures: BankPictures

    package init(store: any CatalogStore, images: ImageFiles) {
        self.store = store
        pictures = BankPictures(images: images)
    }

    /// The published quizzes in catalog order, each with its topic and subject: what the manage
    /// page offers to download.
    package func quizzes(by user: User) async throws -> [QuizListing] {
        guard user.role.canAuthor else { throw Failure.notAuthor }
        return try await store.allQuizzes()
    }

    package func callAsFunction(_ scope: ExportScope, as format: BankFormat, by user: User) async throws -> Exported {
        guard user.role.canAuthor else { throw Failure.notAuthor }
        guard format.canWrite else { throw Failure.notWritable(format) }
        var bank: Bank
        do {
            bank = try await store.exportBank(scope)
        } catch StoreError.notFound {
            throw Failure.notFound
        }
        var lost: [FormatProblem] = []
        if format.holdsPictures { (bank, lost) = pictures.attached(bank) }
        guard let (data, skipped) = format.write(bank) else { throw Failure.notWritable(format) }
        let name = switch scope {
        case .quiz(let id): "quiz-\(id)"
        case .topic(let id): "topic-\(id)"
        case .everything: "quizbox"
        }
        // Kahoot's template and Quizbox's sheet are both .xlsx: the name tells them apart.
        let suffix = format == .kahoot ? "-kahoot" : ""
        return Exported(data: data, fileName: "\(name)\(suffix).\(format.fileExtension)", format: format, skipped: skipped + lost)
    }
}
