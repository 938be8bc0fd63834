import Foundation
import QuizCore
import QuizStore

/// Account creation as one use case, shared by the API and the `quizbox user create` command.
public struct Accounts<Store: UserStore>: Sendable {
    let store: Store
    let hasher: PasswordHasher
    let minimumPasswordLength: Int
    let time: any TimeSource

    public init(store: Store, config: ServerConfig, time: any TimeSource = SystemTimeSource()) {
        self.init(store: store, hasher: PasswordHasher(cost: config.bcryptCost),
                  minimumPasswordLength: config.minimumPasswordLength, time: time)
    }

    init(store: Store, hasher: PasswordHasher, minimumPasswordLength: Int, time: any TimeSource) {
        self.store = store
        self.hasher = hasher
        self.minimumPasswordLength = minimumPasswordLength
        self.time = time
    }

    /// Validates, hashes the password and stores the user.
    /// Throws `Registration.Invalid` for a bad field and `StoreError.usernameTaken`.
    public func register(_ registration: Registration, role: Role = .player) async throws -> User {
        try registration.validate(minimumPasswordLength: minimumPasswordLength)
        let hash = try await hasher.hash(registration.password)
        return try await store.createUser(NewUser(
            username: registration.username,
            firstName: registration.firstName.trimmingCharacters(in: .whitespacesAndNewlines),
            lastName: registration.lastName.trimmingCharacters(in: .whitespacesAndNewlines),
            passwordHash: hash, role: role, createdAt: time.now()
        ))
    }
}
