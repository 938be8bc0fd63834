import Foundation
import QuizCore

/// Reads a GIFT file line by line, as Moodle does: a blank line ends a question, `//` comment
/// lines are dropped, a `$CATEGORY:` line switches subject and topic, and each question's lines go
/// to a `GIFTBlock`. Works on the bytes: a question costs one copy of its lines and its strings.
struct GIFTDocument {
    let input: UnsafeBufferPointer<UInt8>
    let defaults: ImportDefaults
    private(set) var problems = ProblemList()
    private(set) var warnings: [FormatProblem] = []
    private(set) var builder = BankBuilder()
    /// Questions found, whether kept, left out with a warning, or broken.
    private(set) var questionsSeen = 0
    private var subject: String
    private var topic: String
    /// The question being collected (see `GIFTBlock` for how escapes are stored).
    private var text: [UInt8] = []
    private var lines: [GIFTBlock.Line] = []

    init(input: UnsafeBufferPointer<UInt8>, defaults: ImportDefaults) {
        self.input = input
        self.defaults = defaults
        subject = defaults.subject
        topic = defaults.topic
        text.reserveCapacity(4_096)
    }

    static func byteOrderMarkLength(_ input: UnsafeBufferPointer<UInt8>) -> Int {
        input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF ? 3 : 0
    }

    mutating func read() {
        let count = input.count
        var i = GIFTDocument.byteOrderMarkLength(input)
        var number = 0
        while i < count {
            number += 1
            let lineStart = i
            var end = i
            while end < count && input[end] != 0x0A && input[end] != 0x0D { end += 1 }
            i = end < count && input[end] == 0x0D && end + 1 < count && input[end + 1] == 0x0A ? end + 2 : end + 1
            var start = lineStart
            while start < end && GIFTText.isSpace(input[start]) { start += 1 }
            var stop = end
            while stop > start && GIFTText.isSpace(input[stop - 1]) { stop -= 1 }

            if start == stop {
                flush()
            } else if stop - start >= 2 && input[start] == UInt8(ascii: "/") && input[start + 1] == UInt8(ascii: "/") {
                continue
            } else if startsWithCategory(start..<stop) {
                flush()
                readCategory((start + GIFTDocument.category.count)..<stop)
            } else {
                append(line: number, lineStart: lineStart, start..<stop)
            }
        }
        flush()
    }

    private static let category = Array("$CATEGORY:".utf8)

    private func startsWithCategory(_ range: Range<Int>) -> Bool {
        let name = GIFTDocument.category
        return range.count >= name.count && input[range.lowerBound] == UInt8(ascii: "$")
            && (0..<name.count).allSatisfy { input[range.lowerBound + $0] == name[$0] }
    }

    /// Adds a line to the question, storing escapes as `GIFTBlock` describes.
    private mutating func append(line number: Int, lineStart: Int, _ range: Range<Int>) {
        if !text.isEmpty { text.append(0x0A) }
        lines.append(GIFTBlock.Line(number: number, lineStart: lineStart, start: range.lowerBound, offset: text.count))
        var runStart = range.lowerBound
        var i = range.lowerBound
        while i < range.upperBound {
            if input[i] == UInt8(ascii: "\\") && i + 1 < range.upperBound && GIFTDocument.isEscapable(input[i + 1]) {
                text.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<i]))
                text.append(GIFTText.escapeMarker)
                text.append(input[i + 1] | 0x80)
                i += 2
                runStart = i
            } else {
                i += 1
            }
        }
        text.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<range.upperBound]))
    }

    static func isEscapable(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: "~"), UInt8(ascii: "="), UInt8(ascii: "#"), UInt8(ascii: "{"),
             UInt8(ascii: "}"), UInt8(ascii: ":"), UInt8(ascii: "n"):
            return true
        default:
            return false
        }
    }

    /// Reads the collected question, if any, and starts a new one.
    private mutating func flush() {
        guard !text.isEmpty else { return }
        questionsSeen += 1
        let outcome = text.withUnsafeBufferPointer { GIFTBlock(text: $0, lines: lines, input: input).readQuestion() }
        for problem in outcome.problems { problems.append(problem) }
        warnings += outcome.warnings
        if let question = outcome.question, outcome.problems.isEmpty { builder.add(question, subject: subject, topic: topic) }
        text.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
    }

    /// `$CATEGORY: $course$/top/Subject/…/Topic`: the first name is the subject, the last the
    /// topic, one name is both, none means the defaults again. `//` is a "/" inside a name, as in
    /// Moodle, and an `[info]…` description after the path is ignored.
    private mutating func readCategory(_ range: Range<Int>) {
        var path = String(decoding: UnsafeBufferPointer(rebasing: input[range]), as: UTF8.self)
        if let info = path.range(of: "[info]") { path = String(path[..<info.lowerBound]) }
        var names: [String] = []
        var current = ""
        var characters = path.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            if character == "\\", let next = pending, next != "n", next.isASCII,
               let byte = next.asciiValue, GIFTDocument.isEscapable(byte) {
                current.append(next)
                pending = characters.next()
            } else if character == "/" && pending == "/" {
                current.append("/")
                pending = characters.next()
            } else if character == "/" {
                names.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        names.append(current)
        names = names.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let context = names.first, context.count >= 2, context.hasPrefix("$"), context.hasSuffix("$") {
            names.removeFirst()  // $course$, $system$, $module$, …
            if names.count > 1 && names.first == "top" { names.removeFirst() }
        }
        subject = names.first ?? defaults.subject
        topic = names.last ?? defaults.topic
    }
}
