import Foundation
import QuizStore
import QuizTestSupport
import SQLKit
import Testing

/// PostgreSQL aborts one of two transactions that wait for each other (40P01); the store runs it
/// again instead of failing the request.
@Suite(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.unavailable)))
struct TransactionRetryTests {
    @Test func aTransactionChosenToBreakADeadlockIsRunAgainAndBothLand() async throws {
        try await withStore(.postgres) { store in
            let database = store.database
            try await database.write { try await $0.raw("CREATE TABLE retry_probe (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)").run() }
            try await database.write { try await $0.raw("INSERT INTO retry_probe (id, n) VALUES (1, 0), (2, 0)").run() }
            let meeting = Rendezvous(parties: 2)
            let tries = TryCounter()
            // Each locks one row, waits until the other holds the other row, then wants it: a deadlock.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (first, second) in [(1, 2), (2, 1)] {
                    group.addTask {
                        try await database.transaction { db in
                            let attempt = await tries.next()
                            try await db.raw("UPDATE retry_probe SET n = n + 1 WHERE id = \(bind: first)").run()
                            if attempt <= 2 { await meeting.arrive() }  // only the first try of each waits for the other
                            try await db.raw("UPDATE retry_probe SET n = n + 1 WHERE id = \(bind: second)").run()
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(await tries.count == 3, "one of the two ran again")
            let counts = try await database.read { db in
                try await db.raw("SELECT n FROM retry_probe ORDER BY id").all().map { try $0.decode(column: "n", as: Int.self) }
            }
            #expect(counts == [2, 2], "both transactions landed once, nothing of the aborted try was kept")
        }
    }
}

/// Lets `parties` tasks go on only once all of them have arrived.
private actor Rendezvous {
    let parties: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    init(parties: Int) { self.parties = parties }

    func arrive() async {
        if waiting.count + 1 == parties {
            for continuation in waiting { continuation.resume() }
            waiting = []
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }
}

private actor TryCounter {
    private(set) var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}
