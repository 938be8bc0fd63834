import Foundation
import QuizCore
import QuizStore

extension OpenTrivia {
    package struct Category: Sendable, Equatable {
        package var id: Int64
        package var name: String

        package init(id: Int64, name: String) {
            self.id = id
            self.name = name
        }
    }

    package struct Count: Sendable, Equatable {
        package var total = 0
        package var easy = 0
        package var medium = 0
        package var hard = 0

        package init(total: Int = 0, easy: Int = 0, medium: Int = 0, hard: Int = 0) {
            self.total = total
            self.easy = easy
            self.medium = medium
            self.hard = hard
        }

        mutating func add(_ difficulty: Difficulty) {
            total += 1
            switch difficulty {
            case .easy: easy += 1
            case .medium: medium += 1
            case .hard: hard += 1
            }
        }
    }

    /// `/api_category.php`: the topics that have a question to serve, by number.
    package func categories() async throws -> [Category] {
        var names: [Int64: String] = [:]
        for candidate in try await servable() { names[Self.categoryId(topicId: candidate.topicId)] = Self.categoryName(candidate) }
        return names.map { Category(id: $0.key, name: $0.value) }.sorted { $0.id < $1.id }
    }

    /// `/api_count.php?category=N`: nil when `category` is not a number; a number that names no
    /// category holds no questions.
    package func count(category: String?) async throws -> (id: Int64, count: Count)? {
        guard let text = category, let number = Self.wholeNumber(text) else { return nil }
        let id = Int64(number)
        var count = Count()
        for candidate in try await servable() where Self.categoryId(topicId: candidate.topicId) == id {
            count.add(candidate.question.difficulty)
        }
        return (id, count)
    }

    /// `/api_count_global.php`: every question served, and per category.
    package func globalCount() async throws -> (overall: Int, categories: [Int64: Int]) {
        let all = try await servable()
        var categories: [Int64: Int] = [:]
        for candidate in all { categories[Self.categoryId(topicId: candidate.topicId), default: 0] += 1 }
        return (all.count, categories)
    }

    private func servable() async throws -> [TriviaQuestion] {
        try await store.triviaQuestions().filter { Self.servable($0.question) }
    }
}
