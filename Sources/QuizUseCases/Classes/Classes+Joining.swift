import Foundation
import Logging
import QuizCore
import QuizStore

/// Students join with the class's code or link, signed in; every try counts against the
/// address (the live joins' rule), so a code cannot be guessed for free.
extension Classes {
    package struct Joining: Sendable, Equatable {
        package var schoolClass: SchoolClass
        /// false: they were a member already.
        package var joinedNow: Bool
    }

    /// Joins the class with this code. Joining again is no error (`joinedNow` false).
    package func join(code: String, user: User, address: String) async throws(Failure) -> Joining {
        try await countTry(from: address)
        let now = time.now()
        guard let code = Self.normalized(code: code) else { throw .classNotFound }
        return try await storing("joining a class") {
            guard let schoolClass = try await store.schoolClass(code: code) else { throw Failure.classNotFound }
            guard schoolClass.ownerUserId != user.id else { throw Failure.ownClass }
            if try await store.isClassMember(classId: schoolClass.id, userId: user.id) {
                return Joining(schoolClass: schoolClass, joinedNow: false)
            }
            guard schoolClass.joiningOpen else { throw Failure.joiningClosed }
            guard try await store.classMembers(classId: schoolClass.id).count < Self.membersPerClass else {
                throw Failure.classFull(Self.membersPerClass)
            }
            let added = try await store.addClassMember(classId: schoolClass.id, userId: user.id, at: now)
            return Joining(schoolClass: schoolClass, joinedNow: added)
        }
    }

    /// A student leaves a class of theirs.
    package func leave(id: Int64, userId: Int64) async throws(Failure) {
        try await storing("leaving a class") {
            guard try await store.removeClassMember(classId: id, userId: userId) else { throw Failure.classNotFound }
        }
    }

    /// Counts a join against its address.
    private func countTry(from address: String) async throws(Failure) {
        let allowed: Bool
        do {
            allowed = try await joins.allow(keys: ["class-join:" + AddressKey.of(address)])
        } catch {
            logger.error("counting a class join failed", metadata: ["error": "\(error)"])
            throw .notNow
        }
        guard allowed else { throw .rateLimited }
    }
}
