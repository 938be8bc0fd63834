import Foundation

extension Seeds {
    /// A reader's seeds: the committed corpus, the shared sample files when they are there, and
    /// the built-in inputs.
    static func load(for target: FuzzTarget, options: FuzzOptions) -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        let corpus = URL(fileURLWithPath: options.corpus).appendingPathComponent(target.name)
        for file in files(in: corpus) { seeds.append((file.lastPathComponent, read(file))) }
        for (folder, suffix) in target.shared {
            let directory = URL(fileURLWithPath: options.shared).appendingPathComponent(folder)
            for file in files(in: directory) where file.lastPathComponent.hasSuffix(suffix) {
                seeds.append((file.lastPathComponent, read(file)))
            }
        }
        for (index, seed) in target.seeds.enumerated() { seeds.append(("built-in \(index)", Array(seed.utf8))) }
        return seeds
    }

    /// Each reader's seeds in `folder/<reader>/` and its tokens in `folder/<reader>.dict`: what
    /// libFuzzer takes as a starting corpus and a dictionary.
    static func export(to folder: URL, options: FuzzOptions) throws {
        for target in options.readers {
            let seeds = folder.appendingPathComponent(target.name)
            try FileManager.default.createDirectory(at: seeds, withIntermediateDirectories: true)
            for (_, bytes) in load(for: target, options: options) {
                try Data(bytes).write(to: seeds.appendingPathComponent(String(bytes.fingerprint, radix: 16)))
            }
            let lines = (target.tokens + Mutator.common).map { token in
                // libFuzzer's dictionary syntax: a quoted string, \xNN for anything not printable.
                "\"" + token.utf8.map { byte in
                    (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                        ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
                }.joined() + "\""
            }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("\(target.name).dict"))
        }
    }

    static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { folder.appendingPathComponent($0) }
    }

    static func read(_ file: URL) -> [UInt8] {
        (try? Data(contentsOf: file)).map { [UInt8]($0) } ?? []
    }
}
