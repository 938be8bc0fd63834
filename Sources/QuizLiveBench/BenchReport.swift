import Foundation

/// What a run prints: readable lines, then one `RESULT` line of key=value for scripts.
struct BenchReport {
    var players: Int
    var games: Int
    var joined: Int
    var joinSeconds: Double
    var samples: BenchRecorder.Samples
    var revealDelays: [Int64]
    var stored: StoredCheck
    var cpuJoin: Double
    var cpuGame: Double
    var rssBefore: Int
    var rssJoined: Int
    /// At the last question's reveal, everyone still connected (after the joins' garbage is gone).
    var rssPlaying: Int
    var peak: Int
    var hasServer: Bool
    var rosters: Int

    func print() {
        let broadcast = Spread(nanoseconds: samples.broadcast)
        let ack = Spread(nanoseconds: samples.ack)
        let result = Spread(milliseconds: samples.result.map(Double.init))
        let board = Spread(nanoseconds: samples.leaderboard)
        let join = Spread(nanoseconds: samples.join)
        let reveal = Spread(milliseconds: revealDelays.map(Double.init))
        let perPlayer = joined > 0 ? Double(rssJoined - rssBefore) / Double(joined) : .nan
        let perPlayerPlaying = joined > 0 ? Double(rssPlaying - rssBefore) / Double(joined) : .nan
        Swift.print("joins: \(join); failures: \(samples.joinFailures.isEmpty ? "none" : "\(samples.joinFailures)"); rosters to hosts: \(rosters)")
        Swift.print("question broadcast (host's next → player's question): \(broadcast)")
        Swift.print("answer ack: \(ack); answers sent \(samples.sent), acked \(samples.acked), refused \(samples.refusals)")
        Swift.print("deadline → host's reveal: \(reveal)")
        Swift.print("deadline → player's result (score and rank): \(result)")
        if samples.resultByKind.count > 1 {
            for (kind, values) in samples.resultByKind.sorted(by: { $0.key < $1.key }) {
                Swift.print("  \(kind): \(Spread(milliseconds: values.map(Double.init)))")
            }
        }
        Swift.print("host's next → player's leaderboard: \(board)")
        Swift.print("dropped sockets: \(samples.dropped); messages read after the next command (client behind, not timed): \(samples.overtaken); correct answers leaked in questions: \(samples.leaks); results disagreeing with acks: \(samples.resultMismatches)")
        Swift.print("stored: \(stored.stored) answers; acked but missing \(stored.missing), stored but never acked \(stored.unacknowledged), "
            + "twice \(stored.duplicates), final scores differing \(stored.scoreMismatches)")
        if hasServer {
            Swift.print(String(format: "server: CPU %.1f s joining + %.1f s playing (%.2f s per 1,000 players); RSS %d MB before joins, %d MB joined (%.1f KB a player), %d MB at the last question (%.1f KB a player), peak %d MB (%.1f MB per 1,000 players)",
                               cpuJoin, cpuGame, (cpuJoin + cpuGame) / Double(max(1, players)) * 1_000, rssBefore / 1024, rssJoined / 1024, perPlayer,
                               rssPlaying / 1024, perPlayerPlaying, peak / 1024, Double(peak) / 1024 / Double(max(1, players)) * 1_000))
        }
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        let ownCPU = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        Swift.print(String(format: "load generator: CPU %.1f s, peak RSS %d MB (it shares the machine's two cores with the server)",
                           ownCPU, usage.ru_maxrss / 1024))
        let fields: [(String, String)] = [
            ("players", "\(players)"), ("games", "\(games)"), ("joined", "\(joined)"), ("join_s", fmt(joinSeconds)),
            ("dropped", "\(samples.dropped)"), ("broadcast_p50_ms", fmt(broadcast.p50)), ("broadcast_p99_ms", fmt(broadcast.p99)),
            ("ack_p50_ms", fmt(ack.p50)), ("ack_p99_ms", fmt(ack.p99)), ("result_p99_ms", fmt(result.p99)),
            ("reveal_p99_ms", fmt(reveal.p99)), ("leaderboard_p99_ms", fmt(board.p99)), ("acked", "\(samples.acked)"),
            ("stored", "\(stored.stored)"), ("missing", "\(stored.missing)"), ("unacked_stored", "\(stored.unacknowledged)"),
            ("score_mismatches", "\(stored.scoreMismatches)"), ("leaks", "\(samples.leaks)"),
            ("cpu_join_s", fmt(cpuJoin)), ("cpu_game_s", fmt(cpuGame)), ("rss_before_mb", "\(rssBefore / 1024)"),
            ("rss_joined_mb", "\(rssJoined / 1024)"), ("peak_mb", "\(peak / 1024)"), ("kb_per_player", fmt(perPlayer)),
            ("rss_playing_mb", "\(rssPlaying / 1024)"), ("kb_per_player_playing", fmt(perPlayerPlaying)),
            ("client_cpu_s", fmt(ownCPU)),
        ]
        Swift.print("RESULT " + fields.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
    }

    private func fmt(_ value: Double) -> String { value.isNaN ? "-" : String(format: "%.1f", value) }
}

/// Raises this process's open-file limit to what the sockets need, and says when it cannot.
func raiseFileLimit(needed: Int) {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    let before = limit.rlim_cur
    if limit.rlim_cur < rlim_t(needed) {
        limit.rlim_cur = min(limit.rlim_max, rlim_t(needed))
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 { print("open files: could not raise the limit from \(before)") }
    }
    print("open files: limit \(limit.rlim_cur) (was \(before), hard \(limit.rlim_max)), \(needed) needed")
    if limit.rlim_cur < rlim_t(needed) {
        print("LIMIT: \(needed) open files needed but the hard limit is \(limit.rlim_max): raise it (ulimit -Hn, as root) or run fewer players")
    }
}

/// Ephemeral ports are per source address: says how many each address will use.
func reportPorts(total: Int, addresses: Int) {
    let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
        .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) } ?? []
    let ports = range.count == 2 ? range[1] - range[0] + 1 : 28_232
    let perAddress = (total + addresses - 1) / addresses
    print("source addresses: \(addresses) (127.0.x.y), \(perAddress) sockets each of \(ports) ephemeral ports")
    if perAddress > ports { print("LIMIT: \(perAddress) sockets from one address exceed its \(ports) ephemeral ports") }
}
