import Foundation
import HTTPTypes
import OpenAPIRuntime
@testable import QuizServer
import Testing

/// What the generated code raises while reading a request reaches the client in our words only.
@Suite struct ErrorMiddlewareTests {
    struct RuntimeInternals: Error, CustomStringConvertible {
        var description: String { "Swift.DecodingError in Components.Schemas.Secret at 0x7f00" }
    }

    @Test func anUnknownRequestErrorIsNamedWithoutItsSwiftDescription() {
        var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/api/v1/posts")
        request.headerFields[.contentLength] = "12"
        let error = ServerError(operationID: "createPost", request: request, requestBody: nil, requestMetadata: .init(),
                                causeDescription: "Unknown", underlyingError: RuntimeInternals())
        let apiError = ErrorMiddleware<AppRequestContext>.apiError(for: error)
        #expect(apiError.status == .badRequest)
        #expect(apiError.code == "invalid_request")
        #expect(!apiError.message.contains("Swift"))
        #expect(!apiError.message.contains("0x7f00"))
    }

    @Test func typesAreNamedByWhatTheyAreNotByTheirNames() {
        struct Interval {}  // "Int" in its name, yet an object
        #expect(ErrorMiddleware<AppRequestContext>.typeName(Int64.self) == "an integer")
        #expect(ErrorMiddleware<AppRequestContext>.typeName(Double.self) == "a number")
        #expect(ErrorMiddleware<AppRequestContext>.typeName(Bool.self) == "true or false")
        #expect(ErrorMiddleware<AppRequestContext>.typeName(String.self) == "a string")
        #expect(ErrorMiddleware<AppRequestContext>.typeName([Int].self) == "an array")
        #expect(ErrorMiddleware<AppRequestContext>.typeName(Interval.self) == "an object")
        #expect(ErrorMiddleware<AppRequestContext>.typeName([String: Int].self) == "an object")
    }
}
