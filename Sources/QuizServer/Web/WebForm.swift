import Foundation

/// An `application/x-www-form-urlencoded` body: repeated names keep every value, in order.
struct WebForm: Sendable {
    struct Invalid: Error {}

    static let maxFields = 200
    private(set) var pairs: [(name: String, value: String)] = []
    /// A multipart form's file inputs, by name: the file's name as sent and its bytes.
    private(set) var files: [String: (fileName: String, data: Data)] = [:]

    init(pairs: [(name: String, value: String)], files: [String: (fileName: String, data: Data)]) {
        self.pairs = pairs
        self.files = files
    }

    init(_ body: String) throws {
        for part in body.split(separator: "&", omittingEmptySubsequences: true) {
            guard pairs.count < Self.maxFields else { throw Invalid() }
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(pieces[0]), let value = Self.decode(pieces.count > 1 ? pieces[1] : "") else {
                throw Invalid()
            }
            pairs.append((name, value))
        }
    }

    subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    /// Fields named `prefix` and a number (`place-3`), by that number: trimmed values, the first of
    /// each name.
    func numbered(_ prefix: String) -> [(number: Int, value: String)] {
        var seen: Set<Int> = []
        return pairs.compactMap { pair in
            guard pair.name.hasPrefix(prefix), let number = Int(pair.name.dropFirst(prefix.count)), seen.insert(number).inserted else { return nil }
            return (number, pair.value.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The trimmed value, or "" when absent.
    func text(_ name: String) -> String { (self[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }

    private static func decode(_ raw: Substring) -> String? {
        raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
