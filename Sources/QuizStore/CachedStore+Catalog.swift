import Foundation
import QuizCore

extension CachedStore: CatalogStore {
    public func subjects() async throws -> [SubjectSummary] {
        try await sql.subjects()
    }

    public func topics(subjectId: Int64) async throws -> [TopicSummary]? {
        try await sql.topics(subjectId: subjectId)
    }

    public func quizzes(topicId: Int64) async throws -> [QuizSummary]? {
        try await sql.quizzes(topicId: topicId)
    }

    public func quiz(id: Int64) async throws -> QuizSummary? {
        try await refreshCaches()
        return try await caches.quizzes.value(for: id) { [sql] in try await sql.quiz(id: id) }
    }

    public func allQuizzes() async throws -> [QuizListing] {
        try await sql.allQuizzes()
    }

    public func questions(quizId: Int64) async throws -> [Question] {
        try await refreshCaches()
        return try await caches.quizQuestions.value(for: quizId) { [sql] in try await sql.questions(quizId: quizId) } ?? []
    }

    public func question(id: Int64, inQuiz quizId: Int64) async throws -> Question? {
        try await questions(quizId: quizId).first { $0.id == id }
    }

    public func exportBank(_ scope: ExportScope) async throws -> Bank {
        try await sql.exportBank(scope)
    }

    public func isEmpty() async throws -> Bool {
        try await sql.isEmpty()
    }

    public func importBank(_ bank: Bank, at date: Date) async throws -> ImportSummary {
        try await changing(.catalog) { try await sql.importBank(bank, at: date) }
    }

    /// `SQLStore.importBatches`, which changes the catalog.
    public func importBatches(
        quizTitle: String, at date: Date, _ next: () async throws -> [BankEntry]?
    ) async throws -> ImportSummary {
        try await changing(.catalog) { try await sql.importBatches(quizTitle: quizTitle, at: date, next) }
    }
}

extension CachedStore: AuthoringStore {
    public func outline() async throws -> [OutlineSubject] {
        try await sql.outline()
    }

    public func managedQuiz(id: Int64) async throws -> ManagedQuiz? {
        try await sql.managedQuiz(id: id)
    }

    public func topicQuestions(topicId: Int64) async throws -> [Question]? {
        try await sql.topicQuestions(topicId: topicId)
    }

    public func managedQuestion(id: Int64) async throws -> (topicId: Int64, question: Question)? {
        try await sql.managedQuestion(id: id)
    }

    public func create(_ level: CatalogLevel, parent: Int64?, name: String, description: String) async throws -> Int64 {
        try await changing(.catalog) { try await sql.create(level, parent: parent, name: name, description: description) }
    }

    public func update(_ level: CatalogLevel, id: Int64, _ change: CatalogChange) async throws {
        try await changing(.catalog) { try await sql.update(level, id: id, change) }
    }

    public func cover(_ level: CatalogLevel, id: Int64) async throws -> CoverPicture? {
        try await sql.cover(level, id: id)
    }

    public func delete(_ level: CatalogLevel, id: Int64) async throws {
        // A deleted quiz leaves its article's card without one.
        try await changing([.catalog, .social]) { try await sql.delete(level, id: id) }
    }

    public func createQuestion(_ question: Question, topicId: Int64, appendingTo quizId: Int64?, at date: Date) async throws -> Int64 {
        try await changing(.catalog) { try await sql.createQuestion(question, topicId: topicId, appendingTo: quizId, at: date) }
    }

    public func updateQuestion(_ question: Question) async throws {
        // Refused before any write, so no one is told.
        guard question.id != nil else { throw StoreError.notFound }
        try await changing(.catalog) { try await sql.updateQuestion(question) }
    }

    public func deleteQuestion(id: Int64, at date: Date) async throws {
        try await changing(.catalog) { try await sql.deleteQuestion(id: id, at: date) }
    }

    public func setQuizQuestions(quizId: Int64, questionIds: [Int64]) async throws {
        try await changing(.catalog) { try await sql.setQuizQuestions(quizId: quizId, questionIds: questionIds) }
    }

    public func users(matching search: String, offset: Int, limit: Int) async throws -> UserPage {
        try await sql.users(matching: search, offset: offset, limit: limit)
    }

    public func setRole(_ role: Role, userId: Int64) async throws -> User {
        try await changing(.accounts) { try await sql.setRole(role, userId: userId) }
    }
}
