import Foundation
import Synchronization

/// The settings to put back when the program is interrupted, read by the SIGINT handler (which
/// cannot capture anything). Written only before raw mode starts and after it ends.
nonisolated(unsafe) private var terminalToRestore: termios?

/// Ctrl-C (or a hang-up, or kill) while keys are raw: put the terminal back, then end as the signal would.
private func restoreTerminalAndExit(_ signal: Int32) {
    if var saved = terminalToRestore { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    _ = write(STDOUT_FILENO, "\n", 1)
    _exit(128 + signal)
}

/// The player's terminal: single keys in raw mode when standard input and output are a terminal,
/// whole lines otherwise (so `quizbox play` can be scripted through a pipe).
final class Terminal {
    enum Key: Equatable {
        case up, down, enter, space, backspace, escape, endOfInput
        case character(Character)
        /// The wait was ended by `interruption`, not by the player.
        case interrupted
    }

    /// Keys and cursor movement, or numbered lines read one at a time.
    let interactive: Bool
    private var raw = false
    /// While set, a signal on it ends a wait for a key or a line (a live question closed meanwhile).
    var interruption: Interruption?
    private var interrupted = false

    init() {
        interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func line(_ text: String = "") { write(text + "\n") }

    /// Columns available, for cutting long lines so a redrawn menu keeps its height.
    var width: Int {
        var size = winsize()
        guard interactive, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Keys arrive one by one, unechoed. Ctrl-C still raises SIGINT, whose handler puts the
    /// terminal back before the process ends.
    func enterRawMode() {
        guard interactive, !raw else { return }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        terminalToRestore = saved
        for name in [SIGINT, SIGTERM, SIGHUP] { signal(name, restoreTerminalAndExit) }
        var settings = saved
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        raw = true
    }

    /// Back to the settings found at start; safe to call more than once.
    func restore() {
        guard raw, var saved = terminalToRestore else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        raw = false
    }

    /// One key in raw mode. Arrow keys come as `ESC [ A` (or `ESC O A` in application mode).
    func readKey() -> Key {
        interrupted = false
        guard let byte = readByte() else { return interrupted ? .interrupted : .endOfInput }
        switch byte {
        case 0x0D, 0x0A: return .enter
        case 0x20: return .space
        case 0x7F, 0x08: return .backspace
        case 0x04: return .endOfInput
        case 0x1B:
            // A lone Escape has nothing right behind it; a sequence's bytes come together.
            guard waitForInput(milliseconds: 50), let next = readByte(), next == UInt8(ascii: "[") || next == UInt8(ascii: "O"),
                  let final = readByte() else { return .escape }
            switch final {
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            default: return .escape
            }
        default:
            guard byte < 0x80 else { return readKey() }
            return .character(Character(UnicodeScalar(byte)))
        }
    }

    /// A line typed by the player: echoed (or not, for passwords) and editable as usual.
    /// nil at the end of input.
    func readLine(hidden: Bool = false) -> String? {
        guard interactive else { return Swift.readLine(strippingNewline: true) }
        var current = termios()
        tcgetattr(STDIN_FILENO, &current)
        var cooked = current
        cooked.c_lflag |= tcflag_t(ICANON)
        if hidden { cooked.c_lflag &= ~tcflag_t(ECHO) } else { cooked.c_lflag |= tcflag_t(ECHO) }
        tcsetattr(STDIN_FILENO, TCSANOW, &cooked)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &current)
            if hidden { line() }
        }
        // Byte by byte: a buffered reader could swallow keys typed ahead for the next screen.
        var bytes: [UInt8] = []
        interrupted = false
        while let byte = readByte() {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        if interrupted {
            // Half a line typed when the question closed: dropped, not left for the next prompt.
            tcflush(STDIN_FILENO, TCIFLUSH)
            line()
            return nil
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Waits for any key (a line when not interactive).
    func pause(_ prompt: String) {
        write(prompt)
        if interactive {
            _ = readKey()
            line()
        } else {
            _ = readLine()
        }
    }

    private func readByte() -> UInt8? {
        if let interruption {
            var waits = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: interruption.readEnd, events: Int16(POLLIN), revents: 0)]
            while poll(&waits, 2, -1) < 0 && errno == EINTR {}
            if waits[0].revents == 0 && waits[1].revents != 0 {
                interrupted = true
                return nil
            }
        }
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }

    private func waitForInput(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }
}

/// Ends a wait for a key from another task: a byte down a pipe, polled beside standard input.
/// Also remembers the last live question that closed, so a question already over is not asked.
final class Interruption: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let closedQuestion = Atomic<Int>(-1)

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 { _ = fcntl(ends[0], F_SETFL, O_NONBLOCK) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Question `index` is over (`Int.max`: the whole game): stop waiting for its answer.
    func closeQuestion(_ index: Int) {
        closedQuestion.store(index, ordering: .sequentiallyConsistent)
        _ = write(writeEnd, "!", 1)
    }

    func isClosed(_ index: Int) -> Bool { closedQuestion.load(ordering: .sequentiallyConsistent) >= index }

    /// Forgets signals meant for a question before this one.
    func clear() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
