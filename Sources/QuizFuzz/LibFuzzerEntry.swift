#if QUIZFUZZ_LIBFUZZER
import Foundation

/// libFuzzer's entry point, for a coverage-guided run of the same readers and invariants: built
/// by `scripts/fuzz --libfuzzer` with `-sanitize=fuzzer -DQUIZFUZZ_LIBFUZZER`, which leaves out
/// `QuizFuzz.main` so that libFuzzer's own `main` drives the process (see FUZZING.md).
///
/// `QUIZFUZZ_READER` names the reader; without it the input's first byte picks one, so a single
/// run covers them all. A broken promise traps, which libFuzzer reports as a crash and saves.
@_cdecl("LLVMFuzzerTestOneInput")
public func quizFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let target: FuzzTarget
    if let chosen = LibFuzzer.chosen {
        target = chosen
    } else {
        guard let first = input.first else { return 0 }
        target = FuzzTarget.all[Int(first) % FuzzTarget.all.count]
        input.removeFirst()
    }
    let variant = input.fingerprint
    let verdict = target.run(input, variant)
    if !verdict.violations.isEmpty {
        fatalError("\(target.name), variant \(variant): \(verdict.violations.joined(separator: "; "))")
    }
    return 0
}

private enum LibFuzzer {
    static let chosen: FuzzTarget? = {
        guard let name = ProcessInfo.processInfo.environment["QUIZFUZZ_READER"] else { return nil }
        guard let target = FuzzTarget.named(name) else { fatalError("QUIZFUZZ_READER=\(name) is not a reader") }
        return target
    }()
}
#endif
