"""`quizbox play`, the terminal player, driven through a pseudo terminal as a person would use it:
arrow keys and number keys in raw mode, a hidden password, feedback after each answer, the score
and the leaderboard, and the terminal put back as it was on leaving and on Ctrl-C. Also the same
session scripted through a pipe, and a server that is not there.

Waits only for output (with a timeout), never for time to pass."""

import fcntl
import json
import os
import pty
import re
import select
import signal
import subprocess
import termios
import time

import pytest
import websocket
from conftest import BINARY, Server, print_log_on_failure

PASSWORD = "hunter2-in-the-dark"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

# One question of each kind a quiz holds, in a subject of its own (added after the starter bank).
BANK = """$CATEGORY: Terminal Test/Keyboard

::largest:: Which planet is largest? {=Jupiter ~Mars ~Venus ####Jupiter is more massive than all the others together.}

::giants:: Which are gas giants? {~%50%Jupiter ~%50%Saturn ~%-100%Venus}

::sun:: The Sun is a planet. {F}

::capital:: Capital of France? {=Paris}

::count:: How many planets orbit the Sun? {#8}
"""


class Player:
    """`quizbox play` on the slave side of a pty; `expect` reads the master side."""

    def __init__(self, server_url, tmp_path, *arguments):
        self.master, self.slave = pty.openpty()
        termios.tcsetwinsize(self.slave, (40, 120))
        self.before = termios.tcgetattr(self.slave)

        def controlling_terminal():
            # As a login shell would: its own session, with the pty as its terminal, so Ctrl-C is SIGINT.
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen([str(BINARY), "play", "--server", server_url, *arguments], cwd=tmp_path,
                                        stdin=self.slave, stdout=self.slave, stderr=self.slave,
                                        preexec_fn=controlling_terminal, env={**os.environ, "TERM": "xterm"})
        self.seen = ""   # everything, escapes removed
        self.unread = ""

    def expect(self, pattern, timeout=30):
        """Reads until `pattern` appears in what was not matched yet; returns the match."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.unread)
            if found:
                self.unread = self.unread[found.end():]
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"waited {timeout} s for {pattern!r}; the screen so far:\n{self.seen[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536).decode(errors="replace")
                except OSError:  # the process ended and closed the pty
                    chunk = ""
                if not chunk and self.process.poll() is not None:
                    raise AssertionError(f"quizbox play ended waiting for {pattern!r}:\n{self.seen[-3000:]}")
                text = ANSI.sub("", chunk).replace("\r", "")
                self.seen += text
                self.unread += text

    def send(self, keys):
        os.write(self.master, keys.encode())

    def finish(self, timeout=30):
        status = self.process.wait(timeout=timeout)
        # Drain what is left, so `seen` holds the whole session.
        while select.select([self.master], [], [], 0)[0]:
            try:
                chunk = os.read(self.master, 65536).decode(errors="replace")
            except OSError:
                break
            if not chunk:
                break
            self.seen += ANSI.sub("", chunk).replace("\r", "")
        return status

    def terminal_settings(self):
        return termios.tcgetattr(self.slave)

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)


UP, DOWN, ENTER = "\x1b[A", "\x1b[B", "\r"


@pytest.fixture
def server(tmp_path):
    # First start loads the starter bank; the test's own quiz is imported next to it.
    running = Server(tmp_path)
    running.stop()
    (tmp_path / "keyboard.gift").write_text(BANK)
    imported = subprocess.run([str(BINARY), "import", str(tmp_path / "keyboard.gift"), "--quiz-title", "Keys",
                               "--database", str(running.database)], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    running.start()
    yield running
    running.stop()
    print_log_on_failure(running)


def menu(player, question):
    """The first drawing of the menu under `question`, as {choice text: its number}; choices may be shuffled."""
    drawn = player.expect("(?s)" + re.escape(question) + r"(.*?)(?:type a number|Enter to answer)").group(1)
    return {text: number for number, text in re.findall(r"(\d+)\. (?:\[[ x]\] )?(.+)", drawn)}


def test_a_player_signs_in_picks_a_quiz_with_arrows_and_numbers_and_sees_feedback_and_the_leaderboard(server, tmp_path):
    server.user("tess", PASSWORD)
    player = Player(server.url, tmp_path)
    try:
        player.expect(r"1\. Sign in")
        player.send("1")  # a number chooses at once
        player.expect("Username: ")
        player.send("tess\n")
        player.expect("Password: ")
        player.send(PASSWORD + "\n")
        player.expect("Signed in as tess")
        player.expect(r"What next\?")
        player.send(ENTER)  # the first item, "Play a quiz", is highlighted
        subjects = menu(player, "Subjects")
        assert len(subjects) >= 6  # the starter bank's and the test's own
        # Up from the first item wraps around to the last; the test's subject is added last.
        player.send(UP * ((1 - int(subjects["Terminal Test"])) % len(subjects)) + ENTER)
        player.expect(r"1\. Keyboard")
        player.send(DOWN + UP + ENTER)
        player.expect(r"1\. Keys \(5 questions\)")
        player.send("1")

        # Single choice, by its number.
        player.send(menu(player, "Which planet is largest?")["Jupiter"])
        player.expect("Right! \\+1 point")
        player.expect("Jupiter is more massive than all the others together.")
        player.expect("Press any key")
        player.send(" ")

        # Multiple choice: tick two with numbers, Enter sends.
        giants = menu(player, "Which are gas giants?")
        player.send(giants["Jupiter"] + giants["Saturn"] + ENTER)
        player.expect("Right!")
        player.expect("Press any key")
        player.send(" ")

        # True/false, answered wrong on purpose with the arrow keys: "True" is below nothing, "False" second.
        player.expect("The Sun is a planet.")
        player.expect(r"2\. False")
        player.send(ENTER)  # True is highlighted
        player.expect("Wrong. The answer: False")
        player.expect("Press any key")
        player.send(" ")

        # Typed answer and number: a line each, echoed.
        player.expect("Capital of France?")
        player.expect("Your answer: ")
        player.send("paris\n")
        player.expect("Right!")
        player.expect("Press any key")
        player.send(" ")
        player.expect("How many planets orbit the Sun?")
        player.expect("Your answer: ")
        player.send("8\n")
        player.expect("Right!")

        player.expect(r"You got 4 of 5 right")
        player.expect("Leaderboard")
        player.expect(r"#1\s+tess")
        player.expect(r"You: #1 with \d+ points")
        player.expect("Press any key")
        player.send(" ")
        player.expect(r"What next\?")
        player.send("q")
        player.expect("Bye!")
        assert player.finish() == 0
        assert PASSWORD not in player.seen, "the password was echoed"
        # Raw mode is gone: echo and line editing are back as they were.
        after = player.terminal_settings()
        assert after[3] & (termios.ECHO | termios.ICANON) == player.before[3] & (termios.ECHO | termios.ICANON)
    finally:
        player.close()


# The kinds with parts, in a bundle (GIFT cannot hold an estimate or a gap fill's typed credit).
KINDS_BUNDLE = {"format": "quizbox-bundle", "version": 1, "subjects": [{"name": "Terminal Kinds", "topics": [{"name": "Parts", "quizzes": [
    {"title": "Parts", "questions": [
        {"kind": "slide", "text": "Round two: the planets", "points": 0},
        {"kind": "ordering", "text": "Nearest the Sun first", "order": ["Mercury", "Venus", "Earth"]},
        {"kind": "matching", "text": "Match the capitals", "points": 2,
         "pairs": [{"prompt": "Finland", "answer": "Helsinki"}, {"prompt": "Sweden", "answer": "Stockholm"}]},
        {"kind": "gapFill", "text": "Fill the gaps", "points": 4, "passage": "The [[1]] flows through [[2]].", "gaps": [
            {"kind": "choice", "answers": [{"text": "Seine"}, {"text": "Rhine", "fraction": 0}]},
            {"kind": "typed", "answers": [{"text": "Paris"}, {"text": "Lutetia", "fraction": 0.5}]}]},
        {"kind": "estimate", "text": "Year of the Moon landing?", "minimum": 1900, "maximum": 2000, "step": 1, "value": 1969, "margin": 10},
        {"kind": "typedAnswer", "text": "Capital of France, any name?", "points": 2, "answers": ["Paris"],
         "partial": [{"text": "Lutetia", "fraction": 0.5}]},
    ]}]}]}]}


@pytest.fixture
def kinds_server(tmp_path):
    running = Server(tmp_path)
    running.stop()
    (tmp_path / "kinds.json").write_text(json.dumps(KINDS_BUNDLE))
    imported = subprocess.run([str(BINARY), "import", str(tmp_path / "kinds.json"), "--database", str(running.database)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    running.start()
    yield running
    running.stop()
    print_log_on_failure(running)


def test_the_kinds_with_parts_are_played_at_the_terminal_with_their_credit(kinds_server, tmp_path):
    kinds_server.user("kim", PASSWORD)
    player = Player(kinds_server.url, tmp_path)
    try:
        player.expect(r"1\. Sign in")
        player.send("1")
        player.expect("Username: ")
        player.send("kim\n")
        player.expect("Password: ")
        player.send(PASSWORD + "\n")
        player.expect(r"What next\?")
        player.send(ENTER)
        subjects = menu(player, "Subjects")
        player.send(UP * ((1 - int(subjects["Terminal Kinds"])) % len(subjects)) + ENTER)
        player.expect(r"1\. Parts")
        player.send(ENTER)
        player.expect(r"1\. Parts \(6 questions\)")
        player.send("1")

        # A slide is read and passed with Enter: no answer, no verdict.
        player.expect("Round two: the planets")
        player.expect("Press Enter to go on.")
        player.send("\n")

        # Ordering: the items in a shuffled order; their numbers typed in the right one.
        drawn = player.expect(r"(?s)Nearest the Sun first(.*?)Their numbers in the right order").group(1)
        listed = {text.strip(): number for number, text in re.findall(r"(\d+)\. (.+)", drawn)}
        assert set(listed) == {"Mercury", "Venus", "Earth"}
        player.send(" ".join(listed[planet] for planet in ["Mercury", "Venus", "Earth"]) + "\n")
        player.expect("Right!")
        player.expect("Press any key")
        player.send(" ")

        # Matching: a menu per prompt; one of two right is half the points.
        player.send(menu(player, "Finland")["Helsinki"])
        player.send(menu(player, "Sweden")["Helsinki"])
        player.expect(r"Partly right: \+1 point")
        player.expect("Press any key")
        player.send(" ")

        # Gap fill: the text with its gaps numbered, a menu for the choice, a line for the typed one.
        player.expect(r"The \[1\] flows through \[2\]\.")
        player.send(menu(player, "[1]")["Seine"])
        player.expect(r"\[2\] ")
        player.send("Lutetia\n")
        player.expect(r"Partly right: \+3 points")  # (1 + 0.5) of 2 gaps, of 4 points
        player.expect("Press any key")
        player.send(" ")

        # Estimate: a number in the range; outside it is asked again.
        player.expect(r"Your estimate \(1900–2000\): ")
        player.send("2100\n")
        player.expect(r"A number from 1900–2000, please\.")
        player.send("1969\n")
        player.expect("Right!")
        player.expect("Press any key")
        player.send(" ")

        # A typed answer worth half the points.
        player.expect("Capital of France, any name?")
        player.expect("Your answer: ")
        player.send("lutetia\n")
        player.expect(r"Partly right: \+1 point\. The answer: Paris")

        player.expect(r"You got 2 of 5 right")
        player.expect("Press any key")
        player.send(" ")
        player.expect(r"What next\?")
        player.send("q")
        player.expect("Bye!")
        assert player.finish() == 0
    finally:
        player.close()


def test_ctrl_c_puts_the_terminal_back(server, tmp_path):
    player = Player(server.url, tmp_path)
    try:
        player.expect(r"1\. Sign in")
        raw = player.terminal_settings()
        assert not raw[3] & termios.ICANON, "the menu should read single keys"
        player.send("\x03")
        assert player.finish() == 130
        assert player.terminal_settings()[3] & (termios.ECHO | termios.ICANON) == termios.ECHO | termios.ICANON
    finally:
        player.close()


def test_a_scripted_session_through_a_pipe(server, tmp_path):
    server.user("piper", PASSWORD)
    script = "\n".join(["1", "piper", PASSWORD, "5", "q"]) + "\n"
    done = subprocess.run([str(BINARY), "play", "--server", server.url], input=script, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Signed in as piper" in done.stdout
    assert re.search(r"#1\s+piper", done.stdout)
    assert "\x1b[" not in done.stdout, "no terminal escapes when nobody watches"
    assert PASSWORD not in done.stdout + done.stderr


def test_wrong_password_is_said_and_asked_again(server, tmp_path):
    server.user("wanda", PASSWORD)
    script = "\n".join(["1", "wanda", "not it", "1", "wanda", PASSWORD, "q"]) + "\n"
    done = subprocess.run([str(BINARY), "play", "--server", server.url], input=script, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Wrong username or password." in done.stdout
    assert "Signed in as wanda" in done.stdout


def test_a_server_that_is_down_is_a_clear_message(tmp_path):
    with __import__("socket").socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run([str(BINARY), "play", "--server", f"http://127.0.0.1:{port}"], input="", capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)
    assert done.returncode != 0
    assert f"cannot reach a Quizbox server at http://127.0.0.1:{port}" in done.stderr
    assert "Fatal error" not in done.stderr


def test_a_live_game_is_played_from_the_terminal(server, tmp_path):
    token = server.user("hostess", PASSWORD)
    subjects = server.api("GET", "/subjects")[1]["subjects"]
    topic = server.api("GET", f"/subjects/{subjects[-1]['id']}/topics")[1]["topics"][0]
    quiz = server.api("GET", f"/topics/{topic['id']}/quizzes")[1]["quizzes"][0]
    status, game = server.api("POST", "/live-games", {"quizId": quiz["id"], "secondsPerQuestion": 120}, token=token)
    assert status == 201, game
    host = websocket.create_connection(f"ws://{server.host}:{server.port}/live/socket", timeout=30,
                                       header=[f"Cookie: quizbox_session={token}"])

    def host_receives(wanted):
        while True:
            message = json.loads(host.recv())
            if message["type"] == wanted:
                return message

    player = Player(server.url, tmp_path, "--live", game["pin"])
    try:
        host.send(json.dumps({"v": 1, "type": "host", "game": game["id"]}))
        host_receives("hosting")
        player.expect("Your nickname: ")
        player.send("Keyboard Kid\n")
        player.expect("joined as Keyboard Kid")
        while not any(p["nickname"] == "Keyboard Kid" for p in host_receives("players")["players"]):
            pass
        host.send(json.dumps({"v": 1, "type": "start"}))
        player.expect(r"Question 1 of 5 · 120 s")
        player.send(menu(player, "Which planet is largest?")["Jupiter"])
        player.expect("Answer in")
        # The only player answered: the question closes at once.
        assert host_receives("reveal")["correct"] == "Jupiter"
        player.expect("The answer: Jupiter")
        player.expect(r"Right! \+\d+")
        player.expect(r"Score \d+ · #1")
        # On to the leaderboard, then the next question, which the player leaves unanswered until the
        # host closes it: the menu gives way to the reveal without a key being pressed.
        host.send(json.dumps({"v": 1, "type": "next"}))
        player.expect("Leaderboard")
        host.send(json.dumps({"v": 1, "type": "next"}))
        player.expect(r"Question 2 of 5")
        menu(player, "Which are gas giants?")
        host.send(json.dumps({"v": 1, "type": "close"}))
        player.expect("The answer: ")
        player.expect("No answer in time.")
        host.send(json.dumps({"v": 1, "type": "end"}))
        player.expect("Game over.")
        player.expect(r"You: #1 with \d+ points, 1 right.")
        assert player.finish() == 0
    finally:
        host.close()
        player.close()


def test_a_practice_round_with_every_question_fetched_as_it_is_shown(server, tmp_path):
    server.user("prue", PASSWORD)
    player = Player(server.url, tmp_path)
    try:
        player.expect(r"1\. Sign in")
        player.send("1")
        player.expect("Username: ")
        player.send("prue\n")
        player.expect("Password: ")
        player.send(PASSWORD + "\n")
        player.expect(r"2\. Practice")
        player.send("2")
        count = int(player.expect(r"Practice: (\d+) questions").group(1))
        for number in range(1, count + 1):
            player.expect(f"Question {number} of {count}")
            # "1" answers every kind: the first choice, True, or a typed "1".
            prompt = player.expect(r"Your answer|Enter to answer|type a number").group(0)
            player.send("1\n" if prompt == "Your answer" else "1" + (ENTER if prompt == "Enter to answer" else ""))
            player.expect(r"Right!|Wrong\. The answer: ")
            if number < count:
                player.expect("Press any key")
                player.send(" ")
        player.expect(rf"You got \d+ of {count} right")
        player.expect("Leaderboard")
    finally:
        player.close()


def test_a_name_them_all_game_through_a_pipe(server, tmp_path):
    names = tmp_path / "names.json"
    names.write_text('{"question": "Name the primary colours of light.", "answer": ["Red", "Green", "Blue"]}')
    server.stop()
    imported = subprocess.run([str(BINARY), "import", str(names), "--format", "remote", "--subject", "Terminal Test",
                               "--topic", "Lists", "--database", str(server.database)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    server.start()
    server.user("gina", PASSWORD)
    games = server.api("GET", "/games")[1]["questions"]
    number = next(i for i, game in enumerate(games, 1) if game["text"] == "Name the primary colours of light.")
    script = "\n".join(["1", "gina", PASSWORD, "4", str(number), "green", "purple", "green", "", "q"]) + "\n"
    done = subprocess.run([str(BINARY), "play", "--server", server.url], input=script, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "✓ Green  (1/3)" in done.stdout
    assert "✗ Not on the list." in done.stdout
    assert "Already found." in done.stdout
    assert "Found 1 of 3" in done.stdout
    assert re.search(r"Missed: (Red, Blue|Blue, Red)", done.stdout)


def test_an_account_is_created_from_the_terminal(server, tmp_path):
    script = "\n".join(["2", "newbie", "New", "Bie", PASSWORD, "not the same", "2", "newbie", "New", "Bie", PASSWORD, PASSWORD,
                        "q"]) + "\n"
    done = subprocess.run([str(BINARY), "play", "--server", server.url], input=script, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "The two passwords differ." in done.stdout
    assert "Signed in as newbie" in done.stdout
    assert server.api("POST", "/sessions", {"username": "newbie", "password": PASSWORD})[0] == 200
