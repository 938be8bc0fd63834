import Foundation
import QuizTestSupport
import Testing

/// The tests' process runner: children see none of the test process's descriptors, with
/// thousands of them open (Foundation's `Process` crashed listing them).
@Suite struct ChildProcessTests {
    @Test func aChildHoldsOnlyItsStandardDescriptorsWhileThousandsAreOpen() throws {
        var pipes: [Int32] = []
        defer { for fd in pipes { close(fd) } }
        for _ in 0..<1_500 {
            var pair: [Int32] = [0, 0]
            try #require(pipe(&pair) == 0)
            pipes += pair
        }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // ls lists its own descriptors: 0, 1, 2 and the one it reads /proc/self/fd through.
        let listed = try ChildProcess.run("ls", ["/proc/self/fd"], directory: directory.path)
        #expect(listed.status == 0)
        #expect(listed.output.split(separator: "\n").count == 4, "\(listed.output)")
        let here = try ChildProcess.run("pwd", [], directory: directory.path)
        #expect(here.output.trimmingCharacters(in: .whitespacesAndNewlines)
            == directory.resolvingSymlinksInPath().path, "\(here.output)")
    }

    @Test func inputOutputAndExitStatusArePassedThrough() throws {
        let echoed = try ChildProcess.run("sh", ["-c", "cat; echo oops >&2; exit 3"], stdin: "hello\n")
        #expect(echoed.status == 3)
        #expect(echoed.output == "hello\noops\n")
        let killed = try ChildProcess.run("sh", ["-c", "kill -9 $$"])
        #expect(killed.status == 128 + 9)
    }
}
