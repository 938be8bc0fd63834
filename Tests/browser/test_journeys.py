"""What a person does with Quizbox in a real browser, with JavaScript on and off.

Assertions are about what the person sees: texts, and the element ids the templates give them.
"""

import os
import re
import subprocess
import uuid

from conftest import BINARY, PHONE, set_viewport
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

PASSWORD = "correct horse battery"


# MARK: - Steps a person takes


def new_username(prefix="player"):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def by_id(driver, element_id):
    return driver.find_element(By.ID, element_id)


def text(driver, element_id):
    return by_id(driver, element_id).text.strip()


def path(driver):
    return re.sub(r"^https?://[^/]+", "", driver.current_url)


def scroll_to(driver, element):
    # As a person scrolls before tapping: on a phone the tab bar covers the bottom of the screen.
    # (DevTools runs this even when the page's JavaScript is off.)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)


def click_and_wait(driver, element):
    """Clicks a link or submit button and waits until the next page has replaced this one."""
    page = driver.find_element(By.TAG_NAME, "html")
    scroll_to(driver, element)
    element.click()
    # Mid-navigation, chromedriver can answer "node does not belong to the document" before it
    # settles on "stale": keep asking until it does.
    WebDriverWait(driver, 15, ignored_exceptions=(WebDriverException,)).until(EC.staleness_of(page))


def click_id(driver, element_id):
    click_and_wait(driver, by_id(driver, element_id))


def click_link(driver, link_text):
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, link_text))


def type_into(driver, **fields):
    for name, value in fields.items():
        field = by_id(driver, name)
        field.clear()
        field.send_keys(value)


def answer_tiles(driver):
    """The answer tiles of a question, as (tile, its answer's text)."""
    tiles = driver.find_elements(By.CSS_SELECTOR, "label.answer-tile")
    return [(tile, tile.find_element(By.CLASS_NAME, "answer-text").text.strip()) for tile in tiles]


def choose(driver, option_text):
    """Taps the answer tile that says exactly option_text."""
    tiles = answer_tiles(driver)
    matches = [tile for tile, label in tiles if label == option_text]
    assert matches, f"no tile {option_text!r} among {[label for _, label in tiles]}"
    scroll_to(driver, matches[0])
    matches[0].click()


def other_option(driver, option_text):
    """Any option that is not option_text: a wrong answer, when option_text is the right one."""
    return next(label for _, label in answer_tiles(driver) if label != option_text)


def register(driver, username, first="Grace", last="Hopper", password=PASSWORD, screenshot=None):
    driver.get(driver.base_url + "/register")
    if screenshot:
        screenshot(driver, "register")
    type_into(driver, first_name=first, last_name=last, username=username, password=password,
              password_confirm=password)
    click_id(driver, "register-button")


def log_in(driver, username, password):
    type_into(driver, username=username, password=password)
    click_id(driver, "login-button")


def points_label(points):
    """How the leaderboard writes a total: "1 point", "2 points"."""
    return f"{points} point{'' if points == 1 else 's'}"


def question_points(driver):
    """The points shown under the question ("Easy · 2 points")."""
    meta = driver.find_element(By.CSS_SELECTOR, ".question .meta").text
    return int(re.search(r"(\d+) points?", meta).group(1))


def my_leaderboard_row(driver):
    rows = driver.find_elements(By.CSS_SELECTOR, "#top-players li.me, #footer-row li.me")
    assert len(rows) == 1, driver.find_element(By.TAG_NAME, "main").text
    row = rows[0]
    return {part: row.find_element(By.CLASS_NAME, part).text.strip() for part in ("rank", "username", "points")}


def open_browser(browser, server, **options):
    driver = browser(**options)
    driver.base_url = server.url
    return driver


def author_signed_in(browser, server, next_path="/manage"):
    """A new author (the role given as whoever runs Quizbox would), signed in at next_path."""
    author_name = new_username("author")
    server.create_user(author_name, PASSWORD)
    server.set_role(author_name, "author")
    author = open_browser(browser, server)
    author.get(author.base_url + "/login?next=" + next_path)
    log_in(author, author_name, PASSWORD)
    return author, author_name


# MARK: - Journeys


def test_a_new_player_plays_a_quiz_from_start_to_finish_with_javascript(server, browser, screenshot):
    driver = open_browser(server=server, browser=browser, javascript=True)
    username = new_username()

    # Arrives, wants to play, has no account yet.
    driver.get(server.url + "/")
    screenshot(driver, "entry")
    click_id(driver, "play-link")
    assert path(driver).startswith("/login")
    screenshot(driver, "login")
    click_id(driver, "create-account-link")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Create account"
    register(driver, username, screenshot=screenshot)

    assert path(driver) == "/home"
    assert username in driver.find_element(By.CLASS_NAME, "whoami").text
    screenshot(driver, "home")
    click_id(driver, "tab-profile")
    assert text(driver, "profile-points") == "0"
    click_id(driver, "tab-home")

    # Home → subject → quiz.
    science = [tile for tile in driver.find_elements(By.CSS_SELECTOR, "#subjects .subject-link")
               if tile.find_element(By.CLASS_NAME, "tile-title").text == "Science"]
    assert science, text(driver, "subjects")
    click_and_wait(driver, science[0])
    assert driver.find_element(By.TAG_NAME, "h1").text == "Science"
    screenshot(driver, "subject")
    click_link(driver, "The Solar System")
    assert text(driver, "quiz-title") == "The Solar System"
    quiz_id = int(re.search(r"/quizzes/(\d+)$", path(driver)).group(1))
    question_count = int(re.search(r"(\d+) questions", driver.find_element(By.CSS_SELECTOR, ".card .meta").text).group(1))
    screenshot(driver, "quiz")
    key = server.answer_key(quiz_id)

    # The first question, open in a second tab too, to answer it twice later.
    click_id(driver, "start-quiz")
    assert f"Question 1 of {question_count}" in driver.find_element(By.CLASS_NAME, "crumbs").text
    screenshot(driver, "question-unanswered")
    first_question = text(driver, "question-text")
    first_answer = key[first_question]
    first_points = question_points(driver)
    first_tab = driver.current_window_handle
    question_url = driver.current_url
    driver.switch_to.new_window("tab")
    set_viewport(driver, driver.viewport)
    driver.get(question_url)
    second_tab = driver.current_window_handle
    driver.switch_to.window(first_tab)

    # Right.
    choose(driver, first_answer)
    click_id(driver, "submit-answer")
    assert driver.find_element(By.CSS_SELECTOR, "#feedback .verdict").text == \
        f"Right! +{first_points} point{'' if first_points == 1 else 's'}"
    assert text(driver, "your-answer") == f"Your answer: {first_answer}"
    assert text(driver, "correct-answer") == f"Correct answer: {first_answer}"
    screenshot(driver, "question-right")

    # The same question again, from the tab still showing its form: the first answer stands.
    driver.switch_to.window(second_tab)
    choose(driver, other_option(driver, first_answer))
    click_id(driver, "submit-answer")
    assert path(driver).endswith("?already=1")
    assert driver.find_element(By.CSS_SELECTOR, "#feedback .verdict").text == \
        "You already answered this question; your first answer counts."
    assert text(driver, "your-answer") == f"Your answer: {first_answer}"
    screenshot(driver, "already-answered")
    driver.close()
    driver.switch_to.window(first_tab)

    # Wrong: the page shows the correct answer and why.
    click_id(driver, "continue")
    assert f"Question 2 of {question_count}" in driver.find_element(By.CLASS_NAME, "crumbs").text
    second_question = text(driver, "question-text")
    second_answer = key[second_question]
    wrong = other_option(driver, second_answer)
    choose(driver, wrong)
    click_id(driver, "submit-answer")
    assert driver.find_element(By.CSS_SELECTOR, "#feedback .verdict").text == "Not quite."
    assert text(driver, "your-answer") == f"Your answer: {wrong}"
    assert text(driver, "correct-answer") == f"Correct answer: {second_answer}"
    assert text(driver, "explanation")
    screenshot(driver, "question-wrong")

    # History: both answers, newest first or not, each with its verdict.
    click_id(driver, "history-link")
    items = driver.find_elements(By.CSS_SELECTOR, "#history .history-item")
    seen = {item.find_element(By.CLASS_NAME, "qtext").text: item.find_element(By.CLASS_NAME, "badge").text
            for item in items}
    assert seen == {first_question: "Right", second_question: "Wrong"}
    screenshot(driver, "history")
    wrong_item = next(item for item in items if item.find_element(By.CLASS_NAME, "qtext").text == second_question)
    click_and_wait(driver, wrong_item)
    assert text(driver, "question-text") == second_question
    assert text(driver, "your-answer") == f"Your answer: {wrong}"
    assert text(driver, "correct-answer") == f"Correct answer: {second_answer}"
    screenshot(driver, "history-question")

    # The list of questions, then finish.
    click_id(driver, "back-to-list")
    assert text(driver, "progress") == f"2 of {question_count} answered · 1 right"
    statuses = [item.find_element(By.CLASS_NAME, "badge").text
                for item in driver.find_elements(By.CSS_SELECTOR, "#question-list li")]
    assert len(statuses) == question_count
    assert sorted(statuses[:2]) == ["Right", "Wrong"] and set(statuses[2:]) == {"Unanswered"}
    screenshot(driver, "attempt-list")
    click_id(driver, "finish-quiz")
    assert path(driver).endswith("/result")
    assert text(driver, "score") == f"1 of {question_count} right"
    assert text(driver, "points-earned").startswith(f"{first_points} of ")
    assert text(driver, "total-points") == str(first_points)
    rank = text(driver, "rank")
    assert rank.isdigit()
    screenshot(driver, "result")

    # Leaderboard and profile agree with the result.
    click_id(driver, "tab-leaderboard")
    assert my_leaderboard_row(driver) == {"rank": rank, "username": username,
                                          "points": points_label(first_points)}
    screenshot(driver, "leaderboard")
    click_id(driver, "tab-profile")
    assert text(driver, "profile-username") == username
    assert text(driver, "profile-name") == "Grace Hopper"
    assert text(driver, "profile-points") == str(first_points)
    assert text(driver, "profile-rank") == rank
    assert text(driver, "profile-finished") == "1"
    screenshot(driver, "profile")

    # The other pages a player can reach.
    click_id(driver, "tab-quizzes")
    assert "The Solar System" in [link.text for link in driver.find_elements(By.CSS_SELECTOR, "#quiz-list .quiz-link")]
    screenshot(driver, "quizzes")
    click_id(driver, "contact-link")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Contact"
    assert text(driver, "contact-email")
    screenshot(driver, "contact")
    driver.get(server.url + "/")
    click_id(driver, "manage-link")
    requirement = text(driver, "manage-requirement")
    assert "author" in requirement and "You are signed in as a player" in requirement
    assert not driver.find_elements(By.ID, "import-form")
    screenshot(driver, "manage")

    # Log out, and back in.
    click_id(driver, "tab-profile")
    click_id(driver, "logout-button")
    assert path(driver).startswith("/login")
    assert not driver.find_elements(By.ID, "tab-home")
    driver.get(server.url + "/profile")
    assert path(driver).startswith("/login")
    log_in(driver, username, PASSWORD)
    assert path(driver) == "/profile"
    assert text(driver, "profile-points") == str(first_points)


def test_the_core_journey_works_without_javascript_on_a_phone(server, browser):
    driver = open_browser(server=server, browser=browser, javascript=False, size=PHONE)
    username = new_username("nojs")

    register(driver, username)
    assert path(driver) == "/home"
    click_id(driver, "tab-quizzes")
    click_link(driver, "The Solar System")
    key = server.answer_key(int(path(driver).rsplit("/", 1)[1]))
    click_id(driver, "start-quiz")
    answer = key[text(driver, "question-text")]
    points = question_points(driver)
    choose(driver, answer)
    click_id(driver, "submit-answer")
    assert driver.find_element(By.CSS_SELECTOR, "#feedback .verdict").text.startswith("Right!")

    click_id(driver, "back-to-list")
    click_id(driver, "finish-quiz")
    assert text(driver, "score").startswith("1 of ")
    assert text(driver, "total-points") == str(points)
    rank = text(driver, "rank")

    click_id(driver, "tab-leaderboard")
    assert my_leaderboard_row(driver) == {"rank": rank, "username": username, "points": points_label(points)}


# MARK: - Mistakes a person notices


def test_a_wrong_password_does_not_say_which_field_was_wrong(server, browser, screenshot):
    server.create_user("ada", PASSWORD)
    driver = open_browser(server=server, browser=browser)

    driver.get(server.url + "/login")
    log_in(driver, "ada", "not the password")
    assert path(driver).startswith("/login")
    wrong_password = text(driver, "feedback")
    assert by_id(driver, "username").get_attribute("value") == "ada"
    assert by_id(driver, "password").get_attribute("value") == ""
    screenshot(driver, "login-wrong-password")

    log_in(driver, "nobody-by-this-name", "not the password")
    # The same words whether the username or the password was wrong.
    assert text(driver, "feedback") == wrong_password == "Wrong username or password."

    log_in(driver, "ada", PASSWORD)
    assert path(driver) == "/home"


def test_a_taken_username_is_marked_and_the_names_typed_are_kept(server, browser, screenshot):
    server.create_user("grace", PASSWORD)
    driver = open_browser(server=server, browser=browser)

    register(driver, "grace", first="Grace", last="Brewster")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Create account"
    assert text(driver, "error-username") == "That username is taken. Try another."
    assert by_id(driver, "username").get_attribute("aria-invalid") == "true"
    assert not driver.find_elements(By.CSS_SELECTOR, ".field-error:not(#error-username)")
    assert by_id(driver, "first_name").get_attribute("value") == "Grace"
    assert by_id(driver, "last_name").get_attribute("value") == "Brewster"
    assert by_id(driver, "password").get_attribute("value") == ""
    screenshot(driver, "register-username-taken")

    type_into(driver, username="grace-2", password=PASSWORD, password_confirm=PASSWORD)
    click_id(driver, "register-button")
    assert path(driver) == "/home"


def test_an_unknown_page_shows_the_styled_not_found_page(server, browser, screenshot):
    driver = open_browser(server=server, browser=browser)

    driver.get(server.url + "/no-such-page")
    assert server.status_of("/no-such-page") == 404
    assert driver.title == "Page not found · Quizbox"
    assert text(driver, "error-title") == "Page not found"
    assert text(driver, "error-message")
    # Styled: the app's stylesheet applies (cards have rounded corners) and the header is there.
    assert driver.find_element(By.CSS_SELECTOR, ".error-page").value_of_css_property("border-radius") == "12px"
    assert driver.find_element(By.CLASS_NAME, "brand").text == "Quizbox"
    screenshot(driver, "not-found")
    click_link(driver, "Back to the start")
    assert by_id(driver, "play-link")


# MARK: - Ways to play (issue 5)


def test_a_player_practises_true_or_false_with_a_countdown(server, browser, screenshot):
    driver = open_browser(server=server, browser=browser, javascript=True)
    register(driver, new_username("practice"))
    click_id(driver, "mode-practice")
    screenshot(driver, "practice-settings")
    type_into(driver, count="2")
    kind = driver.find_element(By.CSS_SELECTOR, 'input[name="kind"][value="trueFalse"]')
    scroll_to(driver, kind)
    kind.click()
    driver.find_element(By.CSS_SELECTOR, '#time-limit option[value="30"]').click()
    click_id(driver, "start-practice")

    # A timed question: the countdown runs in the page (the server keeps the real clock).
    assert "Question 1 of 2" in driver.find_element(By.CLASS_NAME, "crumbs").text
    start = int(text(driver, "seconds-left"))
    assert 25 <= start <= 30
    WebDriverWait(driver, 10).until(lambda d: int(text(d, "seconds-left")) < start)
    screenshot(driver, "practice-timed-question")
    choose(driver, "True")
    click_id(driver, "submit-answer")
    assert driver.find_element(By.CSS_SELECTOR, "#feedback .verdict").text in ("Right! +1 point", "Not quite.") \
        or driver.find_element(By.CSS_SELECTOR, "#feedback .verdict").text.startswith("Right!")
    click_id(driver, "continue")
    choose(driver, "False")
    click_id(driver, "submit-answer")
    click_id(driver, "finish-quiz")
    assert "of 2 right" in text(driver, "score")
    screenshot(driver, "practice-result")

    # The settings are remembered for next time.
    driver.get(server.url + "/practice")
    assert driver.find_element(By.ID, "count").get_attribute("value") == "2"
    assert driver.find_element(By.CSS_SELECTOR, 'input[name="kind"][value="trueFalse"]').is_selected()
    assert driver.find_element(By.CSS_SELECTOR, '#time-limit option[value="30"]').is_selected()


def test_a_random_question_on_a_phone_without_javascript_has_a_shareable_address(server, browser, screenshot):
    driver = open_browser(server=server, browser=browser, javascript=False, size=PHONE)
    register(driver, new_username("random"))
    click_id(driver, "mode-random")
    screenshot(driver, "random-form")
    click_id(driver, "random-go")
    assert re.fullmatch(r"/questions/\d+", path(driver)), path(driver)
    question_url = driver.current_url
    question = text(driver, "question-text")
    tiles = answer_tiles(driver)
    if tiles:
        choose(driver, tiles[0][1])
    else:
        field = driver.find_elements(By.ID, "answer-text") or driver.find_elements(By.ID, "answer-number")
        field[0].send_keys("42")
    click_id(driver, "submit-answer")
    assert text(driver, "correct-answer").startswith("Correct answer: ")
    assert text(driver, "points-note")
    screenshot(driver, "random-result")
    click_id(driver, "share-link")
    assert driver.current_url == question_url
    assert text(driver, "question-text") == question


def test_naming_the_planets_as_you_type_then_giving_up(server, browser, screenshot):
    driver = open_browser(server=server, browser=browser, javascript=True)
    register(driver, new_username("namer"))
    click_id(driver, "mode-games")
    screenshot(driver, "games")
    planets = [item for item in driver.find_elements(By.CSS_SELECTOR, "#games li")
               if "planets" in item.find_element(By.CLASS_NAME, "quiz-link").text]
    assert planets, text(driver, "games")
    click_and_wait(driver, planets[0].find_element(By.CLASS_NAME, "start-game"))
    assert text(driver, "found-count") == "0"
    assert len(driver.find_elements(By.CSS_SELECTOR, "#items li.item-blank")) == 8

    # No Enter: each name is taken as soon as it is typed, and the box empties for the next.
    guess = by_id(driver, "guess")
    for count, name in enumerate(["mars", "The Earth", "jupiter"], start=1):
        guess.send_keys(name)
        WebDriverWait(driver, 10).until(lambda d: text(d, "found-count") == str(count))
        WebDriverWait(driver, 10).until(lambda d: by_id(d, "guess").get_attribute("value") == "")
    found = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#items li.item-found")]
    assert sorted(found) == ["Earth", "Jupiter", "Mars"]
    # A wrong guess, sent with Enter, is answered in words and leaves the box empty for the next.
    guess.send_keys("Pluto\n")
    WebDriverWait(driver, 10).until(lambda d: text(d, "guess-feedback") == "\u201cPluto\u201d is not on the list.")
    assert by_id(driver, "guess").get_attribute("value") == ""
    screenshot(driver, "game-playing")

    click_id(driver, "give-up")
    assert text(driver, "game-over").startswith("You gave up.")
    assert text(driver, "game-points") == "3 points"
    missed = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#items li.item-missed")]
    assert "Mercury" in missed and "Neptune" in missed and "Mars" not in missed
    screenshot(driver, "game-over")
def test_an_author_publishes_a_new_quiz_and_a_player_finds_and_answers_it(server, browser, screenshot):
    author, _ = author_signed_in(browser, server)
    click_id(author, "manage-catalog-link")
    title = f"Opera {uuid.uuid4().hex[:6]}"

    type_into(author, name="Music", description="Sounds and songs")
    click_id(author, "create-subject")
    assert "Created." in text(author, "notice")
    click_link(author, "Music")
    type_into(author, **{"child-name": "Opera"})
    click_id(author, "create-child")
    click_link(author, "Opera")
    type_into(author, **{"child-name": title})
    click_id(author, "create-child")
    assert "Players cannot see this quiz yet." in text(author, "publishing")
    screenshot(author, "manage-quiz")

    click_id(author, "new-question")
    type_into(author, text="Who wrote Tosca?", **{"choice-1": "Puccini", "choice-2": "Verdi"})
    checkbox = author.find_elements(By.NAME, "choice_correct")[0]
    scroll_to(author, checkbox)
    checkbox.click()
    screenshot(author, "manage-question")
    click_id(author, "save-question")
    assert "Who wrote Tosca?" in text(author, "quiz-questions")
    assert "Puccini ✓" in text(author, "preview")

    player = open_browser(browser, server, size=PHONE)
    register(player, new_username())
    player.get(player.base_url + "/quizzes")
    assert title not in player.find_element(By.TAG_NAME, "main").text, "a draft is invisible to players"

    click_id(author, "publish-quiz")
    assert "Published" in text(author, "notice")
    author.get(author.base_url + "/manage/catalog")
    screenshot(author, "manage-catalog")

    player.get(player.base_url + "/home")
    assert "Music" in text(player, "subjects")
    player.get(player.base_url + "/quizzes")
    click_link(player, title)
    click_id(player, "start-quiz")
    assert text(player, "question-text") == "Who wrote Tosca?"
    choose(player, "Puccini")
    click_id(player, "submit-answer")
    assert "Puccini" in text(player, "correct-answer")
    assert "right" in by_id(player, "feedback").get_attribute("class")
def test_an_author_uploads_a_file_previews_it_and_imports_it(server, browser, tmp_path, screenshot):
    username = new_username("author")
    # As whoever runs the Quizbox would: an author account made with the command line.
    subprocess.run([str(BINARY), "user", "create", username, "--role", "author", "--database", str(server.database)],
                   input=PASSWORD + "\n", text=True, check=True, capture_output=True, cwd=server.directory,
                   env={**os.environ, "QUIZBOX_BCRYPT_COST": "4"})
    bank = tmp_path / "rome.gift"
    bank.write_text("$CATEGORY: $course$/History/Rome\n\n"
                    "Who was the first Roman emperor? {=Augustus ~Nero ~Caligula}\n\n"
                    "Rome was founded in 753 BC. {T}\n\n"
                    "Broken {=A ~B\n")
    driver = open_browser(server=server, browser=browser)
    driver.get(server.url + "/login?next=/manage")
    log_in(driver, username, PASSWORD)
    assert path(driver) == "/manage"

    by_id(driver, "file").send_keys(str(bank))
    click_id(driver, "preview-button")
    assert "Nothing was imported" in text(driver, "import-feedback")
    assert "line 7" in text(driver, "import-problems")

    # The file stays on the server after its preview: tick the box and preview again, no new upload.
    assert "rome.gift" in text(driver, "upload-kept")
    scroll_to(driver, by_id(driver, "skip_invalid"))
    by_id(driver, "skip_invalid").click()
    click_id(driver, "preview-button")
    feedback = text(driver, "import-feedback")
    assert "Read as gift: 2 questions (1 single choice, 1 true or false)" in feedback, feedback
    assert "Skipped: line 7" in text(driver, "import-problems")
    assert "rome.gift" in text(driver, "upload-kept")
    screenshot(driver, "manage-preview")

    # Import stores the previewed file without choosing it a third time.
    click_id(driver, "import-button")
    assert "Imported 2 questions into a new quiz." in text(driver, "import-feedback")
    titles = [link.text for link in driver.find_elements(By.CSS_SELECTOR, "#manage-quizzes .quiz-link")]
    assert "rome" in titles, titles


def serve_feed(pages):
    """A news site on loopback: path → (content type, body). Returns (base URL, stop function)."""
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            found = pages.get(self.path)
            self.send_response(200 if found else 404)
            body = (found[1] if found else "not found").encode()
            self.send_header("Content-Type", found[0] if found else "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{site.server_address[1]}", site.shutdown


def test_news_from_a_feed_is_read_through_quizbox_and_an_author_links_a_quiz(server, browser, screenshot):
    pages = {}
    site, stop_site = serve_feed(pages)
    try:
        pages["/comet.html"] = ("text/html", "<!doctype html><title>Comet</title><h1 id=story>The comet story</h1>")
        pages["/feed.xml"] = ("application/rss+xml", f"""<?xml version="1.0"?>
<rss version="2.0"><channel><title>Loopback Times</title>
<item><title>&lt;b&gt;Comet&lt;/b&gt; seen tonight</title><link>{site}/comet.html</link>
<description>&lt;p&gt;Look &lt;em&gt;up&lt;/em&gt;.&lt;/p&gt;</description><pubDate>Sun, 15 Nov 2026 20:00:00 GMT</pubDate></item>
<item><title>No link here</title></item>
</channel></rss>""")
        # As whoever runs the Quizbox would: the command line on the same database.
        imported = subprocess.run([str(BINARY), "articles", "import-feed", site + "/feed.xml", "--database", str(server.database)],
                                  text=True, capture_output=True, cwd=server.directory, timeout=120)
        assert imported.returncode == 0, imported.stdout + imported.stderr
        assert "Imported 1 article(s) from Loopback Times" in imported.stdout
        assert "line 5" in imported.stdout

        author_name = new_username("author")
        server.create_user(author_name, PASSWORD)
        server.set_role(author_name, "author")
        author = open_browser(browser, server, javascript=False)
        author.get(author.base_url + "/login?next=/manage")
        log_in(author, author_name, PASSWORD)
        click_id(author, "manage-articles-link")
        type_into(author, title="Quizbox 2.0 released", source_name="Quizbox blog", url="javascript:alert(1)",
                  summary="Now with news.")
        click_id(author, "save-article")
        assert "http or https" in text(author, "error-url")
        type_into(author, url=site + "/comet.html?release")
        quiz_choice = Select(by_id(author, "quiz_id"))
        quiz_choice.select_by_index(1)
        click_id(author, "save-article")
        assert "Article added." in text(author, "notice")
        author.get(author.base_url + "/manage/articles")
        screenshot(author, "manage-articles")

        player = open_browser(browser, server, size=PHONE, javascript=False)
        register(player, new_username())
        assert not by_id(player, "tab-articles").is_displayed(), "six tabs do not fit a phone"
        click_id(player, "mode-news")
        news = text(player, "article-list")
        assert "<b>Comet</b> seen tonight" in news, "markup from a feed is shown as text"
        assert "Look up." in news
        assert "Loopback Times · 15 Nov 2026" in news
        screenshot(player, "articles")
        comet = player.find_elements(By.CSS_SELECTOR, "#article-list .read-link")[-1]
        click_and_wait(player, comet)
        assert player.current_url == site + "/comet.html"
        assert text(player, "story") == "The comet story"

        player.get(player.base_url + "/profile")
        assert "<b>Comet</b> seen tonight" in text(player, "articles-read")
        player.get(player.base_url + "/quizzes")
        assert "About: Quizbox 2.0 released" in player.find_element(By.TAG_NAME, "main").text
    finally:
        stop_site()
# The smallest PNG: one transparent pixel.
TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000b49444154789c6360000200000500017a5eab3f0000000049454e44ae426082")


def test_a_player_follows_someone_posts_a_picture_and_scrolls_the_feed(server, browser, tmp_path, screenshot):
    # Someone to follow, who has posted more than one page of the feed, and one news article.
    friend = new_username("friend")
    server.create_user(friend, PASSWORD, first="Ada", last="Lovelace")
    _, session = server.api("POST", "/sessions", {"username": friend, "password": PASSWORD})
    for number in range(1, 26):
        status, body = server.api("POST", "/posts", {"text": f"Note {number} from Ada"}, token=session["token"])
        assert status == 201, body
    import sqlite3
    with sqlite3.connect(server.database, timeout=10) as db:
        db.execute("INSERT INTO articles (title, summary, source_name, url, published_at, dedupe_key, quiz_id, created_at) "
                   "VALUES ('Comet seen over Europe', 'Astronomers saw a bright comet.', 'Sky Wire', "
                   "'https://example.org/comet', 1, 'comet', 1, 0)")

    driver = open_browser(server=server, browser=browser)
    username = new_username()
    register(driver, username)

    # Find her by name, follow her from her page.
    click_id(driver, "tab-feed")
    click_id(driver, "find-people")
    type_into(driver, **{"people-q": "lovelace"})
    click_id(driver, "people-search-button")
    click_link(driver, "Ada Lovelace")
    assert text(driver, "user-followers") == "0 followers"
    click_id(driver, "follow-button")
    assert text(driver, "user-followers") == "1 follower"
    assert by_id(driver, "unfollow-button")
    screenshot(driver, "user-page")

    # Her posts are in the feed, newest first, with a news card after the tenth.
    click_id(driver, "tab-feed")
    posts = [p.text for p in driver.find_elements(By.CSS_SELECTOR, "#feed-items .post-body")]
    assert posts[0] == "Note 25 from Ada", posts
    card = driver.find_element(By.CSS_SELECTOR, "#feed-items .news-card")
    assert "Comet seen over Europe" in card.text and "Sky Wire" in card.text
    assert card.find_element(By.LINK_TEXT, "Take the quiz").get_attribute("href").endswith("/quizzes/1")

    # A post with a picture goes to the top of the feed.
    picture = tmp_path / "dot.png"
    picture.write_bytes(TINY_PNG)
    type_into(driver, **{"post-text": "My first <b>post</b>"})
    by_id(driver, "post-image").send_keys(str(picture))
    click_id(driver, "post-button")
    first = driver.find_elements(By.CSS_SELECTOR, "#feed-items .post")[0]
    assert first.find_element(By.CLASS_NAME, "post-body").text == "My first <b>post</b>"
    image = first.find_element(By.CLASS_NAME, "post-image")
    assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 1
    scroll_to(driver, driver.find_element(By.CSS_SELECTOR, "#feed-items .news-card"))
    screenshot(driver, "feed")

    # Scrolling to the end loads the older posts without leaving the page. (Afresh: the screenshots'
    # resizing may already have brought the end into view and loaded them.)
    driver.get(server.url + "/feed")
    assert "Note 1 from Ada" not in [p.text for p in driver.find_elements(By.CSS_SELECTOR, "#feed-items .post-body")]
    scroll_to(driver, by_id(driver, "feed-more"))
    WebDriverWait(driver, 15).until(
        lambda d: "Note 1 from Ada" in [p.text for p in d.find_elements(By.CSS_SELECTOR, "#feed-items .post-body")])
    assert "cursor" not in path(driver)  # still the first page's address
    assert not driver.find_elements(By.ID, "feed-more")


def test_the_feed_pages_with_a_more_link_without_javascript(server, browser):
    friend = new_username("friend")
    server.create_user(friend, PASSWORD)
    _, session = server.api("POST", "/sessions", {"username": friend, "password": PASSWORD})
    for number in range(1, 23):
        server.api("POST", "/posts", {"text": f"Entry {number}"}, token=session["token"])
    driver = open_browser(server=server, browser=browser, javascript=False, size=PHONE)
    register(driver, new_username())
    driver.get(server.url + "/users/" + friend)
    click_id(driver, "follow-button")
    click_id(driver, "tab-feed")
    assert "Entry 1" not in [p.text for p in driver.find_elements(By.CSS_SELECTOR, ".post-body")]
    click_id(driver, "feed-more")
    assert [p.text for p in driver.find_elements(By.CSS_SELECTOR, ".post-body")] == ["Entry 2", "Entry 1"]
