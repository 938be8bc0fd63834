"""What a new player tripped over, checked in a real browser: a long title on a phone, the
practice offer out of sight, a post deleted without asking, a quiz that could never be finished.
"""

import sqlite3
import subprocess

from conftest import BINARY, PHONE, set_viewport
from selenium.webdriver.common.by import By
from test_journeys import PASSWORD, by_id, click_and_wait, click_id, new_username, open_browser, register, text


def test_a_long_quiz_title_does_not_push_the_page_sideways_on_a_phone(server, browser, tmp_path):
    title = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 3
    bank = tmp_path / "long.gift"
    bank.write_text("$CATEGORY: $course$/Words/Long\n\nIs this word long? {T}\n")
    subprocess.run([str(BINARY), "import", str(bank), "--quiz-title", title, "--database", str(server.database)],
                   cwd=server.directory, check=True, capture_output=True, text=True, timeout=60)
    with sqlite3.connect(server.database, timeout=10) as db:
        db.execute("UPDATE quizzes SET published = 1 WHERE title = ?", (title,))
    driver = open_browser(server=server, browser=browser)
    set_viewport(driver, PHONE)
    register(driver, new_username())
    driver.get(server.url + "/quizzes")
    assert title in text(driver, "quiz-list")
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the phone"
    # The tab bar is still on screen, whole.
    bar = driver.execute_script("var r = document.querySelector('.tabbar').getBoundingClientRect(); return [r.left, r.right]")
    assert bar[0] >= 0 and bar[1] <= PHONE[0]


def test_the_footer_is_not_hidden_under_the_phone_tab_bar(server, browser):
    driver = open_browser(server=server, browser=browser)
    set_viewport(driver, PHONE)
    register(driver, new_username())
    for page in ("/home", "/leaderboard", "/profile"):
        driver.get(server.url + page)
        driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        footer, bar = driver.execute_script(
            "return [document.getElementById('contact-link').getBoundingClientRect().bottom,"
            " document.querySelector('.tabbar').getBoundingClientRect().top]")
        assert footer <= bar, f"{page}: the footer's link ends at {footer} px, under the tab bar from {bar} px"
        # And a tap on it reaches it, not the bar.
        hit = driver.execute_script("var r = document.getElementById('contact-link').getBoundingClientRect();"
                                    " return document.elementFromPoint(r.left + 2, r.top + r.height / 2).id")
        assert hit == "contact-link", page


def test_practice_offers_the_questions_left_right_under_its_notice(server, browser):
    driver = open_browser(server=server, browser=browser)
    set_viewport(driver, PHONE)
    register(driver, new_username())
    driver.get(server.url + "/practice")
    # One topic holds fewer than 50 questions.
    driver.find_elements(By.CSS_SELECTOR, "input[name=topic]")[0].click()
    count = by_id(driver, "count")
    count.clear()
    count.send_keys("50")
    click_id(driver, "start-practice")
    offer = by_id(driver, "play-fewer")
    notice = by_id(driver, "practice-fewer")
    assert offer.text.startswith("Practise with ") and offer.text.endswith("questions"), offer.text
    # Inside the notice, so on screen with it: not a phone's screen or more below.
    assert driver.execute_script("return arguments[0].contains(arguments[1])", notice, offer)
    assert offer.location["y"] < PHONE[1]
    click_id(driver, "play-fewer")
    assert "/play/" in driver.current_url


def test_deleting_a_post_asks_first(server, browser):
    driver = open_browser(server=server, browser=browser)
    register(driver, new_username())
    driver.get(server.url + "/feed")
    by_id(driver, "post-text").send_keys("A post I will regret")
    click_id(driver, "post-button")
    post = driver.find_elements(By.CSS_SELECTOR, "#feed-items .post")[0]
    post_id = post.get_attribute("id").removeprefix("post-")
    # Its time reads as people say it, the exact time on hover.
    when = post.find_element(By.TAG_NAME, "time")
    assert when.text == "just now" and when.get_attribute("title").endswith("UTC"), (when.text, when.get_attribute("title"))
    confirm = by_id(driver, f"confirm-delete-post-{post_id}")
    assert not confirm.is_displayed(), "the delete button itself deletes nothing"
    by_id(driver, f"delete-post-{post_id}").click()
    assert confirm.is_displayed() and "for good" in post.text
    click_id(driver, f"confirm-delete-post-{post_id}")
    assert "A post I will regret" not in driver.find_element(By.TAG_NAME, "main").text


def test_a_name_them_all_question_is_not_offered_to_a_quiz(server, browser):
    author = new_username("author")
    server.create_user(author, PASSWORD)
    server.set_role(author, "author")
    driver = open_browser(server=server, browser=browser)
    driver.get(server.url + "/login")
    by_id(driver, "username").send_keys(author)
    by_id(driver, "password").send_keys(PASSWORD)
    click_id(driver, "login-button")
    # The starter quiz on the Solar System; its topic's bank has "Name all the planets".
    driver.get(server.url + "/manage/quizzes/1")
    available = text(driver, "available-questions") if driver.find_elements(By.ID, "available-questions") else ""
    assert "Name all the planets" not in available
    assert "played on its own from Games" in text(driver, "games-note")
    # A new question for the quiz cannot be made one either.
    click_id(driver, "new-question")
    kinds = [option.get_attribute("value") for option in driver.find_elements(By.CSS_SELECTOR, "#kind option")]
    assert "nameAll" not in kinds and "singleChoice" in kinds


def test_the_register_form_marks_every_mistake_at_once(server, browser):
    driver = open_browser(server=server, browser=browser)
    driver.get(server.url + "/register")
    fields = {"first_name": "A" * 300, "last_name": "Hopper", "username": "b" * 40,
              "password": "a long enough password", "password_confirm": "another password"}
    for name, value in fields.items():
        by_id(driver, name).send_keys(value)
    click_id(driver, "register-button")
    marked = {element.get_attribute("id") for element in driver.find_elements(By.CSS_SELECTOR, "[aria-invalid=true]")}
    assert marked == {"first_name", "username", "password_confirm"}, marked
    assert "at most 100 characters" in text(driver, "error-first_name")
    assert "3 to 32 characters" in text(driver, "error-username")
    assert text(driver, "error-password_confirm") == "The two passwords differ."
    # What was typed stays, but never a password.
    assert by_id(driver, "last_name").get_attribute("value") == "Hopper"
    assert by_id(driver, "password").get_attribute("value") == ""


def test_answer_tiles_answer_by_keyboard_and_show_the_progress(server, browser, screenshot):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    driver = open_browser(server=server, browser=browser)
    set_viewport(driver, PHONE)
    register(driver, new_username())
    driver.get(server.url + "/quizzes/1")
    click_id(driver, "start-quiz")
    tiles = driver.find_elements(By.CSS_SELECTOR, "label.answer-tile")
    assert len(tiles) >= 2
    tile_texts = [tile.find_element(By.CLASS_NAME, "answer-text").text for tile in tiles]
    # Every tile has its own colour and shape, and its key.
    assert len({tile.get_attribute("class") for tile in tiles}) == len(tiles)
    assert [tile.find_element(By.CLASS_NAME, "key").text for tile in tiles] == [str(n) for n in range(1, len(tiles) + 1)]
    progress = by_id(driver, "quiz-progress")
    assert progress.get_attribute("value") == "1" and int(progress.get_attribute("max")) >= 2
    screenshot(driver, "question-tiles")
    ActionChains(driver).send_keys("2").perform()
    inputs = driver.find_elements(By.CSS_SELECTOR, "label.answer-tile .tile-input")
    assert [field.is_selected() for field in inputs][:2] == [False, True]
    # The picked tile, and only it, wears the "Chosen" badge.
    badges = [tile.find_element(By.CLASS_NAME, "chosen") for tile in tiles]
    assert [badge.is_displayed() for badge in badges][:2] == [False, True]
    assert badges[1].get_attribute("textContent") == "Chosen"
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    assert by_id(driver, "feedback").is_displayed()
    screenshot(driver, "question-tiles-answered")
    # The tiles stay after the answer: the right one marked, the player's own marked too.
    answered = driver.find_elements(By.CSS_SELECTOR, "#answered-tiles .answer-tile")
    assert len(answered) == len(tile_texts)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#answered-tiles .is-correct")) == 1
    given = driver.find_elements(By.CSS_SELECTOR, "#answered-tiles .is-given")
    assert len(given) == 1 and given[0].find_element(By.CLASS_NAME, "answer-text").text == tile_texts[1]
    assert "Right" in by_id(driver, "answered-tiles").text


def test_the_leaderboard_puts_the_top_on_a_podium_and_you_in_words(server, browser, screenshot):
    driver = open_browser(server=server, browser=browser)
    set_viewport(driver, PHONE)
    me = new_username()
    register(driver, me)
    driver.get(server.url + "/quizzes/1")
    click_id(driver, "start-quiz")
    driver.find_elements(By.CSS_SELECTOR, "label.answer-tile")[0].click()
    click_id(driver, "submit-answer")
    driver.get(server.url + "/leaderboard")
    rows = driver.find_elements(By.CSS_SELECTOR, "#top-players li")
    mine = [row for row in rows if "me" in row.get_attribute("class").split()]
    assert len(mine) == 1
    # In the list, so no second row under it: the highlight says where you are.
    assert not driver.find_elements(By.ID, "footer-row")
    assert "you" in mine[0].text.lower()
    link = mine[0].find_element(By.CLASS_NAME, "username")
    assert link.get_attribute("href").endswith(f"/users/{me}")
    screenshot(driver, "leaderboard-podium")
    link.click()
    assert text(driver, "user-username") == me


def test_small_things_a_new_player_noticed(server, browser):
    driver = open_browser(server=server, browser=browser)
    set_viewport(driver, PHONE)
    me = new_username()
    register(driver, me)
    other = new_username("friend")
    server.create_user(other, PASSWORD)

    # An address with a word where a number goes is a page that does not exist, not a type error.
    for address in ("/quizzes/abc", "/questions/abc"):
        driver.get(server.url + address)
        assert driver.title == "Page not found · Quizbox", address
        assert "Int64" not in driver.find_element(By.TAG_NAME, "body").text

    # The profile links to your own page, as others see it.
    driver.get(server.url + "/profile")
    click_id(driver, "profile-own-page")
    assert driver.current_url.endswith(f"/users/{me}")

    # People found by a search can be followed from the list, which then offers to unfollow.
    driver.get(server.url + f"/people?q={other}")
    row = driver.find_element(By.CSS_SELECTOR, "#people-results li")
    click_and_wait(driver, row.find_element(By.CSS_SELECTOR, "button[aria-label^='Follow']"))
    row = driver.find_element(By.CSS_SELECTOR, "#people-results li")
    assert row.find_element(By.CSS_SELECTOR, "button").text == "Unfollow"
    assert driver.current_url.endswith(f"/people?q={other}")
    driver.get(server.url + f"/users/{other}")
    assert text(driver, "user-followers") == "1 follower"
