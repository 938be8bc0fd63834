import Foundation
@testable import QuizFormats
import Testing

/// Strings as Open Trivia DB's API encodes them: what the compatible API writes, read back by the
/// same decoding the importer uses.
@Suite struct OpenTriviaWriterTests {
    static let hostile = [
        "", "plain", "Rome's \"forum\" & <b>", "a+b = c%20d", "~tilde-_.", "Ünïcödé – “quotes” 🎲", "line\nbreak\ttab", "&amp; already",
    ]

    @Test(arguments: OpenTriviaReader.Encoding.allCases)
    func everyEncodingReadsBackToTheSameText(_ encoding: OpenTriviaReader.Encoding) {
        for text in Self.hostile {
            let encoded = OpenTriviaWriter.encode(text, encoding)
            #expect(OpenTriviaReader.decode(encoded, encoding) == .success(text), "\(encoding) of \(text.debugDescription): \(encoded)")
        }
    }

    @Test func eachEncodingWritesAsPHPDoes() {
        let text = "Rome's \"forum\" & <b> ~x"
        #expect(OpenTriviaWriter.encode(text, .htmlEntities) == "Rome&#039;s &quot;forum&quot; &amp; &lt;b&gt; ~x")
        #expect(OpenTriviaWriter.encode(text, .urlLegacy) == "Rome%27s+%22forum%22+%26+%3Cb%3E+%7Ex")
        #expect(OpenTriviaWriter.encode(text, .url3986) == "Rome%27s%20%22forum%22%20%26%20%3Cb%3E%20~x")
        #expect(OpenTriviaWriter.encode("é", .url3986) == "%C3%A9")
        #expect(OpenTriviaWriter.encode("multiple", .base64) == "bXVsdGlwbGU=")
    }

    @Test func encodeParameterValues() {
        #expect(OpenTriviaWriter.encoding(parameter: nil) == .htmlEntities)
        #expect(OpenTriviaWriter.encoding(parameter: "") == .htmlEntities)
        #expect(OpenTriviaWriter.encoding(parameter: "urlLegacy") == .urlLegacy)
        #expect(OpenTriviaWriter.encoding(parameter: "url3986") == .url3986)
        #expect(OpenTriviaWriter.encoding(parameter: "base64") == .base64)
        #expect(OpenTriviaWriter.encoding(parameter: "Base64") == nil)
        #expect(OpenTriviaWriter.encoding(parameter: "html") == nil)
    }
}
