import Foundation
import Logging
import QuizStore
import QuizUseCases
import ServiceLifecycle

/// Live games across instances on PostgreSQL: listens for the other instances' notices and hands
/// them to `LiveGames`, and keeps this instance's leases (renewed every second, run-out ones taken).
/// Not run on SQLite.
struct LiveFanout: Service {
    let games: LiveGames
    let notices: LiveNotifications
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown { [games, notices] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await notices.listen(connected: { await games.resync() }, received: { await games.received($0) })
                }
                group.addTask {
                    while !Task.isCancelled {
                        await games.maintainLeases()
                        do {
                            try await Task.sleep(for: LiveGames.Cluster.renewEvery)
                        } catch {
                            return
                        }
                    }
                }
                await group.waitForAll()
            }
        }
        // Shutting down (the database closes after this service): the others take the games now.
        await games.releaseLeases()
    }
}
