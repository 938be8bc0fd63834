"""A live game in real Chromium: a host on a projector-sized screen and three players on phones,
each in its own browser, play a whole quiz over the real server's WebSocket."""

import csv
import datetime
import io
import urllib.request

import openpyxl

from conftest import PHONE, SCREENSHOTS, SIZES, set_viewport
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from test_journeys import by_id, click_id, log_in, new_username, open_browser, type_into

PROJECTOR = (1280, 720)
WAIT = 30


def wait_for(driver, condition, message):
    return WebDriverWait(driver, WAIT).until(lambda d: condition(d), message)


def screen(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-screen]").get_attribute("data-screen")


def visible(driver, element_id):
    elements = driver.find_elements(By.ID, element_id)
    return bool(elements) and elements[0].is_displayed()


def shot(driver, name):
    """The screen as it is, at a phone's size and a laptop's, light and dark; then back to the
    browser's own size (phone or projector)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    who = "host" if driver.viewport == PROJECTOR else "player"
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        for width, height in SIZES:
            set_viewport(driver, (width, height))
            suffix = "" if scheme == "light" else "-dark"
            assert driver.save_screenshot(str(SCREENSHOTS / f"live-{width}x{height}-{who}-{name}{suffix}.png"))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    set_viewport(driver, driver.viewport)


def answer_something(driver, index):
    """Answers the open question: the first tile, or something typed."""
    wait_for(driver, lambda d: visible(d, "question") and d.find_element(By.ID, "question-number").text.strip() != "",
             "the question shows")
    tiles = [tile for tile in driver.find_elements(By.CSS_SELECTOR, "#answers .answer-tile") if tile.is_displayed()]
    if tiles:
        tiles[index % len(tiles)].click()
        submit = driver.find_elements(By.ID, "answer-submit")
        if submit and submit[0].is_displayed() and submit[0].is_enabled():
            submit[0].click()
    else:
        field = by_id(driver, "text-answer")
        field.send_keys("8")
        by_id(driver, "answer-submit").click()


def host_game(browser, server, seconds, settings_shot=False, quiz_id=1):
    """A new host signed in on a projector-sized screen sets up a live game of a quiz (the first);
    returns the host's browser on the game's lobby and its PIN."""
    host_name = new_username("host")
    server.create_user(host_name, "host password")
    host = open_browser(browser, server, size=PROJECTOR)
    host.get(server.url + "/login")
    log_in(host, host_name, "host password")
    host.get(server.url + f"/quizzes/{quiz_id}")
    click_id(host, "host-live")
    if settings_shot:
        shot(host, "settings")
    by_id(host, "seconds-per-question").clear()
    by_id(host, "seconds-per-question").send_keys(str(seconds))
    by_id(host, "create-game").click()
    wait_for(host, lambda d: "/host" in d.current_url and by_id(d, "host-pin").text.strip().isdigit(), "the host screen shows the PIN")
    return host, by_id(host, "host-pin").text.strip().replace(" ", "")


def test_a_host_and_three_phones_play_a_live_game_and_a_reload_keeps_the_score(server, browser):
    host, pin = host_game(browser, server, seconds=60, settings_shot=True)
    assert len(pin) == 6
    assert host.find_elements(By.CSS_SELECTOR, "#qr svg"), "the QR code is on the host screen"

    players = []
    for number, nickname in enumerate(["Ada", "Linus", "Grace"]):
        phone = open_browser(browser, server, size=PHONE)
        phone.get(server.url + (f"/join/{pin}" if number else "/join"))
        if number == 0:
            type_into(phone, **{"pin-input": pin})
        type_into(phone, **{"nickname-input": nickname})
        by_id(phone, "join-button").click()
        wait_for(phone, lambda d: visible(d, "lobby"), f"{nickname} is in the lobby")
        players.append(phone)
    wait_for(host, lambda d: by_id(d, "player-count").get_attribute("data-count") == "3", "the host sees three players")
    shot(host, "lobby")
    shot(players[0], "lobby")

    by_id(host, "start-button").click()
    count = None
    question = 0
    while True:
        wait_for(host, lambda d: d.find_element(By.ID, "live-host").get_attribute("data-phase") in ("question", "ended"),
                 "a question opens")
        if host.find_element(By.ID, "live-host").get_attribute("data-phase") == "ended":
            break
        for number, phone in enumerate(players):
            if number == 1 and question == 1:
                # Linus's phone reloads mid-question and carries on where it was.
                before = by_id(phone, "me-score").text
                code = by_id(phone, "rejoin-code").get_attribute("textContent").strip()
                phone.refresh()
                wait_for(phone, lambda d: visible(d, "question"), "the reloaded phone is back on the question")
                assert by_id(phone, "me-score").text == before
                # The lobby tells players to keep the code in case the phone dies: a reload keeps it.
                assert len(code) == 6
                assert by_id(phone, "rejoin-code").get_attribute("textContent").strip() == code
            answer_something(phone, number)
            if question == 0 and number == 0:
                shot(phone, "question")
                shot(host, "question")
        wait_for(host, lambda d: visible(d, "reveal"), "the host shows the answer")
        if question == 0:
            shot(host, "reveal")
        for phone in players:
            wait_for(phone, lambda d: visible(d, "result") and by_id(d, "score").get_attribute("data-value"), "the phone shows its result")
        if question == 0:
            shot(players[0], "result")
        question += 1
        # Host-paced: reveal → leaderboard → next question, until the end.
        while host.find_element(By.ID, "live-host").get_attribute("data-phase") in ("reveal", "leaderboard"):
            phase = host.find_element(By.ID, "live-host").get_attribute("data-phase")
            by_id(host, "next-button").click()
            wait_for(host, lambda d, p=phase: d.find_element(By.ID, "live-host").get_attribute("data-phase") != p, "the game moves on")
        count = question

    wait_for(host, lambda d: visible(d, "podium"), "the podium shows")
    shot(host, "podium")
    standings = {row.get_attribute("data-player"): row.text for row in host.find_elements(By.CSS_SELECTOR, "#standings li[data-player]")}
    assert len(standings) == 3
    finals = {}
    for phone, nickname in zip(players, ["Ada", "Linus", "Grace"]):
        wait_for(phone, lambda d: visible(d, "ended"), "the phone shows the end")
        finals[nickname] = int(by_id(phone, "final-score").text.replace(",", "").split()[0])
    shot(players[0], "ended")

    # The CSV export says what was played: one row per player and question, the same totals.
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in host.get_cookies())
    game_id = host.find_element(By.ID, "live-host").get_attribute("data-game")
    request = urllib.request.Request(f"{server.url}/live/{game_id}/results.csv", headers={"Cookie": cookies})
    with urllib.request.urlopen(request, timeout=30) as response:
        rows = list(csv.DictReader(io.StringIO(response.read().decode())))
    assert len(rows) == 3 * count
    totals = {row["nickname"]: int(row["score"]) for row in rows}
    assert totals == finals
    for nickname in finals:
        points = sum(int(row["points"]) + int(row["bonus"]) for row in rows if row["nickname"] == nickname)
        assert points == finals[nickname]

    # For Finnish Excel: semicolons, a byte-order mark, decimal commas; the same rows.
    request = urllib.request.Request(f"{server.url}/live/{game_id}/results.csv?separator=semicolon", headers={"Cookie": cookies})
    with urllib.request.urlopen(request, timeout=30) as response:
        raw = response.read().decode("utf-8")
    assert raw.startswith("\ufeffrank;nickname;")
    semicolon_rows = list(csv.DictReader(io.StringIO(raw.lstrip("\ufeff")), delimiter=";"))
    assert {row["nickname"]: int(row["score"]) for row in semicolon_rows} == finals
    assert all("," in row["seconds"] for row in semicolon_rows if row["seconds"])

    # The Excel workbook, read by openpyxl: a summary and every answer, numbers and dates as such.
    request = urllib.request.Request(f"{server.url}/live/{game_id}/results.xlsx", headers={"Cookie": cookies})
    with urllib.request.urlopen(request, timeout=30) as response:
        book = openpyxl.load_workbook(io.BytesIO(response.read()))
    summary = book["Summary"]
    assert [cell.value for cell in summary[1]] == ["Rank", "Nickname", "Team", "Score", "Right answers"]
    assert summary.freeze_panes == "A2"
    standings = list(summary.iter_rows(min_row=2, values_only=True))
    assert {row[1]: row[3] for row in standings} == finals
    assert [row[0] for row in standings] == sorted(row[0] for row in standings)
    assert {row[1]: row[4] for row in standings} == {
        nickname: sum(1 for row in rows if row["nickname"] == nickname and row["right"] == "yes") for nickname in finals}
    answers = book["Answers"]
    assert [cell.value for cell in answers[1]][:9] == ["Nickname", "Question", "Question text", "Answer", "Right", "Points", "Bonus",
                                                        "Seconds", "Answered at"]
    lines = list(answers.iter_rows(min_row=2, values_only=True))
    assert len(lines) == 3 * count
    for nickname in finals:
        assert sum(row[5] + row[6] for row in lines if row[0] == nickname) == finals[nickname]
    by_key = {(row["nickname"], int(row["question"])): row for row in rows}
    for row in lines:
        from_csv = by_key[(row[0], row[1])]
        assert (row[3] or "") == from_csv["answer"]
        if row[8] is not None:
            assert isinstance(row[8], datetime.datetime)
            assert abs(row[7] - float(from_csv["seconds"])) < 0.001
