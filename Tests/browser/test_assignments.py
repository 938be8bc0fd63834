"""An assignment in real Chromium: a teacher assigns a quiz on a laptop, two players without
accounts do it on phones (390 px), one leaves and comes back on another phone with the rejoin
code, the teacher closes it (the deadline passes), and the report and its CSV match what was
played. The real server's clock cannot be moved, so "Close now" is the deadline."""

import csv
import io
import re
import urllib.request

from conftest import PHONE
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from test_journeys import answer_tiles, by_id, choose, click_id, log_in, new_username, open_browser, other_option, text, type_into

WAIT = 30


def crumbs(driver):
    return driver.find_element(By.CLASS_NAME, "crumbs").text


def question_number(driver):
    found = re.search(r"Question (\d+) of (\d+)", crumbs(driver))
    assert found, crumbs(driver)
    return int(found.group(1)), int(found.group(2))


def answer(driver, given):
    """Taps the tiles that say `given` ("A, B" for several), or types it."""
    labels = [label for _, label in answer_tiles(driver)]
    if labels:
        for part in ([given] if given in labels else given.split(", ")):
            choose(driver, part)
    else:
        field = (driver.find_elements(By.ID, "answer-text") or driver.find_elements(By.ID, "answer-number"))[0]
        field.send_keys(given)
    click_id(driver, "submit-answer")


def right_answer(key, question):
    shown = key[question]
    number = re.match(r"^-?\d+(?:\.\d+)?(?= |$)", shown)
    return number.group(0) if number else shown


def wrong_answer(driver, key, question):
    if answer_tiles(driver):
        return other_option(driver, key[question].split(", ")[0])
    return "0" if driver.find_elements(By.ID, "answer-number") else "no idea"


def join(browser, server, link, nickname, screenshot=None):
    player = open_browser(browser, server, size=PHONE)
    player.get(link)
    if screenshot:
        screenshot(player, "assignment-join")
    type_into(player, nickname=nickname)
    click_id(player, "join-button")
    assert text(player, "player-nickname") == nickname
    return player


def test_a_teacher_assigns_a_quiz_two_players_do_it_on_phones_and_the_report_matches(server, browser, screenshot):
    teacher_name = new_username("teacher")
    server.create_user(teacher_name, "teacher password")
    teacher = open_browser(browser, server)
    teacher.get(server.url + "/login?next=/quizzes/1")
    log_in(teacher, teacher_name, "teacher password")
    key = server.answer_key(1)

    # Assign: the quiz's title by default, the close a week on, shown in the browser's time zone.
    click_id(teacher, "assign-quiz")
    assert by_id(teacher, "assignment-title").get_attribute("value") == "The Solar System"
    assert by_id(teacher, "closes-at").get_attribute("value"), "a close is filled in"
    assert by_id(teacher, "zone-hint").text == "Times are in your device's time zone."
    type_into(teacher, **{"assignment-title": "Solar System homework"})
    Select(by_id(teacher, "answers-shown")).select_by_value("afterEachQuestion")
    screenshot(teacher, "assignment-new")
    click_id(teacher, "create-assignment")
    assert by_id(teacher, "assignment-title").text == "Solar System homework"
    code = text(teacher, "assignment-code")
    link = by_id(teacher, "player-link").get_attribute("href")
    assert re.fullmatch(r"\d{6}", code) and link == f"{server.url}/a/{code}", link
    assert teacher.find_elements(By.CSS_SELECTOR, "#qr svg")
    assert text(teacher, "window-state") == "Open"
    screenshot(teacher, "assignment-teacher")

    # Ada joins on her phone and sees her rejoin code.
    ada = join(browser, server, link, "Ada", screenshot)
    assert re.fullmatch(r"[A-Z0-9]{6}", text(ada, "rejoin-code"))
    screenshot(ada, "assignment-waiting-start")
    click_id(ada, "start-assignment")
    number, count = question_number(ada)
    assert number == 1
    screenshot(ada, "assignment-question")

    # The teacher's page fills up by itself (its script reads the page again).
    WebDriverWait(teacher, WAIT).until(lambda d: "Ada" in d.find_element(By.ID, "report").text, "Ada shows without a reload")

    # Ada answers every question right, and leaves halfway: the link brings her back to it.
    for index in range(count):
        if index == count // 2:
            ada.get(link)
            assert question_number(ada)[0] == index + 1, "back where she was"
        question = text(ada, "question-text")
        answer(ada, right_answer(key, question))
        assert ada.find_element(By.CSS_SELECTOR, "#feedback .verdict").text.startswith("Right!"), question
        if index == 0:
            screenshot(ada, "assignment-feedback")
        click_id(ada, "continue")
    click_id(ada, "finish-assignment")
    assert ada.find_element(By.CSS_SELECTOR, "#grade .big-number").text == "100 %"
    screenshot(ada, "assignment-result")

    # Bo answers the first question wrong on one phone, then carries on on another with his code.
    bo = join(browser, server, link, "Bo")
    rejoin = text(bo, "rejoin-code")
    click_id(bo, "start-assignment")
    first = text(bo, "question-text")
    answer(bo, wrong_answer(bo, key, first))
    assert bo.find_element(By.CSS_SELECTOR, "#feedback .verdict").text == "Not quite."
    bo.quit()
    other_phone = open_browser(browser, server, size=PHONE)
    other_phone.get(link)
    type_into(other_phone, **{"rejoin-nickname": "Bo", "rejoin-code": rejoin.lower()})
    screenshot(other_phone, "assignment-rejoin")
    click_id(other_phone, "rejoin-button")
    assert question_number(other_phone) == (2, count), "on the question after the one answered on the first phone"
    second = text(other_phone, "question-text")
    answer(other_phone, right_answer(key, second))
    click_id(other_phone, "continue")

    # The deadline: the teacher closes it with Bo halfway. His two answers stand.
    teacher.get(teacher.current_url)
    click_id(teacher, "close-now")
    assert text(teacher, "window-state") == "Closed"
    other_phone.get(link)
    assert "/result" in other_phone.current_url
    assert "This assignment closed" in text(other_phone, "closed-message")
    assert "Correct answer" in other_phone.find_element(By.ID, "result-summary").get_attribute("innerHTML")
    screenshot(other_phone, "assignment-closed-result")

    # The report: who played what.
    rows = {row.find_element(By.TAG_NAME, "th").text.strip(): row for row in teacher.find_elements(By.CSS_SELECTOR, "#players-table tbody tr")}
    assert set(rows) == {"Ada", "Bo"}, rows.keys()
    assert rows["Ada"].find_element(By.CLASS_NAME, "player-grade").text == "100 %"
    assert rows["Bo"].find_element(By.CLASS_NAME, "player-state").text == "Finished"
    bo_cells = [cell.text for cell in rows["Bo"].find_elements(By.CSS_SELECTOR, "td.cell")]
    assert bo_cells[0] == "0 %" and bo_cells[1] == "100 %" and set(bo_cells[2:]) <= {"0 %", "—"}, bo_cells
    assert "To teach again first" in teacher.find_element(By.ID, "reteach").text
    teacher.execute_script("document.getElementById('report').scrollIntoView()")
    screenshot(teacher, "assignment-report")

    session = "; ".join(f"{cookie['name']}={cookie['value']}" for cookie in teacher.get_cookies())
    request = urllib.request.Request(by_id(teacher, "download-csv").get_attribute("href") + "?separator=comma", headers={"Cookie": session})
    with urllib.request.urlopen(request, timeout=30) as response:
        table = list(csv.DictReader(io.StringIO(response.read().decode("utf-8"))))
    by_name = {row["nickname"]: row for row in table}
    assert by_name["Ada"]["grade_percent"] == "100.0" and by_name["Ada"]["state"] == "finished"
    assert all(by_name["Ada"][f"q{n}_percent"] == "100.0" for n in range(1, count + 1))
    assert by_name["Bo"]["q1_percent"] == "0.0" and by_name["Bo"]["q2_percent"] == "100.0"
    assert float(by_name["Bo"]["grade_percent"]) < 100

    teacher.get(server.url + "/assignments")
    assert "Solar System homework" in text(teacher, "assignments")
    assert "2 started" in text(teacher, "assignments")
    screenshot(teacher, "assignments")
