import ArgumentParser
import Configuration
import Foundation
import SystemPackage
import Logging
import QuizServer
import QuizText

/// The texts of every command, in the language of the environment (`LANGUAGE`, `LC_ALL`,
/// `LC_MESSAGES`, `LANG`): `LANG=fi_FI.UTF-8 quizbox …` speaks Finnish. Log lines of
/// `quizbox serve` and output meant for programs (CSV, JSON, dumps) stay as they are.
let t = Texts.of(Language.fromEnvironment())

/// A count in a sentence: plain digits in English, as these lines always printed them (scripts
/// read them), grouped as the language writes numbers otherwise.
func plain(_ value: some BinaryInteger) -> String { t.language == .en ? String(value) : t.number(value) }

@main
struct Quizbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quizbox",
        abstract: t("A self-hosted quiz server."),
        subcommands: [Serve.self, Play.self, Migrate.self, UserCommand.self, Import.self, Export.self, ExportDB.self, ImportDB.self,
                      Backup.self, Restore.self, Articles.self],
        defaultSubcommand: Serve.self
    )
}

/// Options every command that touches the database shares.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(t("SQLite file or postgres:// URL (default: quizbox.sqlite, or QUIZBOX_DATABASE_URL / QUIZBOX_DATABASE).")))
    var database: String?

    /// Settings from the environment and an optional .env file, then these options on top.
    func serverConfig() async throws -> ServerConfig {
        let reader = ConfigReader(providers: [
            EnvironmentVariablesProvider(),
            try await EnvironmentVariablesProvider(environmentFilePath: ".env", allowMissing: true),
        ])
        var config = ServerConfig(reader: reader)
        if let database { config.database = database }
        return config
    }
}

/// A failure the person at the terminal can act on: printed without a stack of types.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// With a sink (`serve`), lines go through it and never wait on stderr; commands that exit when
/// done log straight to stderr, so nothing is left in a buffer.
func makeLogger(level: Logger.Level = .info, sink: LogSink? = nil) -> Logger {
    var logger = sink.map { sink in Logger(label: "quizbox") { SinkLogHandler(label: $0, sink: sink) } } ?? Logger(label: "quizbox")
    logger.logLevel = ProcessInfo.processInfo.environment["QUIZBOX_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? level
    return logger
}
