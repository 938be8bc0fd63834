import Hummingbird

// GET /health answers as Quizbox's does (same body and type), so the two compare like for like.
let port = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 8080
let router = Router()
router.get("/health") { _, _ -> Response in
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
