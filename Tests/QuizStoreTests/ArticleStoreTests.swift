import Foundation
import QuizCore
import QuizStore
import Testing

/// What every store does with news articles: dedupe by GUID or URL, all-or-nothing imports,
/// reads recorded once, quizzes about articles.
@Suite struct ArticleStoreTests {
    func draft(_ n: Int, guid: String? = nil, quizId: Int64? = nil, at date: Date = t0) -> ArticleDraft {
        ArticleDraft(title: "Story \(n)", summary: "Summary \(n)", sourceName: "Example News", url: "https://example.org/\(n)",
                     imageURL: n.isMultiple(of: 2) ? "https://example.org/\(n).jpg" : nil, publishedAt: date.addingTimeInterval(Double(n)),
                     quizId: quizId, guid: guid)
    }

    @Test(arguments: DatabaseKind.available)
    func anArticleIsStoredReadBackEditedAndDeleted(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let author = try await store.createUser(newUser("writer"))
            let id = try await store.createArticle(draft(2), by: author.id, at: t0)
            let stored = try #require(try await store.article(id: id))
            #expect(stored.title == "Story 2")
            #expect(stored.imageURL == "https://example.org/2.jpg")
            #expect(stored.publishedAt == t0.addingTimeInterval(2))
            #expect(stored.createdBy == author.id)
            #expect(stored.quizId == nil)

            var edited = draft(3)
            edited.title = "Story 3, corrected"
            try await store.updateArticle(id: id, edited)
            let after = try #require(try await store.article(id: id))
            #expect(after.title == "Story 3, corrected")
            #expect(after.url == "https://example.org/3")
            #expect(after.imageURL == nil)
            // Known by its URL, so the new URL is now taken and the old one free.
            await #expect(throws: ArticleError.duplicate) { try await store.createArticle(draft(3), by: nil, at: t0) }
            #expect(try await store.createArticle(draft(2), by: nil, at: t0) != id)

            try await store.deleteArticle(id: id)
            #expect(try await store.article(id: id) == nil)
            await #expect(throws: StoreError.notFound) { try await store.deleteArticle(id: id) }
            await #expect(throws: StoreError.notFound) { try await store.updateArticle(id: id, draft(4)) }
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aSecondArticleWithTheSameURLIsADuplicate(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let first = try await store.createArticle(draft(1), by: nil, at: t0)
            await #expect(throws: ArticleError.duplicate) { try await store.createArticle(draft(1), by: nil, at: t0) }
            let second = try await store.createArticle(draft(2), by: nil, at: t0)
            var clash = draft(1)
            clash.title = "Moved onto the first one's address"
            await #expect(throws: ArticleError.duplicate) { try await store.updateArticle(id: second, clash) }
            #expect(try await store.article(id: first)?.title == "Story 1")
            #expect(try await store.articles(offset: 0, limit: 10).total == 2)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func listsAreNewestFirstAndPaged(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importArticles((1...5).map { draft($0) }, by: nil, at: t0)
            let first = try await store.articles(offset: 0, limit: 2)
            #expect(first.total == 5)
            #expect(first.articles.map(\.title) == ["Story 5", "Story 4"])
            #expect(try await store.articles(offset: 4, limit: 2).articles.map(\.title) == ["Story 1"])
        }
    }

    @Test(arguments: DatabaseKind.available)
    func importingSkipsWhatIsKnownByGUIDOrURL(kind: DatabaseKind) async throws {
        try await withStore(kind) { store throws in
            let feed = [draft(1, guid: "tag:e.org:1"), draft(2), draft(3, guid: "tag:e.org:3")]
            #expect(try await store.importArticles(feed, by: nil, at: t0) == ArticleImportSummary(added: 3, skipped: 0))
            #expect(try await store.importArticles(feed, by: nil, at: t0) == ArticleImportSummary(added: 0, skipped: 3))
            // Same GUID with a new URL is the same article; a new GUID for a known URL is another.
            var moved = draft(1, guid: "tag:e.org:1")
            moved.url = "https://example.org/moved"
            let next = [moved, draft(4), draft(4), draft(5, guid: "tag:e.org:5")]
            #expect(try await store.importArticles(next, by: nil, at: t0) == ArticleImportSummary(added: 2, skipped: 2))
            #expect(try await store.articles(offset: 0, limit: 10).total == 5)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aFailedImportStoresNothing(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            // 250 drafts go in three statements; the last one's quiz does not exist, so the third
            // fails after the first two have run, and the transaction takes them back.
            let drafts = (1...249).map { draft($0) } + [draft(250, quizId: 999_999)]
            await #expect(throws: ArticleError.quizNotFound) { try await store.importArticles(drafts, by: nil, at: t0) }
            #expect(try await store.articles(offset: 0, limit: 10).total == 0)
            let summary = try await store.importArticles(Array(drafts.dropLast()), by: nil, at: t0)
            #expect(summary == ArticleImportSummary(added: 249, skipped: 0))
            #expect(try await store.articles(offset: 0, limit: 1).total == 249)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aReadIsRecordedOnceAndListedOnTheProfile(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.createUser(newUser("ada"))
            let bob = try await store.createUser(newUser("bob"))
            let one = try await store.createArticle(draft(1), by: nil, at: t0)
            let two = try await store.createArticle(draft(2), by: nil, at: t0)
            #expect(try await store.recordRead(userId: ada.id, articleId: one, at: t0).url == "https://example.org/1")
            _ = try await store.recordRead(userId: ada.id, articleId: two, at: t0.addingTimeInterval(60))
            _ = try await store.recordRead(userId: ada.id, articleId: one, at: t0.addingTimeInterval(120))
            let read = try await store.articlesRead(userId: ada.id, limit: 10)
            #expect(read.map(\.article.title) == ["Story 2", "Story 1"])
            #expect(read.last?.readAt == t0, "the first read counts")
            #expect(try await store.articlesRead(userId: bob.id, limit: 10).isEmpty)
            await #expect(throws: StoreError.notFound) { try await store.recordRead(userId: ada.id, articleId: 999_999, at: t0) }

            try await store.deleteArticle(id: two)
            #expect(try await store.articlesRead(userId: ada.id, limit: 10).map(\.article.title) == ["Story 1"])
        }
    }

    @Test(arguments: DatabaseKind.available)
    func articleQuizzesArePublishedQuizzesLinkedFromArticles(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let published = try await firstQuizId(store)
            let subject = try await store.create(.subject, parent: nil, name: "News", description: "")
            let topic = try await store.create(.topic, parent: subject, name: "This week", description: "")
            let draftQuiz = try await store.create(.quiz, parent: topic, name: "Draft", description: "")

            let linked = try await store.createArticle(draft(1, quizId: published), by: nil, at: t0)
            _ = try await store.createArticle(draft(2, quizId: draftQuiz), by: nil, at: t0)
            _ = try await store.createArticle(draft(3), by: nil, at: t0)
            await #expect(throws: ArticleError.quizNotFound) { try await store.createArticle(draft(4, quizId: 999_999), by: nil, at: t0) }

            let quizzes = try await store.articleQuizzes()
            #expect(quizzes.map(\.quizId) == [published])
            #expect(quizzes.first?.articleTitle == "Story 1")
            #expect(quizzes.first?.articleId == linked)

            // Deleting the quiz unlinks it, on SQLite as on PostgreSQL.
            try await store.delete(.quiz, id: draftQuiz)
            #expect(try await store.article(id: linked)?.quizId == published)
            #expect(try await store.articles(offset: 0, limit: 10).articles.allSatisfy { $0.quizId == nil || $0.quizId == published })
        }
    }
}
