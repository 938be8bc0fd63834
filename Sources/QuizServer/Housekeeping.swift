import Foundation
import Logging
import QuizCore
import QuizStore
import QuizUseCases
import ServiceLifecycle

/// Deletes what has expired: sessions past their end, rate-limit windows that closed, Open Trivia
/// DB tokens unused for six hours. Runs at
/// start and then every `interval`; `sweep()` is one round, which tests call directly.
struct Housekeeping: Service {
    let store: CachedStore
    let trivia: OpenTrivia
    let time: any TimeSource
    let logger: Logger
    var interval: Duration = .seconds(600)

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await sweep()
            } catch {
                // Stopping (a failed start, a signal): nothing failed, the next start sweeps.
                if Task.isCancelled || Task.isShuttingDownGracefully { break }
                logger.warning("housekeeping failed; trying again later", metadata: ["error": "\(error)"])
            }
            let interval = interval
            _ = try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    @discardableResult
    func sweep() async throws -> Int {
        let now = time.now()
        let sessions = try await store.deleteSessions(expiredBefore: now)
        try await store.removeExpiredRateLimits(at: now)
        try await trivia.deleteExpiredTokens()
        if sessions > 0 { logger.debug("deleted \(sessions) expired sessions") }
        return sessions
    }
}
