"""Assignments in real Chromium (issue 33's journey).

First, a teacher assigns a quiz on a laptop, two players without accounts do it on phones
(390 px), one leaves and comes back on another phone with the rejoin code, the teacher closes it
(the deadline passes), and the report and its CSV match what was played.

Then a class: the teacher creates one, a student makes an account on a phone from the class's
join link and joins, the teacher sets a quiz to the class, a signed-out phone is asked to sign in,
the student opens it from their home page's due list and plays it signed in, the deadline passes,
and the gradebook (page and CSV) holds the student's grade and the class average, while the
student's own class page shows only their row.

The real server's clock cannot be moved, so "Close now" is the deadline."""

import csv
import io
import math
import re
import urllib.request

from conftest import PHONE
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from test_journeys import (PASSWORD, answer_tiles, by_id, choose, click_and_wait, click_id, log_in, new_username, open_browser, other_option,
                           path, text, type_into)

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


def cookies_of(driver):
    return "; ".join(f"{cookie['name']}={cookie['value']}" for cookie in driver.get_cookies())


def download_csv(driver, href):
    """A CSV the page links to, fetched as the signed-in browser would (comma-separated)."""
    request = urllib.request.Request(href + "?separator=comma", headers={"Cookie": cookies_of(driver)})
    with urllib.request.urlopen(request, timeout=30) as response:
        return list(csv.reader(io.StringIO(response.read().decode("utf-8"))))


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

    header, *lines = download_csv(teacher, by_id(teacher, "download-csv").get_attribute("href"))
    by_name = {row["nickname"]: row for row in (dict(zip(header, line)) for line in lines)}
    assert by_name["Ada"]["grade_percent"] == "100.0" and by_name["Ada"]["state"] == "finished"
    assert all(by_name["Ada"][f"q{n}_percent"] == "100.0" for n in range(1, count + 1))
    assert by_name["Bo"]["q1_percent"] == "0.0" and by_name["Bo"]["q2_percent"] == "100.0"
    assert float(by_name["Bo"]["grade_percent"]) < 100

    teacher.get(server.url + "/assignments")
    assert "Solar System homework" in text(teacher, "assignments")
    assert "2 started" in text(teacher, "assignments")
    screenshot(teacher, "assignments")


def grade_text(element):
    # The pages write "83 %" with a no-break space.
    return element.text.replace("\u00a0", " ").strip()


def gradebook(driver):
    """The gradebook table on a class's page: {student: [cell per assignment…, average]}, and the
    footer's averages (None when the table has none, as a student's own has not)."""
    table = by_id(driver, "gradebook")
    rows = {row.find_element(By.TAG_NAME, "th").text.strip(): [grade_text(cell) for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")}
    footers = table.find_elements(By.CSS_SELECTOR, "tfoot tr")
    averages = [grade_text(cell) for cell in footers[0].find_elements(By.TAG_NAME, "td")] if footers else None
    return rows, averages


def due_line(driver, title):
    lines = [line for line in driver.find_elements(By.CSS_SELECTOR, "#due-list li")
             if line.find_element(By.CLASS_NAME, "quiz-link").text.strip() == title]
    assert len(lines) == 1, by_id(driver, "due-list").text
    return lines[0]


def test_a_student_in_a_class_does_its_assignment_on_a_phone_and_the_gradebook_matches(server, browser, screenshot):
    teacher_name, student_name = new_username("teacher"), new_username("student")
    server.create_user(teacher_name, "teacher password")
    teacher = open_browser(browser, server)
    teacher.get(server.url + "/login?next=/classes")
    log_in(teacher, teacher_name, "teacher password")
    key = server.answer_key(1)
    _, listing = server.api("GET", "/quizzes/1/questions")
    points = {question["text"]: question["points"] for question in listing["questions"]}

    # The teacher creates a class on the laptop: its code, join link and QR code.
    type_into(teacher, **{"class-name": "7B astronomy"})
    click_and_wait(teacher, teacher.find_element(By.CSS_SELECTOR, "#new-class-form button[type=submit]"))
    class_page = teacher.current_url
    assert re.fullmatch(r".*/classes/\d+", class_page) and text(teacher, "class-name-heading") == "7B astronomy"
    class_code = text(teacher, "class-code")
    join_link = by_id(teacher, "class-join-url").get_attribute("href")
    assert re.fullmatch(r"\d{6}", class_code) and join_link == f"{server.url}/classes/join/{class_code}", join_link
    assert teacher.find_elements(By.CSS_SELECTOR, "#class-qr svg")
    assert by_id(teacher, "no-members") and by_id(teacher, "no-gradebook")

    # A student without an account opens the link on a phone: sign in, or make an account, and
    # come back to the join form with the code filled in.
    student = open_browser(browser, server, size=PHONE)
    student.get(join_link)
    assert path(student).startswith("/login?next="), path(student)
    click_id(student, "create-account-link")
    type_into(student, first_name="Stu", last_name="Dent", username=student_name, password=PASSWORD, password_confirm=PASSWORD)
    click_id(student, "register-button")
    assert path(student) == f"/classes/join/{class_code}", "back to the class's link"
    assert by_id(student, "class-code").get_attribute("value") == class_code
    screenshot(student, "class-join")
    click_and_wait(student, student.find_element(By.CSS_SELECTOR, "#join-class-form button[type=submit]"))
    assert path(student) == path(teacher), "on the class's page"
    assert text(student, "class-name-heading") == "7B astronomy"
    assert not student.find_elements(By.ID, "class-code"), "a student is not shown the code"
    assert by_id(student, "no-class-assignments")

    # Another student joins (through the API) and never does the assignment: a dash, left out of
    # the averages.
    server.create_user("cy-absent", "cy password")
    _, session = server.api("POST", "/sessions", {"username": "cy-absent", "password": "cy password"})
    status, joined = server.api("POST", "/classes/join", {"code": class_code}, token=session["token"])
    assert status == 200, joined

    teacher.get(class_page)
    members = [line.find_element(By.CLASS_NAME, "quiz-link").text for line in teacher.find_elements(By.CSS_SELECTOR, "#class-members li")]
    assert sorted(members) == sorted([student_name, "cy-absent"]), members
    screenshot(teacher, "class-teacher")

    # The class page's own way in: a quiz chosen there comes to the form with the class chosen.
    Select(by_id(teacher, "class-assign-quiz")).select_by_index(0)
    click_and_wait(teacher, teacher.find_element(By.CSS_SELECTOR, "#assign-to-class button"))
    assert path(teacher).startswith("/assignments/new?class="), path(teacher)
    assert Select(by_id(teacher, "assignment-class")).first_selected_option.text == "7B astronomy"

    # The teacher sets the quiz to the class with the form's class chooser.
    teacher.get(server.url + "/quizzes/1")
    click_id(teacher, "assign-quiz")
    chooser = Select(by_id(teacher, "assignment-class"))
    assert chooser.first_selected_option.text == "No class: anyone with the code"
    chooser.select_by_visible_text("7B astronomy")
    type_into(teacher, **{"assignment-title": "Planets for 7B"})
    click_id(teacher, "create-assignment")
    assignment_page = teacher.current_url
    code = text(teacher, "assignment-code")
    link = by_id(teacher, "player-link").get_attribute("href")

    # A class's assignment is for its students, signed in: a phone without an account is asked to sign in.
    stranger = open_browser(browser, server, size=PHONE)
    stranger.get(link)
    type_into(stranger, nickname="Dee")
    click_id(stranger, "join-button")
    assert path(stranger) == f"/login?next=/a/{code}", path(stranger)
    stranger.quit()

    # The student finds it on their home page, due in a week, and opens it from there.
    student.get(server.url + "/home")
    line = due_line(student, "Planets for 7B")
    assert line.find_element(By.CLASS_NAME, "badge").text == "7B astronomy"
    when = line.find_element(By.CLASS_NAME, "quiz-count")
    assert re.fullmatch(r"due .+ at \d\d:\d\d UTC", when.text), when.text
    assert "due-open" in when.get_attribute("class") and not line.find_elements(By.CSS_SELECTOR, ".badge.done")
    screenshot(student, "home-due")
    click_and_wait(student, line.find_element(By.CLASS_NAME, "quiz-link"))
    assert path(student) == f"/a/{code}"
    assert not student.find_elements(By.ID, "nickname"), "signed in: no nickname to choose"
    assert by_id(student, "join-button").text == f"Join as {student_name}"
    click_id(student, "join-button")
    assert text(student, "player-nickname") == student_name
    click_id(student, "start-assignment")

    # The first question wrong, every other right; the answers come at the end (the default).
    _, count = question_number(student)
    wrong = None
    for index in range(count):
        assert question_number(student) == (index + 1, count)
        question = text(student, "question-text")
        if index == 0:
            wrong = question
            answer(student, wrong_answer(student, key, question))
        else:
            answer(student, right_answer(key, question))
        assert not student.find_elements(By.ID, "feedback"), "no verdict until the end"
    click_id(student, "finish-assignment")
    total = sum(points[question] for question in key)
    # As the server works it out: a fraction, then whole percents rounded half up on the pages.
    fraction = (total - points[wrong]) / total
    grade = fraction * 100
    shown = f"{math.floor(grade + 0.5)} %"
    assert grade_text(student.find_element(By.CSS_SELECTOR, "#grade .big-number")) == shown

    # The deadline passes: the student's home page says so and counts it done.
    teacher.get(assignment_page)
    click_id(teacher, "close-now")
    assert text(teacher, "window-state") == "Closed"
    played = teacher.find_elements(By.CSS_SELECTOR, "#players-table tbody tr")
    assert [row.find_element(By.TAG_NAME, "th").text.strip() for row in played] == [f"{student_name} ✓"], "the student alone, signed in"
    assert played[0].find_element(By.CSS_SELECTOR, "th .badge").get_attribute("title") == "Signed in"
    assert grade_text(played[0].find_element(By.CLASS_NAME, "player-grade")) == shown
    student.get(server.url + "/home")
    line = due_line(student, "Planets for 7B")
    assert line.find_element(By.CLASS_NAME, "quiz-count").text.startswith("closed ") and line.find_elements(By.CSS_SELECTOR, ".badge.done")

    # The gradebook: the student's grade as played, the absent one's dash, the class average without it.
    teacher.get(class_page)
    rows, averages = gradebook(teacher)
    assert rows == {student_name: [shown, shown], "cy-absent": ["–", "–"]}, rows
    assert averages == [shown, ""], averages
    teacher.execute_script("document.getElementById('gradebook-heading').scrollIntoView()")
    screenshot(teacher, "class-gradebook")
    header, *lines = download_csv(teacher, teacher.find_element(By.CSS_SELECTOR, "#gradebook-downloads a[href$='.csv']").get_attribute("href"))
    assert header == ["username", "Planets for 7B", "average_percent"], header
    assert sorted(lines) == sorted([[student_name, f"{grade:.1f}", f"{grade:.1f}"], ["cy-absent", "", ""], ["average", f"{grade:.1f}", ""]]), lines

    # The student's own class page: their row only, no class averages, no downloads.
    student.get(server.url + "/classes")
    click_and_wait(student, student.find_element(By.CSS_SELECTOR, "#joined-classes a"))
    assert path(student) == path(teacher)
    assert text(student, "gradebook-heading") == "Your grades"
    assert gradebook(student) == ({student_name: [shown, shown]}, None)
    assert not student.find_elements(By.ID, "gradebook-downloads") and "cy-absent" not in student.page_source
    screenshot(student, "class-student")

    teacher.get(server.url + "/classes")
    assert f"Code {class_code} · 2 students · 1 assignment" in text(teacher, "taught-classes")
    screenshot(teacher, "classes")

    # Removing a student asks first: the button only opens the question.
    teacher.get(class_page)
    absent = next(line for line in teacher.find_elements(By.CSS_SELECTOR, "#class-members li")
                  if line.find_element(By.CLASS_NAME, "quiz-link").text == "cy-absent")
    confirm = absent.find_element(By.CSS_SELECTOR, "button[id^='confirm-remove-member-']")
    assert not confirm.is_displayed(), "the confirmation is closed until asked for"
    absent.find_element(By.TAG_NAME, "summary").click()
    assert "Remove cy-absent from the class?" in absent.text
    click_and_wait(teacher, confirm)
    members = [line.find_element(By.CLASS_NAME, "quiz-link").text for line in teacher.find_elements(By.CSS_SELECTOR, "#class-members li")]
    assert members == [student_name], members

    # Leaving asks first too.
    student.get(class_page)
    assert not by_id(student, "confirm-leave-class").is_displayed()
    by_id(student, "leave-class").click()
    click_and_wait(student, by_id(student, "confirm-leave-class"))
    assert not student.find_elements(By.CSS_SELECTOR, f"#joined-classes a[href='{path(teacher)}']"), "left: the class is gone from their list"

