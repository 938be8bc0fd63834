import Hummingbird

extension RequestContext {
    /// A numeric id from a page's path. Anything else ("/quizzes/abc") is no such page: 404, not 400.
    func pathID(_ name: String) throws -> Int64 {
        guard let id = parameters.get(name, as: Int64.self) else { throw HTTPError(.notFound) }
        return id
    }
}
