"""Robustness checks for Quizbox (issue 14, "Keep them closed"), against the real `quizbox serve`.

Each module starts the already-built binary (.build/debug/quizbox, or $QUIZBOX_BINARY) on a
throwaway SQLite file, on 127.0.0.1 only, and checks:

- test_schemathesis.py: Schemathesis generates requests for every operation of openapi.yaml,
  signed in as an admin, with a fixed seed; any 5xx, undocumented status code or content type,
  or body that does not match the schema fails. Its report is printed on failure.
- test_durability.py: answers acknowledged with a 2xx while several threads play survive a
  `kill -9` of the server (checked through the API after a restart on the same file), and the
  SQLite file passes `PRAGMA integrity_check`.
- test_sockets.py: a connection that sends nothing, half a header or part of its body, or stays
  idle after a response, is closed by the server within its timeouts
  (QUIZBOX_IDLE_TIMEOUT_SECONDS, QUIZBOX_READ_TIMEOUT_SECONDS, set to 2 s here); 300 idle
  connections neither block a normal request nor stay open.
- test_open_trivia_client.py: opentdb-py, a published Open Trivia DB client from PyPI, pointed
  at the server by its base address plays through the compatible API (tokens, categories,
  counts, encodings), and a second request within 5 s is a 429 with response code 5.
- test_bodies.py: a body over the limit, chunked or with Content-Length, gets 413 and a JSON
  error (never 500) on /sessions, /users, /posts and /imports; a client hanging up mid-body
  logs no error.
- test_terminal_play.py: `quizbox play` driven through a pseudo terminal (arrow and number keys,
  hidden password, feedback, leaderboard, the terminal restored on leaving and on Ctrl-C, a live
  game against a host's socket) and through a pipe (scripted sessions, a server that is down).

Run from the repository root: `python3 -m pytest Tests/robustness` (needs `pytest` and
`schemathesis` from PyPI and a built binary; nothing here builds). About 4 minutes on 2 cores.
"""

import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("QUIZBOX_BINARY", REPO / ".build/debug/quizbox"))
# A log line at error level or above, in swift-log's stream format or as JSON.
ERROR_LEVEL = re.compile(r"^\S+\s+(error|critical)\b|\"level\"\s*:\s*\"(error|critical)\"", re.IGNORECASE)


class Server:
    """`quizbox serve --port 0` on `directory/quizbox.sqlite`; start() again after stop() or kill()
    reopens the same file."""

    def __init__(self, directory: Path, env: dict | None = None):
        if not os.access(BINARY, os.X_OK):
            pytest.fail(f"{BINARY} is missing: build it first (swift build --product quizbox)")
        self.directory = directory
        self.database = directory / "quizbox.sqlite"
        self.env = {**os.environ, "QUIZBOX_BCRYPT_COST": "4", **(env or {})}
        self.log = []
        self.user_ids = {}
        self.process = None
        self.start()

    def start(self):
        self.url = None
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", "0", "--database", str(self.database)],
            cwd=self.directory, env=self.env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        ready = threading.Event()

        def drain(process):
            for line in process.stdout:
                self.log.append(line)
                found = self.url is None and re.search(r"ready at (http://[0-9.]+:[0-9]+)", line)
                if found:
                    self.url = found.group(1)
                    ready.set()
            ready.set()

        threading.Thread(target=drain, args=(self.process,), daemon=True).start()
        if not ready.wait(timeout=60) or self.url is None:
            self.stop()
            pytest.fail("quizbox serve did not start:\n" + "".join(self.log))
        self.host, self.port = self.url.removeprefix("http://").split(":")
        self.port = int(self.port)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self):
        """SIGKILL: no shutdown, no flush, like a power cut for the process."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def error_lines(self, since=0):
        """Log lines at error level or above, from line `since` on."""
        return [line for line in self.log[since:] if ERROR_LEVEL.search(line)]

    def api(self, method, path, body=None, token=None, timeout=30, headers=None):
        """Calls the JSON API; returns (status, parsed body or raw bytes)."""
        headers = {"Content-Type": "application/json", **(headers or {})}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + "/api/v1" + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, (json.loads(raw) if raw else {})
        except ValueError:
            return status, raw

    def user(self, username, password="robust-password", role=None):
        """Registers `username` (with `role` set through the CLI, as an operator would) and
        returns a bearer token for it."""
        status, body = self.api("POST", "/users", {"username": username, "firstName": "Robust",
                                                   "lastName": "Tester", "password": password})
        assert status == 201, body
        self.user_ids[username] = body["id"]
        if role:
            subprocess.run([str(BINARY), "user", "set-role", username, role, "--database", str(self.database)],
                           cwd=self.directory, env=self.env, check=True, capture_output=True, text=True, timeout=60)
        status, session = self.api("POST", "/sessions", {"username": username, "password": password})
        assert status == 200, session
        token = session["token"]
        if role:
            # Another process changed the row: the server may serve its cached copy a moment longer.
            deadline = time.monotonic() + 15
            while self.api("GET", "/me", token=token)[1].get("role") != role:
                assert time.monotonic() < deadline, f"{username} never became {role}"
                time.sleep(0.2)
        return token

    def connect(self, timeout=10):
        return socket.create_connection((self.host, self.port), timeout=timeout)


def closed_within(sock, seconds):
    """Waits (reading, not sleeping) until the peer closes `sock`. Returns (closed, elapsed, bytes
    received): closed is False when `seconds` passed with the connection still open."""
    start = time.monotonic()
    received = b""
    while True:
        left = seconds - (time.monotonic() - start)
        if left <= 0:
            return False, time.monotonic() - start, received
        sock.settimeout(left)
        try:
            data = sock.recv(65536)
        except socket.timeout:
            return False, time.monotonic() - start, received
        except (ConnectionResetError, BrokenPipeError):
            return True, time.monotonic() - start, received
        if not data:
            return True, time.monotonic() - start, received
        received += data


def print_log_on_failure(server):
    """For a fixture's teardown: pytest shows this only for a failed test."""
    print(f"--- quizbox serve log ({server.url}) ---\n" + "".join(server.log[-200:]))


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path)
    yield running
    running.stop()
    print_log_on_failure(running)
