import Foundation
import QuizCore
import QuizStore
import SQLKit
import Testing

/// Follows, posts and the feed, on every available database.
@Suite struct SocialStoreTests {
    @Test(arguments: DatabaseKind.available)
    func followingYourselfIsRefusedAndFollowingTwiceChangesNothing(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.createUser(newUser("ada"))
            let bob = try await store.createUser(newUser("bob"))
            await #expect(throws: SocialError.cannotFollowSelf) { try await store.follow(followerId: ada.id, followeeId: ada.id, at: t0) }
            #expect(try await store.follow(followerId: ada.id, followeeId: bob.id, at: t0))
            #expect(try await store.follow(followerId: ada.id, followeeId: bob.id, at: t0) == false)
            await #expect(throws: StoreError.notFound) { try await store.follow(followerId: ada.id, followeeId: 999_999, at: t0) }
            let seenByAda = try #require(try await store.socialProfile(username: "BOB", viewerId: ada.id))
            #expect(seenByAda.followers == 1 && seenByAda.following == 0 && seenByAda.followedByViewer)
            let adaProfile = try #require(try await store.socialProfile(username: "ada", viewerId: bob.id))
            #expect(adaProfile.followers == 0 && adaProfile.following == 1 && !adaProfile.followedByViewer)
            #expect(try await store.unfollow(followerId: ada.id, followeeId: bob.id))
            #expect(try await store.unfollow(followerId: ada.id, followeeId: bob.id) == false)
            #expect(try await store.socialProfile(username: "bob", viewerId: ada.id)?.followers == 0)
            #expect(try await store.socialProfile(username: "nobody", viewerId: ada.id) == nil)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func searchMatchesUsernamesAndNamesIgnoringCaseWithWildcardsTakenLiterally(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.createUser(NewUser(username: "lovelace", firstName: "Ada", lastName: "Lovelace", passwordHash: "x", role: .player, createdAt: t0))
            let grace = try await store.createUser(NewUser(username: "grace_h", firstName: "Grace", lastName: "Hopper", passwordHash: "x", role: .player, createdAt: t0))
            _ = try await store.createUser(NewUser(username: "gracexh", firstName: "Other", lastName: "Person", passwordHash: "x", role: .player, createdAt: t0))
            _ = try await store.follow(followerId: ada.id, followeeId: grace.id, at: t0)
            #expect(try await store.searchUsers("grace", limit: 10, viewerId: ada.id).map(\.followedByViewer) == [true, false])
            #expect(try await store.searchUsers("grace", limit: 10, viewerId: grace.id).map(\.followedByViewer) == [false, false])
            #expect(try await store.searchUsers("grace", limit: 10).map(\.followedByViewer) == [false, false])
            #expect(try await store.searchUsers("ADA LOVE", limit: 10).map(\.username) == ["lovelace"])
            #expect(try await store.searchUsers("hopper", limit: 10).map(\.username) == ["grace_h"])
            // "_" is a character here, not LIKE's any-character.
            #expect(try await store.searchUsers("grace_", limit: 10).map(\.username) == ["grace_h"])
            #expect(try await store.searchUsers("%", limit: 10).isEmpty)
            #expect(try await store.searchUsers("grace", limit: 1).count == 1)
            #expect(try await store.searchUsers("   ", limit: 10).isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.available)
    func postsAreCheckedAndOnlyTheirAuthorDeletesThem(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.createUser(newUser("ada"))
            let bob = try await store.createUser(newUser("bob"))
            await #expect(throws: SocialError.self) { try await store.createPost(NewPost(userId: ada.id, body: "  \n ", createdAt: t0)) }
            await #expect(throws: SocialError.self) {
                try await store.createPost(NewPost(userId: ada.id, body: String(repeating: "a", count: 2_001), createdAt: t0))
            }
            let longest = try await store.createPost(NewPost(userId: ada.id, body: String(repeating: "é", count: 2_000), createdAt: t0))
            #expect(longest.body.count == 2_000)
            let picture = try await store.createPost(NewPost(userId: ada.id, body: "", imageHash: String(repeating: "a", count: 64),
                                                             imageType: .png, createdAt: t0))
            #expect(picture.imageFileName == String(repeating: "a", count: 64) + ".png")
            let script = try await store.createPost(NewPost(userId: ada.id, body: " <script>alert(1)</script> ", createdAt: t0 + 1))
            #expect(script.body == "<script>alert(1)</script>")
            #expect(script.username == "ada")
            await #expect(throws: SocialError.forbidden) { try await store.deletePost(id: script.id, userId: bob.id) }
            await #expect(throws: StoreError.notFound) { try await store.deletePost(id: 999_999, userId: ada.id) }
            try await store.deletePost(id: script.id, userId: ada.id)
            #expect(try await store.post(id: script.id) == nil)
            #expect(try await store.posts(userId: ada.id, after: nil, limit: 10).posts.map(\.id) == [picture.id, longest.id])
        }
    }

    @Test(arguments: DatabaseKind.available)
    func feedPagesStayTheSameWhileNewPostsArrive(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let me = try await store.createUser(newUser("me"))
            let friend = try await store.createUser(newUser("friend"))
            let stranger = try await store.createUser(newUser("stranger"))
            try await store.follow(followerId: me.id, followeeId: friend.id, at: t0)
            var expected: [Int64] = []
            for i in 0..<25 {
                let author = [me.id, friend.id, stranger.id][i % 3]
                let post = try await store.createPost(NewPost(userId: author, body: "post \(i)", createdAt: t0 + Double(i)))
                if author != stranger.id { expected.append(post.id) }
            }
            expected.reverse()
            let first = try await store.feed(userId: me.id, after: nil, limit: 7)
            #expect(first.items.compactMap(\.postId) == Array(expected.prefix(7)))
            // New posts arrive between pages: the next page continues where the first ended.
            for i in 0..<5 { _ = try await store.createPost(NewPost(userId: friend.id, body: "late \(i)", createdAt: t0 + 100)) }
            var seen = first.items.compactMap(\.postId)
            var cursor = first.next
            while let next = cursor {
                let page = try await store.feed(userId: me.id, after: next, limit: 7)
                seen += page.items.compactMap(\.postId)
                cursor = page.next
            }
            #expect(seen == expected)
            let again = try await store.feed(userId: me.id, after: first.next, limit: 7)
            #expect(again.items.compactMap(\.postId) == Array(expected.dropFirst(7).prefix(7)))
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aNewsCardFollowsEveryTenthPostChosenWhenTheFeedWasFirstRead(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.importBank(binaryQuizBank(), at: t0)
            let quizId = try await firstQuizId(store)
            let me = try await store.createUser(newUser("me"))
            for i in 0..<35 { _ = try await store.createPost(NewPost(userId: me.id, body: "post \(i)", createdAt: t0)) }
            // Newest published first: "Second" is the 1st card, "First" the 2nd, "Oldest" the 3rd.
            try await addArticle(store, "Oldest", published: 100)
            try await addArticle(store, "First", published: 200, quizId: quizId)
            try await addArticle(store, "Second", published: 300)
            let first = try await store.feed(userId: me.id, after: nil, limit: 15)
            try #require(first.items.count == 16)
            #expect(first.items[10].news?.title == "Second")
            #expect(first.items[10].news?.quizId == nil)
            #expect(first.items[9].postId != nil && first.items[11].postId != nil)
            // An article published later does not move the cards of pages still to come.
            try await addArticle(store, "Breaking", published: 400)
            let second = try await store.feed(userId: me.id, after: first.next, limit: 15)
            try #require(second.items.count == 17)
            #expect(second.items.compactMap(\.news).map(\.title) == ["First", "Oldest"])
            #expect(second.items.compactMap(\.news).first?.quizId == quizId)
            // Posts 16–30: cards after the 20th and the 30th.
            #expect(second.items[5].news?.title == "First" && second.items[16].news?.title == "Oldest")
            let third = try await store.feed(userId: me.id, after: second.next, limit: 15)
            #expect(third.items.count == 5)
            #expect(third.next == nil)
            // A feed read anew sees the new article first.
            #expect(try await store.feed(userId: me.id, after: nil, limit: 10).items.last?.news?.title == "Breaking")
        }
    }

    @Test(arguments: DatabaseKind.available)
    func aFeedWithTenThousandFollowsFindsOldAndNewPosts(kind: DatabaseKind) async throws {
        try await withStore(kind) { store in
            let me = try await store.createUser(newUser("me"))
            let other = try await store.createUser(newUser("other"))
            try await store.database.transaction { db in
                try await db.raw("""
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
                    INSERT INTO users (username, username_key, first_name, last_name, password_hash, role, points, created_at)
                    SELECT 'f' || i, 'f' || i, 'F', 'L', 'x', 'player', 0, 0 FROM n
                    """).run()
                try await db.raw("""
                    INSERT INTO follows (follower_id, followee_id, created_at)
                    SELECT \(bind: me.id), id, 0 FROM users WHERE username_key LIKE 'f%'
                    """).run()
            }
            #expect(try await store.socialProfile(username: "me", viewerId: nil)?.following == 10_000)
            await #expect(throws: SocialError.tooManyFollows(limit: 10_000)) {
                try await store.follow(followerId: me.id, followeeId: other.id, at: t0)
            }
            let followee = try #require(try await store.socialProfile(username: "f1234", viewerId: me.id))
            let old = try await store.createPost(NewPost(userId: followee.userId, body: "long ago", createdAt: t0))
            // Far more posts by someone not followed than one look through the newest ids covers.
            try await store.database.transaction { db in
                try await db.raw("""
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
                    INSERT INTO posts (user_id, body, created_at) SELECT \(bind: other.id), 'noise', 0 FROM n
                    """).run()
            }
            let recent = try await store.createPost(NewPost(userId: followee.userId, body: "just now", createdAt: t0 + 10))
            let mine = try await store.createPost(NewPost(userId: me.id, body: "mine", createdAt: t0 + 11))
            let page = try await store.feed(userId: me.id, after: nil, limit: 2)
            #expect(page.items.compactMap(\.postId) == [mine.id, recent.id])
            let rest = try await store.feed(userId: me.id, after: page.next, limit: 2)
            #expect(rest.items.compactMap(\.postId) == [old.id])
            #expect(rest.next == nil)
        }
    }

    @Test func cursorsOnlyComeFromTheStore() {
        let cursor = FeedCursor(beforeId: 42, shown: 20, articleAnchor: 7)
        #expect(FeedCursor(token: cursor.token) == cursor)
        for bad in ["", "abc", "1-2", "0-0-0", "-1-0-0", "1-2-3-4", "9999999999999999999999-0-0", "1--0"] {
            #expect(FeedCursor(token: bad) == nil, "\(bad)")
        }
    }
}

@discardableResult
func addArticle(_ store: CachedStore, _ title: String, published: Int64, quizId: Int64? = nil) async throws -> Int64 {
    try await store.database.transaction { db in
        try await db.raw("""
            INSERT INTO articles (title, summary, source_name, url, published_at, dedupe_key, quiz_id, created_at)
            VALUES (\(bind: title), \(bind: "About \(title)"), 'Wire', \(bind: "https://news.example/\(title)"), \(bind: published),
                    \(bind: "key-\(title)"), \(bind: quizId), 0)
            RETURNING id
            """).first()!.decode(column: "id", as: Int64.self)
    }
}

extension FeedItem {
    var postId: Int64? { if case .post(let post) = self { post.id } else { nil } }
    var news: NewsCard? { if case .news(let card) = self { card } else { nil } }
}
