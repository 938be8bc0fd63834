import QuizServer
import Testing

@Suite struct ServerConfigTests {
    /// Instances sharing PostgreSQL do not hear of each other's writes, so nothing is cached
    /// there unless the operator asks for it; SQLite keeps its 2 seconds.
    @Test func cachingIsOffOnPostgreSQLUnlessSetAndTwoSecondsOnSQLite() {
        var config = ServerConfig()
        config.database = "quizbox.sqlite"
        #expect(config.resolvedCacheLifetime == 2)
        config.database = "postgres://quizbox@localhost/quizbox"
        #expect(config.resolvedCacheLifetime == 0)
        config.cacheLifetime = 5
        #expect(config.resolvedCacheLifetime == 5)
        config.database = "quizbox.sqlite"
        config.cacheLifetime = 0
        #expect(config.resolvedCacheLifetime == 0)
    }
}
