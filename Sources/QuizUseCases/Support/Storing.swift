import Logging

/// A use case's failure with a "try again" case for when the database cannot be read or written.
package protocol StorageFailure: Error {
    static var notNow: Self { get }
}

/// Runs `body`, passing the use case's own failures on and turning any other error (a storage
/// error) into `notNow`, logged with `what` was being done.
func storing<T, Failure: StorageFailure>(_ what: String, failing _: Failure.Type, logger: Logger, _ body: () async throws -> T)
    async throws(Failure) -> T {
    do {
        return try await body()
    } catch let failure as Failure {
        throw failure
    } catch {
        logger.error("\(what) failed", metadata: ["error": "\(error)"])
        throw .notNow
    }
}
