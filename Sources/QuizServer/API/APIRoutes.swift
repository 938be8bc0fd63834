import HTTPTypes

/// What the API's routes ask of the middlewares before them: the generated routes take no options,
/// so they are declared here, by the spec's paths, and registered with the routes.
enum APIRoutes {
    static let policies: [(HTTPRequest.Method, String, RoutePolicy)] = [
        // Public reads, the same for everyone: their handlers read no credential.
        (.get, "/subjects", .publicCache),
        (.get, "/subjects/{subjectId}/topics", .publicCache),
        (.get, "/topics/{topicId}/quizzes", .publicCache),
        (.get, "/quizzes/{quizId}", .publicCache),
        (.get, "/quizzes/{quizId}/questions", .publicCache),
        // Bodies larger than the default: a bank file, a picture in base64.
        (.post, "/imports", .body(.importFile)),
        (.post, "/posts", .body(.post)),
        (.put, "/manage/questions/{questionId}", .body(.question)),
        (.post, "/manage/topics/{topicId}/questions", .body(.question)),
    ]
}
