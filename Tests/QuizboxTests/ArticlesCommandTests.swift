import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `quizbox articles import-feed` against feeds served on loopback.
@Suite struct ArticlesCommandTests {
    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>CLI News</title>
        <item><title>First</title><link>https://news.example.org/1</link><guid>news-1</guid><pubDate>Sun, 15 Nov 2026 14:30:00 GMT</pubDate></item>
        <item><title>Second</title><link>https://news.example.org/2</link></item>
        <item><title>Third, no link</title></item>
        </channel></rss>
        """

    @Test func aFeedIsImportedOnceAndItsProblemsArePrinted() throws {
        let server = try LoopbackFeedServer(routes: ["/feed.xml": Self.rss, "/broken.xml": "<rss><channel>\n<item><title>x</item>"])
        defer { server.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let first = try QuizboxProcess.run(["articles", "import-feed", server.url("/feed.xml"), "--database", "q.sqlite"], in: directory)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("Imported 2 article(s) from CLI News (rss)"), "\(first.output)")
        #expect(first.output.contains("line 5"), "the item without a link is reported with its line: \(first.output)")
        #expect(first.output.contains("0 already known and skipped"))

        let again = try QuizboxProcess.run(["articles", "import-feed", server.url("/feed.xml"), "--database", "q.sqlite"], in: directory)
        #expect(again.status == 0)
        #expect(again.output.contains("Imported 0 article(s)"), "\(again.output)")
        #expect(again.output.contains("2 already known and skipped"))

        let dump = try QuizboxProcess.run(["export-db", "-o", "dump.out", "--database", "q.sqlite"], in: directory)
        #expect(dump.status == 0, "\(dump.output)")
        let stored = try String(contentsOf: directory.appendingPathComponent("dump.out"), encoding: .utf8)
        #expect(stored.contains("https://news.example.org/1"))
        #expect(stored.contains("https://news.example.org/2"))
        #expect(!stored.contains("Third, no link"))
    }

    @Test func badFeedsAndUnreachableServersStoreNothing() throws {
        let server = try LoopbackFeedServer(routes: ["/broken.xml": "<rss><channel>\n<title>B</title>\n<item><title>x</item>"])
        defer { server.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let broken = try QuizboxProcess.run(["articles", "import-feed", server.url("/broken.xml"), "--database", "q.sqlite"], in: directory)
        #expect(broken.status != 0)
        #expect(broken.output.contains("is not an RSS or Atom feed"), "\(broken.output)")
        #expect(broken.output.contains("line 3"), "\(broken.output)")
        #expect(broken.output.contains("nothing was imported"))

        let missing = try QuizboxProcess.run(["articles", "import-feed", server.url("/none.xml"), "--database", "q.sqlite"], in: directory)
        #expect(missing.status != 0)
        #expect(missing.output.contains("404"), "\(missing.output)")

        let notHTTP = try QuizboxProcess.run(["articles", "import-feed", "javascript:alert(1)", "--database", "q.sqlite"], in: directory)
        #expect(notHTTP.status != 0)
        #expect(notHTTP.output.contains("not an http or https address"))

        server.stop()
        let unreachable = try QuizboxProcess.run(["articles", "import-feed", server.url("/feed.xml"), "--database", "q.sqlite"], in: directory)
        #expect(unreachable.status != 0)
        #expect(unreachable.output.contains("could not reach the server"), "\(unreachable.output)")
    }
}

/// The smallest HTTP/1.0 server: one thread, one request per connection, fixed bodies by path.
final class LoopbackFeedServer: @unchecked Sendable {
    struct Failed: Error {}

    let port: Int
    private let socket: Int32
    private let stopped = NSLock()
    private var isStopped = false

    init(routes: [String: String]) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failed() }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw Failed() }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [socket] in
            while true {
                let client = accept(socket, nil, nil)
                guard client >= 0 else { return }  // the listening socket was closed
                var request = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !request.ends(with: [13, 10, 13, 10]) && request.count < 65_536 {
                    let n = read(client, &buffer, buffer.count)
                    if n <= 0 { break }
                    request += buffer[0..<n]
                }
                let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
                let path = line.count > 1 ? String(line[1]) : "/"
                let body = routes[path]
                let head = body == nil ? "HTTP/1.0 404 Not Found" : "HTTP/1.0 200 OK"
                let bytes = Array((body ?? "not found").utf8)
                let response = Array("\(head)\r\nContent-Type: application/xml\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n".utf8) + bytes
                _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }
        thread.start()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func stop() {
        stopped.lock()
        defer { stopped.unlock() }
        guard !isStopped else { return }
        isStopped = true
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
