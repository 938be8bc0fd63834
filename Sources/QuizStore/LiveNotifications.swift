import Foundation
import Logging
import PostgresNIO

/// Live games' fan-out between instances on one PostgreSQL: `NOTIFY` on one channel
/// (`LiveClusterStore.notifyLive`, or inside the transaction that stored what it announces), and
/// one connection of each instance `LISTEN`ing on it. A notice names a game and what changed, never
/// an answer: whoever receives it reads the game from the database.
public final class LiveNotifications: Sendable {
    public static let channel = "quizbox_live"
    /// PostgreSQL refuses a payload of 8000 bytes or more.
    public static let maxPayloadBytes = 7_999

    private let configuration: PostgresConnection.Configuration
    private let logger: Logger

    /// Nil on SQLite: one instance, nothing to fan out.
    public init?(database: QuizDatabase, logger: Logger) {
        guard database.dialect == .postgres, let configuration = database.listenConfiguration else { return nil }
        self.configuration = configuration
        self.logger = logger
    }

    /// Listens until the task is cancelled, on a connection of its own, opened again when it
    /// breaks. `connected` runs each time the channel is listened to again: what was sent while
    /// nobody listened is lost, so the caller reads again what it holds. `received` runs for each
    /// notice, in the order they were sent.
    public func listen(connected: @Sendable () async -> Void, received: @Sendable (String) async -> Void) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                do {
                    try await connection.listen(on: Self.channel) { notices in
                        failures = 0
                        await connected()
                        for try await notice in notices { await received(notice.payload) }
                    }
                } catch {
                    if !Task.isCancelled { logger.warning("listening for live notices stopped", metadata: ["error": "\(QuizDatabase.describe(error))"]) }
                }
                try? await connection.close()
            } catch {
                if failures == 0 { logger.warning("cannot listen for live notices", metadata: ["error": "\(QuizDatabase.describe(error))"]) }
            }
            failures += 1
            // 0.25 s, then longer, at most 2 s: a database back from a restart is heard from soon.
            try? await Task.sleep(for: .milliseconds(min(2_000, 250 * failures)))
        }
    }
}
