import Foundation
import QuizCore
import QuizFormats

/// The question bank written for Quizbox and shipped with it, loaded into an empty database.
public enum StarterBank {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "the starter bank resource is missing from this build" }
    }

    public static func load() throws -> Bank {
        guard let url = Bundle.module.url(forResource: "starter-bank", withExtension: "json") else { throw Missing() }
        return try BundleCodec().read(Data(contentsOf: url))
    }
}
