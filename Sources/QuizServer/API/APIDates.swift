import Foundation
import OpenAPIRuntime

/// The API's dates: written as ISO 8601 in UTC to the second, as before; read with or without
/// fractional seconds (JavaScript's `toISOString()` sends milliseconds). A date that is not
/// ISO 8601 is its own error, so the client is told which value was wrong rather than that the
/// body is not JSON (the runtime's transcoder knows no field).
struct APIDates: DateTranscoder {
    private static let whole = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    func encode(_ date: Date) throws -> String { Self.whole.format(date) }

    func decode(_ text: String) throws -> Date {
        if let date = try? Self.whole.parse(text) { return date }
        if let date = try? Self.fractional.parse(text) { return date }
        throw InvalidDate(text: String(text.prefix(40)))
    }
}

/// A date in a request body that is not ISO 8601.
struct InvalidDate: Error {
    var text: String
}
