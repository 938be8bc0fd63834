import SQLKit
import Synchronization

/// What a write can change that some instance may have cached.
struct ChangeKinds: OptionSet, Sendable, Hashable {
    let rawValue: Int

    /// Subjects, topics, quizzes, questions: the catalog caches and the responses built from them.
    static let catalog = ChangeKinds(rawValue: 1 << 0)
    /// Sessions, roles.
    static let accounts = ChangeKinds(rawValue: 1 << 1)
    /// Totals and users: the leaderboard's ends and distribution, and the points a user carries.
    static let ranking = ChangeKinds(rawValue: 1 << 2)
    /// Posts, follows, articles: feed pages.
    static let social = ChangeKinds(rawValue: 1 << 3)
    /// Answers and finishes: attempts with their answers.
    static let play = ChangeKinds(rawValue: 1 << 4)

    static let all: ChangeKinds = [.catalog, .accounts, .ranking, .social, .play]
    /// In the order of `ChangeTracker.sequences`.
    static let each: [ChangeKinds] = [.catalog, .accounts, .ranking, .social, .play]
}

/// Exact caching for several instances on one PostgreSQL.
///
/// Every write that changes something cacheable bumps a sequence per kind once it has committed and
/// before it answers (`publish`). Before using its caches a request reads the sequences and
/// drops the caches of every kind that moved since it last looked (`changed(since:)`). A request
/// therefore sees every write that answered before it started, on any instance.
///
/// Reading the sequences is shared: a request may use any read of them that *started* after the
/// request did (`ticket`), so under load one read in flight serves every request that arrived
/// before it began, and a request waits for at most two.
///
/// Sequences rather than a row: `nextval` takes no lock and is never rolled back, so writers on
/// every instance bump them without queueing behind one another.
final class ChangeTracker: Sendable {
    static let sequences = [
        "quizbox_changes_catalog", "quizbox_changes_accounts", "quizbox_changes_ranking", "quizbox_changes_social",
        "quizbox_changes_play",
    ]

    /// The ticket of the request being served, set by `CachedStore.serving`; nil outside requests,
    /// where every call reads the sequences afresh.
    @TaskLocal static var requestTicket: UInt64?

    private struct Read {
        var number: UInt64
        var task: Task<[Int64], any Error>
    }

    private struct State {
        /// How many reads have started; a read's number is the count once it started.
        var started: UInt64 = 0
        var inFlight: Read?
        var latest: (number: UInt64, versions: [Int64])?
        /// The versions the caches were last checked against.
        var seen: [Int64]?
    }

    private let state = Mutex(State())
    private let load: @Sendable () async throws -> [Int64]
    private let bump: @Sendable (ChangeKinds) async throws -> Void

    init(load: @escaping @Sendable () async throws -> [Int64], bump: @escaping @Sendable (ChangeKinds) async throws -> Void) {
        self.load = load
        self.bump = bump
    }

    convenience init(database: QuizDatabase) {
        self.init(
            load: {
                try await database.read { db in
                    guard let row = try await ChangeCountersStatement().rows(on: db).first else { return [] }
                    return try Self.sequences.map { try row.int64($0) }
                }
            },
            bump: { kinds in
                let calls = zip(ChangeKinds.each, Self.sequences).filter { kinds.contains($0.0) }.map { "nextval('\($0.1)')" }
                guard !calls.isEmpty else { return }
                _ = try await database.write { db in try await db.raw("SELECT \(unsafeRaw: calls.joined(separator: ", "))").all() }
            })
    }

    /// Reads that start from now on are fresh enough for a request starting now.
    func ticket() -> UInt64 {
        state.withLock { $0.started }
    }

    /// Tells every instance that `kinds` changed. Call after the change committed, before answering.
    func publish(_ kinds: ChangeKinds) async throws {
        try await bump(kinds)
    }

    /// The kinds changed since the caches were last checked, by any instance, as of a read of the
    /// sequences that started after `ticket` (by default: after this call).
    func changed(since ticket: UInt64? = nil) async throws -> ChangeKinds {
        let versions = try await versions(after: ticket ?? Self.requestTicket ?? self.ticket())
        return state.withLock { state in
            guard let seen = state.seen, seen.count == versions.count else {
                state.seen = versions
                return .all
            }
            var changed: ChangeKinds = []
            var newest = seen
            for (index, kind) in ChangeKinds.each.enumerated() where index < versions.count && versions[index] > seen[index] {
                changed.insert(kind)
                newest[index] = versions[index]
            }
            // An older read finishing late never moves `seen` back.
            state.seen = newest
            return changed
        }
    }

    private enum Step {
        case done([Int64])
        case wait(Task<[Int64], any Error>)
        case waitThenRetry(Task<[Int64], any Error>)
    }

    private func versions(after ticket: UInt64) async throws -> [Int64] {
        while true {
            let step: Step = state.withLock { state in
                if let latest = state.latest, latest.number > ticket { return .done(latest.versions) }
                if let read = state.inFlight {
                    return read.number > ticket ? .wait(read.task) : .waitThenRetry(read.task)
                }
                state.started += 1
                let number = state.started
                let task = Task { [load] in
                    do {
                        let versions = try await load()
                        self.finished(number, versions)
                        return versions
                    } catch {
                        self.finished(number, nil)
                        throw error
                    }
                }
                state.inFlight = Read(number: number, task: task)
                return .wait(task)
            }
            switch step {
            case .done(let versions):
                return versions
            case .wait(let task):
                return try await task.value
            case .waitThenRetry(let task):
                // Started before this request: it may miss a write that answered just before.
                _ = try await task.value
            }
        }
    }

    private func finished(_ number: UInt64, _ versions: [Int64]?) {
        state.withLock { state in
            if state.inFlight?.number == number { state.inFlight = nil }
            if let versions, (state.latest?.number ?? 0) < number { state.latest = (number, versions) }
        }
    }
}
