import Foundation
import QuizCore
import Synchronization

/// Games being played, kept in memory so a guess costs no database read; every find and every
/// end is written through at once. With `rereads` (instances sharing PostgreSQL, where another
/// may have found items or ended the game) each request loads the game from the database first.
package final class GameTable: Sendable {
    package struct Entry: Sendable {
        var userId: Int64
        var game: NameAllGame
        var storedAsEnded: Bool
    }

    package let rereads: Bool
    private let entries = Mutex<[Int64: Entry]>([:])
    static let maxEntries = 50_000

    package init(rereads: Bool = false) { self.rereads = rereads }

    func get(_ id: Int64) -> Entry? { entries.withLock { $0[id] } }

    func put(_ id: Int64, _ entry: Entry) {
        entries.withLock { entries in
            if entries.count >= Self.maxEntries { entries = entries.filter { !$0.value.storedAsEnded } }
            if entries.count >= Self.maxEntries { entries.removeAll() }
            entries[id] = entry
        }
    }

    func remove(_ id: Int64) { _ = entries.withLock { $0.removeValue(forKey: id) } }

    func markStoredAsEnded(_ id: Int64) { entries.withLock { $0[id]?.storedAsEnded = true } }

    /// Applies `change` to the entry under the lock and returns its result with the entry after it.
    func update<T: Sendable>(_ id: Int64, _ change: (inout Entry) -> T) -> (T, Entry)? {
        entries.withLock { entries in
            guard var entry = entries[id] else { return nil }
            let result = change(&entry)
            entries[id] = entry
            return (result, entry)
        }
    }
}
