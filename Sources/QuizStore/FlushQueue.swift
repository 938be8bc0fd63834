import Synchronization

/// What a group-commit batcher keeps: the items waiting, and whether its one flush loop runs.
/// Items that arrive while a batch is written wait for the next one.
final class FlushQueue<Item: Sendable>: Sendable {
    private struct State {
        var waiting: [Item] = []
        var flushing = false
    }

    private let state = Mutex(State())

    /// Adds `item`; true when no flush was running, so the caller starts one.
    func add(_ item: Item) -> Bool {
        state.withLock { state in
            state.waiting.append(item)
            if state.flushing { return false }
            state.flushing = true
            return true
        }
    }

    /// The next batch: what `pick` takes of the waiting items (the rest stay, in order). Empty
    /// when nothing is waiting, and then the flush is over.
    func next(_ pick: ([Item]) -> (batch: [Item], rest: [Item])) -> [Item] {
        state.withLock { state in
            let (batch, rest) = pick(state.waiting)
            state.waiting = rest
            if batch.isEmpty { state.flushing = false }
            return batch
        }
    }
}
