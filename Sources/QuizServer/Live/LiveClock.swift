import Foundation
import Logging
import QuizCore
import QuizUseCases
import ServiceLifecycle

/// Brings back the games that were running when the server stopped, then moves every game's
/// clock on: questions end when their time is up, auto-advancing games go on, games whose host
/// left end. Wakes at the next thing due, and at least every `poll` for games created since.
struct LiveClock: Service {
    let games: LiveGames
    let time: any TimeSource
    let logger: Logger
    var poll: TimeInterval = 0.05

    func run() async throws {
        do {
            let restored = try await games.restore()
            if restored > 0 { logger.info("live games restored", metadata: ["games": "\(restored)"]) }
        } catch {
            logger.error("restoring live games failed", metadata: ["error": "\(error)"])
        }
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
