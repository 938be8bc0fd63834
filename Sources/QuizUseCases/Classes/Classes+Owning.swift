import Foundation
import QuizCore
import QuizStore

/// The owner's side: creating a class, listing theirs, renaming it, opening and closing joining,
/// and removing a student.
extension Classes {
    /// A new class of `user`'s, with a code of its own; joining is open.
    package func create(name: String, user: User) async throws(Failure) -> SchoolClass {
        let problems = SchoolClass.problems(name: name)
        guard problems.isEmpty else { throw .invalid(problems) }
        let now = time.now()
        return try await storing("creating a class") {
            let owned = try await store.classes(ownerUserId: user.id, limit: Self.classesPerOwner)
            guard owned.count < Self.classesPerOwner else { throw Failure.tooManyClasses(Self.classesPerOwner) }
            var schoolClass = SchoolClass(code: "", ownerUserId: user.id, name: SchoolClass.cleaned(name: name), createdAt: now)
            // Codes are unique among classes: draw again when one is taken.
            for _ in 0..<20 {
                schoolClass.code = String(Int.random(in: SchoolClass.codes))
                if let created = try await store.createClass(schoolClass) { return created }
            }
            throw Failure.notNow
        }
    }

    /// "My classes": the ones `userId` teaches, newest first, with their counts.
    package func taught(userId: Int64) async throws(Failure) -> [ClassSummary] {
        try await storing("listing classes") { try await store.classes(ownerUserId: userId, limit: Self.listLimit) }
    }

    /// The ones `userId` is a student of, by name.
    package func joined(userId: Int64) async throws(Failure) -> [SchoolClass] {
        try await storing("listing joined classes") { try await store.classes(memberUserId: userId, limit: Self.listLimit) }
    }

    /// The owner's class; anyone else's is `classNotFound`.
    package func owned(id: Int64, userId: Int64) async throws(Failure) -> SchoolClass {
        try await storing("reading a class") {
            guard let schoolClass = try await store.schoolClass(id: id), schoolClass.ownerUserId == userId else { throw Failure.classNotFound }
            return schoolClass
        }
    }

    package func rename(id: Int64, name: String, userId: Int64) async throws(Failure) -> SchoolClass {
        var schoolClass = try await owned(id: id, userId: userId)
        let problems = SchoolClass.problems(name: name)
        guard problems.isEmpty else { throw .invalid(problems) }
        schoolClass.name = SchoolClass.cleaned(name: name)
        let renamed = schoolClass
        return try await storing("renaming a class") {
            try await store.renameClass(id: id, name: renamed.name)
            return renamed
        }
    }

    /// Opens or closes joining with the code; members stay either way.
    package func setJoining(id: Int64, open: Bool, userId: Int64) async throws(Failure) -> SchoolClass {
        var schoolClass = try await owned(id: id, userId: userId)
        schoolClass.joiningOpen = open
        let changed = schoolClass
        return try await storing("opening or closing a class") {
            try await store.setClassJoining(id: id, open: open)
            return changed
        }
    }

    /// Takes a student out: they leave the gradebook and the class's assignments refuse them
    /// from now on (what they played stays in each assignment's report).
    package func remove(userId student: Int64, from id: Int64, ownerId: Int64) async throws(Failure) {
        _ = try await owned(id: id, userId: ownerId)
        try await storing("removing a student") {
            guard try await store.removeClassMember(classId: id, userId: student) else { throw Failure.notMember }
        }
    }
}
