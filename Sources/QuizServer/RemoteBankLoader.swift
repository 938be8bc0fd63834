import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import QuizCore
import QuizFormats
import QuizUseCases
#if canImport(Glibc)
import Glibc
#endif

/// "Load question from remote": downloads a question bank over HTTP(S) and reads it.
/// Two ways to fail, as the use case has them: the server could not be reached (`connectivity`),
/// or what came back is not a bank Quizbox can import (`invalidData`).
public struct RemoteBankLoader: Sendable {
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case connectivity(String)
        case invalidData(String, problems: [FormatProblem] = [])
        /// The address is on this machine or a private network, and the server may not load from there.
        case privateAddress(String)

        public var description: String {
            switch self {
            case .connectivity(let reason): "could not reach the server: \(reason)"
            case .privateAddress(let reason): reason
            case .invalidData(let reason, let problems):
                ([reason] + problems.map(\.description)).joined(separator: "\n")
            }
        }
    }

    public struct Limits: Sendable {
        public var connectTimeout: TimeAmount = .seconds(5)
        public var totalTimeout: TimeAmount = .seconds(30)
        public var maxBytes = 20 << 20
        public var maxRedirects = 5
        /// Loopback, private and link-local addresses may be loaded (the CLI; tests' loopback
        /// servers). Off for the server unless QUIZBOX_REMOTE_IMPORT_ALLOW_PRIVATE=true.
        public var allowPrivateAddresses = false
        /// How names become addresses (the system's resolver; a test's stand-in for a DNS server).
        public var resolver: @Sendable (String) throws -> [[UInt8]] = RemoteAddressPolicy.resolve
        public init() {}
    }

    public var limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// What was downloaded and read, with the format it was read as.
    public struct Loaded: Sendable {
        public var result: ReadResult
        public var format: BankFormat
        public var bytes: Int
    }

    public func load(_ url: URL, format: BankFormat? = nil, defaults: ImportDefaults) async throws(Error) -> Loaded {
        let data = try await download(url)
        let chosen = format ?? BankFormat.detect(fileName: url.lastPathComponent, data: data)
        do {
            return Loaded(result: try chosen.read(data, defaults: defaults), format: chosen, bytes: data.count)
        } catch {
            throw .invalidData("\(url.absoluteString) is not a \(chosen.rawValue) question bank Quizbox can import",
                               problems: error.problems)
        }
    }

    /// The body at `url` (http or https), following redirects with every hop's address checked.
    /// Shared by the feed loader, so feeds get the same limits and errors as question banks.
    func download(_ url: URL) async throws(Error) -> Data {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .invalidData("only http and https addresses can be loaded: \(url.absoluteString)")
        }
        // Redirects are followed here, not by the client, so every hop's address is checked. Each
        // hop connects to the address its check resolved (TLS still verifies the name).
        let deadline = NIODeadline.now() + limits.totalTimeout
        var current = url
        var visited: Set<String> = [url.absoluteString]
        var response: HTTPClientResponse
        var clients: [HTTPClient] = []
        defer { for client in clients { client.shutdown { _ in } } }
        while true {
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: limits.connectTimeout, read: limits.totalTimeout)
            )
            if let host = current.host, let address = try await checkAddress(current) { configuration.dnsOverride = [host: address] }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients.append(client)
            do {
                var request = HTTPClientRequest(url: current.absoluteString)
                request.headers.add(name: "User-Agent", value: "Quizbox")
                response = try await client.execute(request, deadline: deadline)
            } catch {
                throw .connectivity(Self.describe(error))
            }
            guard [301, 302, 303, 307, 308].contains(response.status.code),
                  let location = response.headers.first(name: "location") else { break }
            _ = try? await response.body.collect(upTo: 64 << 10)
            guard let next = URL(string: location, relativeTo: current)?.absoluteURL,
                  ["http", "https"].contains(next.scheme?.lowercased() ?? ""), next.host != nil else {
                throw .invalidData("\(current.absoluteString) redirects to \(location.prefix(200)), which is not an http(s) address")
            }
            guard visited.count <= limits.maxRedirects, visited.insert(next.absoluteString).inserted else {
                throw .invalidData("\(url.absoluteString) redirects too often (more than \(limits.maxRedirects) times)")
            }
            current = next
        }
        guard response.status == .ok else {
            throw .invalidData("\(url.absoluteString) answered \(response.status.code) \(response.status.reasonPhrase), not 200 OK")
        }
        if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > limits.maxBytes {
            throw .invalidData("\(url.absoluteString) is larger than \(limits.maxBytes / 1_048_576) MiB")
        }
        do {
            let body = try await Self.collect(response.body, upTo: limits.maxBytes, until: deadline)
            return Data(body.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw .invalidData("\(url.absoluteString) is larger than \(limits.maxBytes / 1_048_576) MiB")
        } catch {
            throw .connectivity(Self.describe(error))
        }
    }

    /// The body within the download's deadline: a server sending a byte now and then (each
    /// within the read timeout) cannot keep an import open past it.
    static func collect(_ body: HTTPClientResponse.Body, upTo maxBytes: Int, until deadline: NIODeadline) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: maxBytes) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, (deadline - .now()).nanoseconds)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else { throw HTTPClientError.deadlineExceeded }
            return buffer
        }
    }

    /// Refuses this machine and private networks unless `Limits.allowPrivateAddresses`; returns
    /// the checked address to connect to (nil when private addresses are allowed: no check made).
    private func checkAddress(_ url: URL) async throws(Error) -> String? {
        guard !limits.allowPrivateAddresses, let host = url.host else { return nil }
        let verdict: RemoteAddressPolicy.Verdict
        do {
            verdict = try await RemoteAddressPolicy.check(host, resolver: limits.resolver)
        } catch {
            throw .connectivity("the host name could not be resolved")
        }
        switch verdict {
        case .allowed(let address):
            return address
        case .blocked(let blocked):
            throw .privateAddress("\(host) is a private, loopback or link-local address (\(blocked)): this server does not load from its own network")
        }
    }

    /// A person-readable reason, not a type dump, told by the error's type.
    static func describe(_ error: any Swift.Error) -> String {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout: "the connection timed out"
            case .deadlineExceeded, .readTimeout: "the server took too long to answer"
            case .remoteConnectionClosed: "the server closed the connection"
            default: String(describing: error)
            }
        case let error as NIOConnectionError:
            // Every address tried failed: the first one's reason, or the lookup's.
            error.connectionErrors.first.map { describe($0.error) } ?? "the host name could not be resolved"
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            "the connection was refused"
        case is SocketAddressError:
            "the host name could not be resolved"
        case ChannelError.connectTimeout:
            "the connection timed out"
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
            "the secure connection failed (\(error))"
        default:
            String(describing: error)
        }
    }
}

/// Banks from an address for `ImportBank`, with this loader's limits and address policy.
extension RemoteBankLoader: BankDownloader {
    package func downloadBank(_ url: URL) async throws(ImportBank.DownloadFailure) -> Data {
        do {
            return try await download(url)
        } catch {
            switch error {
            case .connectivity(let reason): throw .unreachable(reason)
            case .invalidData(let reason, _): throw .unusable(reason)
            case .privateAddress(let reason): throw .privateAddress(reason)
            }
        }
    }

    /// A picture: the same address checks and timeouts, at most a picture's size.
    package func downloadPicture(_ url: URL) async throws(ImportBank.DownloadFailure) -> Data {
        var limits = limits
        limits.maxBytes = min(limits.maxBytes, PostImageType.maxBytes)
        return try await RemoteBankLoader(limits: limits).downloadBank(url)
    }
}
