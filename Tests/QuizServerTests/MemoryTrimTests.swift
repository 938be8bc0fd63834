import Logging
import Testing
@testable import QuizServer

/// What a crowd joining leaves behind: freed memory between blocks still in use, which the
/// process keeps until it is trimmed.
struct MemoryTrimTests {
    @Test(.enabled(if: MemoryTrim.trim != nil, "glibc only"))
    func memoryFreedBetweenLiveBlocksGoesBackToTheSystemOnceItGrewEnough() {
        let blocks = 32_768
        let size = 4_096  // under glibc's mmap threshold: from the arena, like a request's buffers
        var all: [UnsafeMutableRawPointer] = []
        all.reserveCapacity(blocks)
        for _ in 0..<blocks {
            let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            block.initializeMemory(as: UInt8.self, repeating: 1, count: size)
            all.append(block)
        }
        // Every 64th stays (a socket opened meanwhile): the 128 MB freed around them cannot be
        // given back from the arena's top.
        var kept: [UnsafeMutableRawPointer] = []
        for (index, block) in all.enumerated() {
            if index % 64 == 63 { kept.append(block) } else { block.deallocate() }
        }
        defer { for block in kept { block.deallocate() } }
        let trim = MemoryTrim(growth: 64 << 20, logger: Logger(label: "test"))
        let freed = MemoryTrim.residentBytes()
        // Not grown past `growth` since it settled: nothing is trimmed.
        #expect(!trim.step(MemoryTrim.Level(settled: freed)).again)
        #expect(MemoryTrim.residentBytes() > freed - (32 << 20))
        // Grown: trimmed, and since that gave back much, trimmed again next time.
        let trimmed = trim.step(MemoryTrim.Level(settled: freed - (100 << 20)))
        #expect(freed - trimmed.settled > 64 << 20, "resident \(freed >> 20) MB before the trim, \(trimmed.settled >> 20) MB after")
        #expect(trimmed.again)
        // Nothing more to give back: settled where it is.
        #expect(!trim.step(trimmed).again)
    }
}
