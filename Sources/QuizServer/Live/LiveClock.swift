import Foundation
import Logging
import QuizCore
import QuizUseCases
import ServiceLifecycle

/// Moves every game's clock on: questions end when their time is up, auto-advancing games go on,
/// games whose host left end. Wakes at the next thing due, and at least every `poll` for games
/// created since. (Games running before a restart are restored before the server listens.)
struct LiveClock: Service {
    let games: LiveGames
    let time: any TimeSource
    let logger: Logger
    var poll: TimeInterval = 0.05

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let wait = games.nextTick().map { max(0.005, min(poll, $0.timeIntervalSince(time.now()))) } ?? poll
            do {
                try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
            } catch {
                return
            }
            await games.tick()
        }
    }
}
