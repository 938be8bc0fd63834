import Foundation
import Synchronization

/// The games held on this instance (run here or copied), by id and by PIN, and what one host and
/// one game may take (`LiveGames.Limits`).
final class LiveRooms: Sendable {
    let limits: LiveGames.Limits

    private struct Index {
        var byId: [Int64: LiveRoom] = [:]
        var byPin: [String: Int64] = [:]
    }

    private let index = Mutex(Index())

    init(limits: LiveGames.Limits) {
        self.limits = limits
    }

    func room(id: Int64) -> LiveRoom? { index.withLock { $0.byId[id] } }

    func room(pin: String) -> LiveRoom? {
        index.withLock { index in index.byPin[pin].flatMap { index.byId[$0] } }
    }

    /// Every game held here (owned or copied).
    var all: [LiveRoom] { index.withLock { Array($0.byId.values) } }

    var count: Int { index.withLock { $0.byId.count } }

    /// Whether `userId` may host one more game: they run fewer than `limits.gamesPerHost` here.
    func mayHost(userId: Int64) -> Bool {
        index.withLock { index in index.byId.values.filter { $0.hostUserId == userId }.count } < limits.gamesPerHost
    }

    func add(_ room: LiveRoom) {
        index.withLock { index in
            index.byId[room.id] = room
            index.byPin[room.pin] = room.id
        }
    }

    /// Adds `room` unless a room of its game is held already; returns the one held.
    func addIfAbsent(_ room: LiveRoom) -> LiveRoom {
        index.withLock { index in
            if let held = index.byId[room.id] { return held }
            index.byId[room.id] = room
            index.byPin[room.pin] = room.id
            return room
        }
    }

    func remove(_ room: LiveRoom) {
        index.withLock { index in
            index.byId[room.id] = nil
            if index.byPin[room.pin] == room.id { index.byPin[room.pin] = nil }
        }
    }

    /// The games this instance runs (`uptime`: see `LiveRoom.runs`) whose clock has work by `now`.
    func due(at now: Date, uptime: Int64?) -> [LiveRoom] {
        index.withLock { index in index.byId.values.filter { $0.runs(at: uptime) && $0.isDue(now) } }
    }

    /// When the clock next has work in a game this instance runs.
    func nextTick(uptime: Int64?) -> Date? {
        index.withLock { index in index.byId.values.filter { $0.runs(at: uptime) }.compactMap { $0.nextTick() }.min() }
    }
}
