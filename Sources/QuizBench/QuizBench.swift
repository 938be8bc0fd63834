import Foundation
import QuizCore
import QuizFormats
import QuizStore

/// In-process timings for scripts/bench: parsers against splitting the same bytes into lines,
/// a 100,000-question import into SQLite, and peak memory reading a large file.
@main
enum QuizBench {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "leaderboard" {
            try await LeaderboardBench.run(postgresURL: arguments.dropFirst().first)
            return
        }
        if arguments.first == "feed" {
            let rest = Array(arguments.dropFirst())
            try await FeedBench.run(location: rest.first, username: rest.dropFirst().first)
            return
        }
        if arguments.first == "play" {
            try PlayBench.run()
            return
        }
        if arguments.first == "xlsx" {
            try SpreadsheetBench.run(rows: Int(arguments.dropFirst().first ?? "10000") ?? 10_000)
            return
        }
        if arguments.first == "gradebook" {
            let rest = arguments.dropFirst().compactMap { Int($0) }
            let keep = arguments.firstIndex(of: "--keep").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
            try await GradebookBench.run(students: rest.first ?? 500, assignments: rest.dropFirst().first ?? 50, keep: keep)
            return
        }
        if arguments.first == "memory" {
            try await memory(megabytes: Int(arguments.dropFirst().first ?? "100") ?? 100)
            return
        }
        let count = 100_000
        let csv = Data(generateCSV(count: count).utf8)
        let gift = Data(generateGIFT(count: count).utf8)
        print("| benchmark | questions/s | MB/s | time | ratio to line split |")
        print("|---|---:|---:|---:|---:|")
        for (name, data, read) in [
            ("CSV", csv, { (d: Data) throws -> Int in try CSVReader().read(d).questionCount }),
            ("GIFT", gift, { (d: Data) throws -> Int in try GIFTReader().read(d).bank.questionCount }),
        ] as [(String, Data, (Data) throws -> Int)] {
            let split = best { _ = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).count }
            var parsed = 0
            let parse = try bestThrowing { parsed = try read(data) }
            precondition(parsed == count, "\(name) read \(parsed) of \(count) questions")
            let mb = Double(data.count) / 1_048_576
            print("| \(name) parse, \(count) questions (\(String(format: "%.1f", mb)) MB) | \(Int(Double(count) / parse)) | "
                  + "\(String(format: "%.0f", mb / parse)) | \(ms(parse)) | \(String(format: "%.1f×", parse / split)) (split: \(ms(split))) |")
        }
        let bank = try CSVReader().read(csv)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quizbench-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try await QuizDatabase.sqlite(path: path, poolSize: 1)
        try await Migrations.run(on: database)
        let start = ContinuousClock.now
        let summary = try await CachedStore(SQLStore(database: database)).importBank(bank, at: Date())
        let elapsed = ContinuousClock.now - start
        try await database.close()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("| import \(summary.questions) questions into SQLite (target < 5 s) | \(Int(Double(summary.questions) / seconds)) | | \(ms(seconds)) | |")
    }

    /// Imports a generated CSV file of about `megabytes` MB into SQLite as `quizbox import` does
    /// (mapped, read and stored a batch at a time in one transaction) and reports the peak resident memory.
    static func memory(megabytes: Int) async throws {
        let rows = megabytes * 1_048_576 / 100
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quizbench-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        let chunk = 10_000
        for start in stride(from: 0, to: rows, by: chunk) {
            handle.write(Data(generateCSV(count: min(chunk, rows - start), from: start, header: start == 0).utf8))
        }
        try handle.close()
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        let path = url.path + ".sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try await QuizDatabase.sqlite(path: path, poolSize: 1)
        try await Migrations.run(on: database)
        var reader = CSVBatchReader(data: try Data(contentsOf: url, options: .alwaysMapped), options: .init(maxBytes: Int.max))
        let start = ContinuousClock.now
        let summary = try await CachedStore(SQLStore(database: database)).importBatches(quizTitle: "Bench", at: Date()) {
            try reader.next(limit: 5_000)
        }
        let elapsed = ContinuousClock.now - start
        try await database.close()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("| import a \(size / 1_048_576) MB CSV (\(summary.questions) questions) into SQLite: peak memory (target < 300 MB) "
              + "| \(Int(Double(summary.questions) / seconds)) | | \(usage.ru_maxrss / 1024) MB in \(ms(seconds)) | |")
    }

    static func generateCSV(count: Int, from start: Int = 0, header: Bool = true) -> String {
        var text = header ? "question,option1,option2,option3,option4,answer,subject,topic,difficulty\n" : ""
        text.reserveCapacity(count * 110)
        for i in start..<(start + count) {
            text += "\"What is \(i) plus \(i % 7), written out?\",\(i + i % 7),\(i + 1 + i % 7),\(i + 2 + i % 7),\(i + 3 + i % 7),\(i + i % 7),"
                + "Mathematics,Topic \(i % 20),\(["easy", "medium", "hard"][i % 3])\n"
        }
        return text
    }

    static func generateGIFT(count: Int) -> String {
        var text = ""
        text.reserveCapacity(count * 110)
        for i in 0..<count {
            if i % 5_000 == 0 { text += "$CATEGORY: $course$/Mathematics/Topic \(i / 5_000)\n\n" }
            text += "::Q\(i):: What is \(i) plus \(i % 7)? {=\(i + i % 7) ~\(i + 1 + i % 7) ~\(i + 2 + i % 7) ~\(i + 3 + i % 7)}\n\n"
        }
        return text
    }

    /// The fastest of five runs: the least disturbed by the rest of a shared machine.
    static func best(_ body: () -> Void) -> Double {
        (0..<5).map { _ in
            let start = ContinuousClock.now
            body()
            let d = ContinuousClock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }.min()!
    }

    static func bestThrowing(_ body: () throws -> Void) throws -> Double {
        var error: (any Error)?
        let time = best { do { try body() } catch let e { error = e } }
        if let error { throw error }
        return time
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.0f ms", seconds * 1000) }
}
