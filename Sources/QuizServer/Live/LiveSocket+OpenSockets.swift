import QuizUseCases
import Synchronization

extension LiveSocket {
    /// How many live sockets each client address holds open: IPv6 clients by their /64, as the
    /// join limit counts them (one client holds a whole /64).
    final class OpenSockets: Sendable {
        let limit: Int
        private let counts = Mutex<[String: Int]>([:])

        init(limit: Int) {
            self.limit = limit
        }

        func admit(_ address: String) -> Bool {
            let address = AddressKey.of(address)
            return counts.withLock { counts in
                guard counts[address, default: 0] < limit else { return false }
                counts[address, default: 0] += 1
                return true
            }
        }

        func release(_ address: String) {
            let address = AddressKey.of(address)
            counts.withLock { counts in
                let left = counts[address, default: 1] - 1
                counts[address] = left > 0 ? left : nil
            }
        }
    }
}
