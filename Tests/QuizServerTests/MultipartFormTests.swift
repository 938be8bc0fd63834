import Foundation
@testable import QuizServer
import Testing

/// The manage page's upload parser: what browsers send, and bodies built to hurt.
@Suite struct MultipartFormTests {
    static func body(_ parts: [String], boundary: String = "XyZ") -> [UInt8] {
        Array((parts.map { "--\(boundary)\r\n\($0)\r\n" }.joined() + "--\(boundary)--\r\n").utf8)
    }

    @Test func fieldsAndFilesAreReadAsABrowserSendsThem() throws {
        let form = try MultipartForm(Self.body([
            "Content-Disposition: form-data; name=\"csrf\"\r\n\r\ntoken",
            "Content-Disposition: form-data; name=\"file\"; filename=\"a; b.csv\"\r\nContent-Type: text/csv\r\n\r\nq,a\r\n1,2",
            "Content-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n\r\n",
        ]), boundary: "XyZ")
        #expect(form.parts.map(\.name) == ["csrf", "file", "empty"])
        #expect(form.parts.map(\.fileName) == [nil, "a; b.csv", ""])
        #expect(form.parts.map { String(decoding: $0.body, as: UTF8.self) } == ["token", "q,a\r\n1,2", ""])
    }

    @Test func theBoundaryComesFromTheContentType() {
        #expect(MultipartForm.boundary(inContentType: "multipart/form-data; boundary=----abc") == "----abc")
        #expect(MultipartForm.boundary(inContentType: "Multipart/Form-Data; charset=utf-8; boundary=\"q r\"") == "q r")
        #expect(MultipartForm.boundary(inContentType: "application/x-www-form-urlencoded") == nil)
        #expect(MultipartForm.boundary(inContentType: "multipart/form-data; boundary=" + String(repeating: "x", count: 71)) == nil)
    }

    @Test(arguments: [
        "no boundary at all",
        "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nnever ends",
        "--XyZ\r\nContent-Disposition: attachment; name=\"a\"\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n" + String(repeating: "X-Padding: y\r\n", count: 1_000) + "\r\nx\r\n--XyZ--",
        "--XyZtrailing",
    ])
    func malformedBodiesAreRefused(_ text: String) {
        #expect(throws: MultipartForm.Invalid.self) { try MultipartForm(Array(text.utf8), boundary: "XyZ") }
    }

    @Test func theNumberOfPartsIsBounded() {
        let parts = (0...MultipartForm.maxParts).map { "Content-Disposition: form-data; name=\"f\($0)\"\r\n\r\nv" }
        #expect(throws: MultipartForm.Invalid.self) { try MultipartForm(Self.body(parts), boundary: "XyZ") }
        #expect(throws: Never.self) { try MultipartForm(Self.body(Array(parts.dropLast())), boundary: "XyZ") }
    }
}
