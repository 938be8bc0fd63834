import Foundation
import QuizCore
import QuizFormats

/// Pictures travelling in a bank: an import's carry their bytes until their files are written; an
/// export's get their bytes from the files when the format holds pictures.
package struct BankPictures: Sendable {
    let images: ImageFiles

    package init(images: ImageFiles) {
        self.images = images
    }

    /// Each carried picture named by the hash of its bytes, the name it is stored under.
    package static func hashed(_ bank: Bank) -> Bank {
        bank.mappingQuestions { question in
            guard let data = question.picture?.data, let checked = try? ImageFiles.check(data) else { return question }
            var question = question
            question.picture?.hash = checked.hash
            question.picture?.type = checked.type
            return question
        }
    }

    /// Writes the files of the pictures the bank carries, before its rows are: a file whose row
    /// never comes (the import fails) is harmless, named by its bytes and holding no answer.
    package func store(_ bank: Bank) throws {
        for question in bank.allQuestions {
            if let data = question.picture?.data { _ = try images.store(data) }
        }
    }

    /// The bank with each picture's bytes, for a format that holds them; a picture whose file is
    /// gone is left out and listed.
    package func attached(_ bank: Bank) -> (bank: Bank, lost: [FormatProblem]) {
        var lost: [FormatProblem] = []
        let attached = bank.mappingQuestions { question in
            guard let picture = question.picture else { return question }
            var question = question
            if let stored = images.image(named: picture.fileName) {
                question.picture?.data = stored.data
            } else {
                question.picture = nil
                lost.append(FormatProblem(question: question.text, message: "its picture's file is missing, so it was left out"))
            }
            return question
        }
        return (attached, lost)
    }
}

extension Bank {
    var allQuestions: [Question] {
        subjects.flatMap(\.topics).flatMap { $0.quizzes.flatMap(\.questions) + $0.questions }
    }

    func mappingQuestions(_ transform: (Question) -> Question) -> Bank {
        var bank = self
        for s in bank.subjects.indices {
            for t in bank.subjects[s].topics.indices {
                bank.subjects[s].topics[t].questions = bank.subjects[s].topics[t].questions.map(transform)
                for q in bank.subjects[s].topics[t].quizzes.indices {
                    bank.subjects[s].topics[t].quizzes[q].questions = bank.subjects[s].topics[t].quizzes[q].questions.map(transform)
                }
            }
        }
        return bank
    }
}
