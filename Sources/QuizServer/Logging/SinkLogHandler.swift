import Logging

/// swift-log's handler for `quizbox serve`: StreamLogHandler's line format
/// (`2026-11-24T14:30:00+0000 info quizbox: key=value … [Source] message`), written through a
/// `LogSink`, so no log line waits on the output.
public struct SinkLogHandler: LogHandler {
    public let label: String
    public let sink: LogSink
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(label: String, sink: LogSink, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.sink = sink
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { all.merge(provided) { $1 } }
        if let explicit = event.metadata, !explicit.isEmpty { all.merge(explicit) { $1 } }
        if let error = event.error {
            all["error.message"] = "\(error)"
            all["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pairs = all.sorted { $0.key < $1.key }
        sink.append { line in
            line.appendLog(event.level.rawValue)
            line.append(UInt8(ascii: " "))
            line.appendLog(label)
            line.append(UInt8(ascii: ":"))
            for (key, value) in pairs {
                line.append(UInt8(ascii: " "))
                line.appendLog(key)
                line.append(UInt8(ascii: "="))
                line.appendLog(value.description)
            }
            line.appendLog(" [")
            line.appendLog(event.source)
            line.appendLog("] ")
            line.appendLog(event.message.description)
        }
    }
}
