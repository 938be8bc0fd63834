import Foundation
import QuizTestSupport

/// zbarimg and rsvg-convert, found on PATH; scripts/test installs both.
enum Tools {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static var zbarimg: URL { get throws { try find("zbarimg", package: "zbar-tools") } }
    static var rsvgConvert: URL { get throws { try find("rsvg-convert", package: "librsvg2-bin") } }

    /// The bytes of the QR code zbarimg finds in `image`, as they are (no charset guessing).
    static func decode(_ image: URL) throws -> [UInt8] {
        let arguments = ["--quiet", "--raw", "--nodbus", "-Sdisable", "-Sqrcode.enable", "-Sbinary", image.path]
        let (status, output, errors) = try run(zbarimg, arguments)
        // zbarimg's own status for an image it read but found no code in.
        if status == 4 { throw Failure(description: "zbarimg found no QR code in \(image.lastPathComponent)") }
        guard status == 0 else { throw Failure(description: "zbarimg exited \(status): \(errors)") }
        return Array(output)
    }

    static func rasterise(_ svg: URL, to png: URL) throws {
        let (status, _, errors) = try run(rsvgConvert, ["--format", "png", "--output", png.path, svg.path])
        guard status == 0 else { throw Failure(description: "rsvg-convert exited \(status): \(errors)") }
    }

    private static func find(_ name: String, package: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(description: "\(name) is not installed: run ./scripts/test, which installs it (Debian package \(package))")
    }

    /// Runs `tool` to completion; its output and errors go to files, so neither can fill a pipe.
    private static func run(_ tool: URL, _ arguments: [String]) throws -> (status: Int32, output: Data, errors: String) {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("stdout")
        let errors = folder.url.appendingPathComponent("stderr")
        try Data().write(to: output)
        try Data().write(to: errors)
        let status = try ChildProcess(tool.path, arguments, output: .files(stdout: output.path, stderr: errors.path)).wait()
        return (status, try Data(contentsOf: output), String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }
}

/// A folder of its own under the temporary directory, deleted with its contents at deinit.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("QRCodeTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    func write(_ text: String, named name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
