import ArgumentParser
import Hummingbird
import Foundation
import NIOCore
import QuizServer
import QuizText

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: t("Run the Quizbox server (the default command)."))

    @Option(help: ArgumentHelp(t("Address to listen on (default 127.0.0.1, or QUIZBOX_HOST).")))
    var host: String?

    @Option(help: ArgumentHelp(t("Port to listen on (default 8080, or QUIZBOX_PORT); 0 picks a free one.")))
    var port: Int?

    @OptionGroup var db: DatabaseOptions

    func run() async throws {
        var config = try await db.serverConfig()
        if let host { config.host = host }
        if let port { config.port = port }
        let sink = LogSink()
        defer { sink.close() }  // what is still buffered is written before the process exits
        let logger = makeLogger(sink: sink)
        let app: any ApplicationProtocol
        do {
            app = try await buildApplication(config: config, logger: logger)
        } catch {
            throw CLIError("quizbox: " + t(String(describing: error)))
        }
        // Stops on SIGINT/SIGTERM after in-flight requests finish; the database closes last.
        do {
            try await app.runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw CLIError("quizbox: " + t("Port {port} is already in use. Stop the other server or choose another port with --port or QUIZBOX_PORT.",
                                          ["port": String(config.port)]))
        }
    }
}
