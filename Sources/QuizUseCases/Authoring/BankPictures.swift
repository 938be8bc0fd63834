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
            // Named by an address and never downloaded: no picture rather than a broken one.
            if question.picture?.address != nil && question.picture?.data == nil {
                var question = question
                question.picture = nil
                return question
            }
            var question = question
            if let data = question.picture?.data, let checked = try? ImageFiles.check(data) {
                question.picture?.hash = checked.hash
                question.picture?.type = checked.type
            }
            if let data = question.audio?.data, let checked = try? ImageFiles.checkSound(data) {
                question.audio?.hash = checked.hash
                question.audio?.type = checked.clip.type
            }
            return question
        }
    }

    /// Writes the files of the pictures the bank carries, before its rows are: a file whose row
    /// never comes (the import fails) is harmless, named by its bytes and holding no answer.
    package func store(_ bank: Bank) throws {
        for question in bank.allQuestions {
            if let data = question.picture?.data { _ = try images.store(data) }
            if let data = question.audio?.data { _ = try images.storeSound(data) }
        }
    }

    /// The bank with each picture's bytes, for a format that holds them; a picture whose file is
    /// gone is left out and listed.
    package func attached(_ bank: Bank) -> (bank: Bank, lost: [FormatProblem]) {
        var lost: [FormatProblem] = []
        let attached = bank.mappingQuestions { question in
            var question = question
            if let picture = question.picture {
                if let stored = images.image(named: picture.fileName) {
                    question.picture?.data = stored.data
                } else {
                    question.picture = nil
                    lost.append(FormatProblem(question: question.text, message: "its picture's file is missing, so it was left out"))
                }
            }
            if let audio = question.audio {
                if let data = images.soundData(named: audio.fileName) {
                    question.audio?.data = data
                } else {
                    question.audio = nil
                    lost.append(FormatProblem(question: question.text, message: "its sound clip's file is missing, so it was left out"))
                }
            }
            return question
        }
        return (attached, lost)
    }
}

/// The pictures a file names by address (a CSV's `image` column), downloaded before the import
/// stores anything, with the remote import's limits: each address once, a few at a time, at most
/// `maxAddresses` a file. A picture that cannot be loaded fails the import, or with `skipInvalid`
/// leaves its question out, listed.
package struct PictureDownloads: Sendable {
    package static var maxAddresses: Int { 100 }
    static let parallel = 4
    let downloader: any BankDownloader

    package init(downloader: any BankDownloader) {
        self.downloader = downloader
    }

    package struct Result: Sendable {
        package var bank: Bank
        /// The questions left out (skipping), each with why.
        package var skipped: [FormatProblem]
    }

    package func callAsFunction(_ bank: Bank, skipInvalid: Bool) async throws(ImportError) -> Result {
        let addresses = Array(Set(bank.allQuestions.compactMap { $0.picture?.address }))
        guard !addresses.isEmpty else { return Result(bank: bank, skipped: []) }
        guard addresses.count <= Self.maxAddresses else {
            throw ImportError(problems: [FormatProblem(message:
                "the file names \(addresses.count) picture addresses; at most \(Self.maxAddresses) are downloaded in one import")])
        }
        let loaded = await download(addresses)
        var problems: [FormatProblem] = []
        var failed = Set<String>()
        var result = bank.mappingQuestions { question in
            guard let picture = question.picture, let address = picture.address, let outcome = loaded[address] else { return question }
            var question = question
            switch outcome {
            case .success(let data):
                switch QuestionPicture.carried(data, alt: picture.alt) {
                case .success(let carried): question.picture = carried
                case .failure(let refusal):
                    problems.append(FormatProblem(question: question.text, message: "its image \(address) \(refusal.message)"))
                    failed.insert(question.text)
                }
            case .failure(let reason):
                problems.append(FormatProblem(question: question.text, message: "its image \(address) could not be loaded: \(reason)"))
                failed.insert(question.text)
            }
            return question
        }
        guard !problems.isEmpty else { return Result(bank: result, skipped: []) }
        guard skipInvalid else { throw ImportError(problems: Array(problems.prefix(ImportError.maxProblems)),
                                                   omittedCount: max(0, problems.count - ImportError.maxProblems)) }
        result = result.filteringQuestions { $0.picture?.address == nil }
        guard result.questionCount > 0 else { throw ImportError(problems: problems) }
        return Result(bank: result, skipped: problems)
    }

    /// Each address's bytes or why not, `parallel` at a time.
    private func download(_ addresses: [String]) async -> [String: Swift.Result<Data, ReasonText>] {
        await withTaskGroup(of: (String, Swift.Result<Data, ReasonText>).self) { group in
            var results: [String: Swift.Result<Data, ReasonText>] = [:]
            var next = addresses.makeIterator()
            func start() -> Bool {
                guard let address = next.next() else { return false }
                group.addTask {
                    guard let url = URL(string: address) else { return (address, .failure(ReasonText("it is not an address"))) }
                    do throws(ImportBank.DownloadFailure) {
                        return (address, .success(try await downloader.downloadPicture(url)))
                    } catch {
                        switch error {
                        case .unreachable(let reason), .unusable(let reason), .privateAddress(let reason):
                            return (address, .failure(ReasonText(reason)))
                        }
                    }
                }
                return true
            }
            for _ in 0..<Self.parallel where !start() { break }
            while let (address, outcome) = await group.next() {
                results[address] = outcome
                _ = start()
            }
            return results
        }
    }

    struct ReasonText: Error, CustomStringConvertible {
        var description: String
        init(_ text: String) { description = text }
    }
}

extension Bank {
    /// The bank without the questions `keep` refuses, and without the quizzes, topics and
    /// subjects that leaves empty.
    func filteringQuestions(_ keep: (Question) -> Bool) -> Bank {
        var bank = self
        for s in bank.subjects.indices {
            for t in bank.subjects[s].topics.indices {
                bank.subjects[s].topics[t].questions.removeAll { !keep($0) }
                for q in bank.subjects[s].topics[t].quizzes.indices {
                    bank.subjects[s].topics[t].quizzes[q].questions.removeAll { !keep($0) }
                }
                bank.subjects[s].topics[t].quizzes.removeAll { $0.questions.isEmpty }
            }
            bank.subjects[s].topics.removeAll { $0.questions.isEmpty && $0.quizzes.isEmpty }
        }
        bank.subjects.removeAll { $0.topics.isEmpty }
        return bank
    }

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
