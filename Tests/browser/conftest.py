"""Fixtures for Quizbox's browser tests.

Each test gets its own `quizbox serve` (the already-built binary, on a throwaway SQLite file) and
headless Chromium driven through Debian's chromedriver. Nothing here builds or downloads anything.
"""

import json
import os
import re
import shutil
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("QUIZBOX_BINARY", REPO / ".build/debug/quizbox"))
SCREENSHOTS = Path(os.environ.get("QUIZBOX_SCREENSHOTS", REPO / ".build/screenshots")).resolve()
# Debian's paths; set explicitly so Selenium Manager never tries to download a driver.
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver")

# A phone and a laptop. Every screen is saved at both.
SIZES = [(390, 844), (1280, 800)]
DESKTOP = (1280, 800)
PHONE = (390, 844)

# Fixed numbers, so a screen keeps its file name whatever order the tests run in.
SCREENS = [
    "entry", "login", "register", "home", "subject", "quiz", "question-unanswered", "question-right",
    "question-wrong", "already-answered", "attempt-list", "history", "history-question", "result",
    "leaderboard", "profile", "quizzes", "contact", "manage", "not-found", "login-wrong-password",
    "register-username-taken", "practice-settings", "practice-timed-question", "practice-result", "random-form",
    "random-result", "games", "game-playing", "game-over", "manage-catalog", "manage-quiz", "manage-question", "manage-preview",
    "articles", "manage-articles",
    "user-page", "feed", "question-tiles", "question-tiles-answered", "leaderboard-podium", "manage-question-picture",
    "question-picture", "manage-question-kinds", "home-cover", "home-finnish", "question-finnish",
    "question-verdict-right", "question-verdict-wrong", "question-ordering", "question-poll-answered", "question-maths", "question-sound",
    "assignment-new", "assignment-teacher", "assignment-join", "assignment-waiting-start", "assignment-question", "assignment-feedback",
    "assignment-rejoin", "assignment-result", "assignment-closed-result", "assignment-report", "assignments",
    "class-teacher", "class-join", "home-due", "class-gradebook", "class-student", "classes",
]
SCREEN_FILE = re.compile(r"^(\d+x\d+-\d\d-.+|live-.+|FAILED-.+)\.png$")


# MARK: - The server


class Server:
    """A running `quizbox serve --port 0` on its own database, stopped with SIGTERM."""

    def __init__(self, directory: Path, port: int = 0, env: dict | None = None):
        if not os.access(BINARY, os.X_OK):
            pytest.fail(f"{BINARY} is missing: build it first (swift build --product quizbox)")
        self.directory = directory
        self.database = directory / "quizbox.sqlite"
        self.url = None
        self.log = []
        self._answer_keys = {}
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(port), "--database", str(self.database)],
            cwd=directory, env={**os.environ, "QUIZBOX_BCRYPT_COST": "4",
                                # A journey posts a feed's worth at once, faster than people do.
                                "QUIZBOX_POSTS_PER_MINUTE": "100", **(env or {})},
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        ready = threading.Event()

        # Reads the log as it comes: the address is known as soon as the server prints it, and the
        # pipe never fills up and blocks the server later.
        def drain():
            for line in self.process.stdout:
                self.log.append(line)
                found = self.url is None and re.search(r"ready at (http://[0-9.]+:[0-9]+)", line)
                if found:
                    self.url = found.group(1)
                    ready.set()
            ready.set()  # end of output: the server exited

        threading.Thread(target=drain, daemon=True).start()
        if not ready.wait(timeout=60) or self.url is None:
            self.stop()
            pytest.fail("quizbox serve did not start:\n" + "".join(self.log))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def api(self, method, path, body=None, token=None):
        """Calls the JSON API; returns (status, parsed body)."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + "/api/v1" + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        return status, (json.loads(raw) if raw else {})

    def status_of(self, path):
        """The HTTP status of a page, which a browser does not tell Selenium."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def create_user(self, username, password, first="Ada", last="Lovelace"):
        status, body = self.api("POST", "/users", {"username": username, "firstName": first,
                                                   "lastName": last, "password": password})
        assert status == 201, body
        return body

    def set_role(self, username, role):
        """As whoever runs this Quizbox would: `quizbox user set-role` on the same database."""
        subprocess.run([str(BINARY), "user", "set-role", username, role, "--database", str(self.database)],
                       cwd=self.directory, check=True, capture_output=True, text=True, timeout=60)

    def answer_key(self, quiz_id):
        """Question text → the correct answer as the page shows it.

        Learnt the way any player could: a separate account guesses every question of an attempt it
        never finishes (so it earns nothing), and each verdict comes back with the correct answer.
        """
        if quiz_id not in self._answer_keys:
            username = f"answer-key-{quiz_id}"
            self.create_user(username, "answer-key-password")
            _, session = self.api("POST", "/sessions", {"username": username, "password": "answer-key-password"})
            token = session["token"]
            _, listing = self.api("GET", f"/quizzes/{quiz_id}/questions", token=token)
            status, attempt = self.api("POST", f"/quizzes/{quiz_id}/attempts", token=token)
            assert status == 201, attempt
            key = {}
            for question in listing["questions"]:
                guess = {
                    "singleChoice": lambda q: {"choiceId": q["choices"][0]["id"]},
                    "multipleChoice": lambda q: {"choiceIds": [q["choices"][0]["id"]]},
                    "trueFalse": lambda q: {"value": True},
                    "typedAnswer": lambda q: {"text": "?"},
                    "numeric": lambda q: {"number": 0},
                }.get(question["kind"])
                if guess is None:
                    continue
                status, verdict = self.api("POST", f"/attempts/{attempt['id']}/answers",
                                           {"questionId": question["id"], "answer": guess(question)}, token=token)
                assert status == 200, verdict
                key[question["text"]] = verdict["correctAnswer"]["display"]
            self._answer_keys[quiz_id] = key
        return self._answer_keys[quiz_id]


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path)
    yield running
    running.stop()
    # Shown by pytest only when the test failed.
    print(f"--- quizbox serve log ({running.url}) ---\n" + "".join(running.log))


# MARK: - Browsers


@pytest.fixture
def browser(request):
    """Makes headless Chromium drivers: browser(javascript=False, size=PHONE)."""
    drivers = []

    def make(javascript=True, size=DESKTOP, language="en-US"):
        options = Options()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--lang={language}", f"--window-size={size[0]},{size[1]}"):
            options.add_argument(argument)
        # The browser's languages, as its Accept-Language header says them.
        prefs = {"credentials_enable_service": False, "profile.password_manager_enabled": False,
                 "profile.password_manager_leak_detection": False, "intl.accept_languages": language}
        if not javascript:
            prefs["profile.managed_default_content_settings.javascript"] = 2
        options.add_experimental_option("prefs", prefs)
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        drivers.append(driver)
        driver.viewport = size
        set_viewport(driver, size)
        # A page whose own script changes it: proves the setting took effect, both ways.
        driver.get("data:text/html,<p id=probe>off</p><script>document.getElementById('probe').textContent='on'</script>")
        assert driver.find_element("id", "probe").text == ("on" if javascript else "off")
        return driver

    yield make
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for index, driver in enumerate(drivers):
            name = f"FAILED-{request.node.name}-{index}"
            try:
                driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
                (SCREENSHOTS / f"{name}.html").write_text(driver.page_source)
                print(f"failure screenshot: {SCREENSHOTS / name}.png (at {driver.current_url})")
            except Exception as error:  # a crashed browser must not hide the real failure
                print(f"no failure screenshot: {error}")
    for driver in drivers:
        driver.quit()


def set_viewport(driver, size):
    """Sizes the page area itself (a window's size includes the browser's own bars), in the current
    tab; a narrow one is a phone, which honours the pages' viewport meta tag."""
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    # Lets fixtures know, at teardown, whether the test itself failed.
    outcome = yield
    report = outcome.get_result()
    setattr(item, "report_" + report.when, report)


# MARK: - Screenshots


@pytest.fixture
def screenshot():
    """screenshot(driver, "home"): saves the current page at every size in SIZES, light and dark
    (the pages follow the system's colour scheme, emulated here)."""

    def save(driver, name):
        assert name in SCREENS, f"add {name!r} to SCREENS in conftest.py"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for width, height in SIZES:
                set_viewport(driver, (width, height))
                suffix = "" if scheme == "light" else "-dark"
                path = SCREENSHOTS / f"{width}x{height}-{SCREENS.index(name) + 1:02d}-{name}{suffix}.png"
                assert driver.save_screenshot(str(path)), f"could not save {path}"
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        set_viewport(driver, driver.viewport)

    return save


def pytest_sessionstart(session):
    # Old pictures of pages that may have changed since would only mislead.
    if SCREENSHOTS.is_dir():
        for path in SCREENSHOTS.iterdir():
            if SCREEN_FILE.match(path.name) or (path.name.startswith("FAILED-") and path.suffix == ".html"):
                path.unlink()


def pytest_terminal_summary(terminalreporter):
    pictures = sorted(SCREENSHOTS.glob("*.png")) if SCREENSHOTS.is_dir() else []
    if pictures:
        terminalreporter.write_line(f"screenshots ({len(pictures)} files): {SCREENSHOTS}")
