import Synchronization

/// Runs work for a key one at a time: a request while it runs makes it run once more after.
/// Also runs work in the order given (`inOrder`).
final class Coalescer: Sendable {
    struct Key: Hashable, Sendable {
        var gameId: Int64
        var kind: String
    }

    /// Present while running; true when asked again meanwhile.
    private let running = Mutex<[Key: Bool]>([:])
    /// Work to run one after the other, in the order given, and whether a task runs it.
    private let queue = Mutex<(work: [@Sendable () async -> Void], draining: Bool)>(([], false))

    /// Runs `work` after everything given before it, one at a time.
    func inOrder(_ work: @escaping @Sendable () async -> Void) {
        let start = queue.withLock { queue in
            queue.work.append(work)
            if queue.draining { return false }
            queue.draining = true
            return true
        }
        guard start else { return }
        Task {
            while true {
                let next: (@Sendable () async -> Void)? = queue.withLock { queue in
                    guard !queue.work.isEmpty else {
                        queue.draining = false
                        return nil
                    }
                    return queue.work.removeFirst()
                }
                guard let next else { return }
                await next()
            }
        }
    }

    func run(_ key: Key, _ work: @escaping @Sendable () async -> Void) {
        let start = running.withLock { running in
            if running[key] != nil {
                running[key] = true
                return false
            }
            running[key] = false
            return true
        }
        guard start else { return }
        Task {
            while true {
                await work()
                let again = running.withLock { running in
                    if running[key] == true {
                        running[key] = false
                        return true
                    }
                    running[key] = nil
                    return false
                }
                if !again { return }
            }
        }
    }
}
