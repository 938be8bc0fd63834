import Foundation
import NIOCore
import QuizText
import QuizUseCases
import Synchronization

extension LiveSocket {
    /// What one socket is: nobody yet, a host, or a player of a game; and its messages waiting.
    final class Session: Sendable {
        enum Role: Sendable { case none, host(gameId: Int64, userId: Int64), player(gameId: Int64, playerId: Int) }
        enum Next { case message(String), idle, ended }
        private struct State {
            var role = Role.none
            var waiting: [String] = []
            var running = false
            var ended = false
            var greeting: Scheduled<Void>?
            var failedGreetings = 0
        }

        let connection: LiveConnection
        /// The session cookie of the upgrade, for hosts and signed-in players.
        let token: String?
        /// The Host the socket came through, for the join address shown to a host.
        let authority: String?
        let address: String
        let t: Texts
        /// Within its address's share of sockets (else it is told so and closed).
        let admitted: Bool
        private let state = Mutex(State())

        init(connection: LiveConnection, token: String?, authority: String?, address: String, t: Texts, admitted: Bool) {
            self.connection = connection
            self.token = token
            self.authority = authority
            self.address = address
            self.t = t
            self.admitted = admitted
        }

        var role: Role {
            get { state.withLock { $0.role } }
            set { state.withLock { $0.role = newValue } }
        }

        var isGreeted: Bool {
            if case .none = role { false } else { true }
        }

        func waitForGreeting(_ timer: Scheduled<Void>) {
            state.withLock { $0.greeting = timer }
        }

        /// Counts a refused greeting; true when the socket has had its share and is to be closed.
        func greetingFailed() -> Bool {
            state.withLock { state in
                state.failedGreetings += 1
                return state.failedGreetings >= LiveGames.maxFailedGreetings
            }
        }

        /// Greeted: the timer goes now, not when it was due.
        func greeted() {
            let timer: Scheduled<Void>? = state.withLock { state in
                defer { state.greeting = nil }
                return state.greeting
            }
            timer?.cancel()
        }

        /// Queues a message; true when no task is handling this socket's messages and one must start.
        /// nil when too many wait.
        func enqueue(_ text: String) -> Bool? {
            state.withLock { state in
                guard !state.ended else { return false }
                guard state.waiting.count < LiveSocket.maxWaiting else { return nil }
                state.waiting.append(text)
                if state.running { return false }
                state.running = true
                return true
            }
        }

        /// The next message for the running task; `.ended` once (the socket closed meanwhile).
        func next() -> Next {
            state.withLock { state in
                if state.ended {
                    state.running = false
                    state.waiting = []
                    return .ended
                }
                guard !state.waiting.isEmpty else {
                    state.running = false
                    return .idle
                }
                return .message(state.waiting.removeFirst())
            }
        }

        /// The socket closed; true when no task runs, so the caller leaves the game now.
        func end() -> Bool {
            state.withLock { state in
                state.ended = true
                state.waiting = []
                state.greeting?.cancel()
                state.greeting = nil
                return !state.running
            }
        }
    }
}
