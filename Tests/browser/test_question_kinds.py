"""The new question kinds (issue 31) in real Chromium, as a player on a phone meets them: an
ordering put right with its Move up buttons, a matching with selects, a gap fill typed into its
text, a poll whose answers so far are shown after voting, and an estimate's slider, with axe-core
finding no serious problem on any of them, light or dark."""

from conftest import PHONE
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_journeys import by_id, click_id, new_username, open_browser, register, scroll_to, text
from test_play_finished import axe

ORDER = ["Rome", "Paris", "Helsinki", "Brasília"]


def published_quiz(server, title, questions):
    """A published quiz of `questions` (the API's question shapes), made through the API by a new author; its id."""
    author = new_username("author")
    server.create_user(author, "author-password")
    server.set_role(author, "author")
    _, session = server.api("POST", "/sessions", {"username": author, "password": "author-password"})
    token = session["token"]
    _, subject = server.api("POST", "/manage/subjects", {"name": title, "description": ""}, token=token)
    _, topic = server.api("POST", f"/manage/subjects/{subject['id']}/topics", {"name": title}, token=token)
    ids = []
    for question in questions:
        status, created = server.api("POST", f"/manage/topics/{topic['id']}/questions", question, token=token)
        assert status == 201, created
        ids.append(created["id"])
    _, quiz = server.api("POST", f"/manage/topics/{topic['id']}/quizzes", {"title": title}, token=token)
    assert server.api("PUT", f"/manage/quizzes/{quiz['id']}/questions", {"questionIds": ids}, token=token)[0] == 204
    assert server.api("PATCH", f"/manage/quizzes/{quiz['id']}", {"published": True}, token=token)[0] == 204
    return quiz["id"]


def kinds_quiz(server):
    """A published quiz of the new kinds, made through the API by a new author; its id."""
    return published_quiz(server, "New kinds", [
        {"kind": "ordering", "text": "Oldest first", "points": 4, "order": ORDER},
        {"kind": "matching", "text": "Capitals", "points": 2,
         "pairs": [{"prompt": "Finland", "answer": "Helsinki"}, {"prompt": "Sweden", "answer": "Stockholm"}], "extras": ["Oslo"]},
        {"kind": "gapFill", "text": "Fill the gaps", "passage": "The [[1]] flows through [[2]].",
         "gaps": [{"kind": "choice", "answers": [{"text": "Seine"}, {"text": "Rhine", "fraction": 0}]},
                  {"kind": "typed", "answers": [{"text": "Paris"}]}]},
        {"kind": "poll", "text": "Tea or coffee?", "choices": [{"text": "Tea", "correct": False}, {"text": "Coffee", "correct": False}]},
        {"kind": "estimate", "text": "Moon landing?", "points": 10, "minimum": 1900, "maximum": 2000, "step": 1, "value": 1969,
         "margin": 10},
    ])


def item_texts(driver):
    return [item.find_element(By.CSS_SELECTOR, ".order-text").text for item in driver.find_elements(By.CSS_SELECTOR, ".order-item")]


def test_a_player_on_a_phone_plays_every_new_kind(server, browser, screenshot):
    quiz_id = kinds_quiz(server)
    driver = open_browser(browser, server, size=PHONE)
    register(driver, new_username("kinds"))
    driver.get(server.url + f"/quizzes/{quiz_id}")
    click_id(driver, "start-quiz")
    found = []

    # Ordering: the Move up buttons put the items right, and keep each place select in step.
    assert set(item_texts(driver)) == set(ORDER)
    axe(driver, "ordering", found)
    for target, wanted in enumerate(ORDER):
        while item_texts(driver).index(wanted) > target:
            index = item_texts(driver).index(wanted)
            button = driver.find_elements(By.CSS_SELECTOR, ".order-item")[index].find_elements(By.CSS_SELECTOR, ".order-move")[0]
            assert button.get_attribute("aria-label") == f"Move “{wanted}” up"
            scroll_to(driver, button)
            button.click()
    assert item_texts(driver) == ORDER
    places = [Select(item.find_element(By.TAG_NAME, "select")).first_selected_option.text
              for item in driver.find_elements(By.CSS_SELECTOR, ".order-item")]
    assert places == ["1", "2", "3", "4"]
    screenshot(driver, "question-ordering")
    click_id(driver, "submit-answer")
    assert "Right! +4 points" in text(driver, "verdict")
    axe(driver, "ordering answered", found)
    click_id(driver, "continue")

    # Matching: one select per prompt, labelled by it.
    Select(by_id(driver, "match-1")).select_by_visible_text("Helsinki")
    Select(by_id(driver, "match-2")).select_by_visible_text("Oslo")
    axe(driver, "matching", found)
    click_id(driver, "submit-answer")
    assert "Partly right (50 %)" in text(driver, "verdict")
    click_id(driver, "continue")

    # Gap fill: a select and a field inside the text, each named "Gap n".
    gap_choice = driver.find_element(By.CSS_SELECTOR, "select[aria-label='Gap 1']")
    Select(gap_choice).select_by_visible_text("Seine")
    driver.find_element(By.CSS_SELECTOR, "input[aria-label='Gap 2']").send_keys("Paris")
    axe(driver, "gap fill", found)
    click_id(driver, "submit-answer")
    assert "Right!" in text(driver, "verdict")
    click_id(driver, "continue")

    # Poll: after voting, how everyone answered so far, with no right answer shown.
    coffee = [tile for tile in driver.find_elements(By.CSS_SELECTOR, "label.answer-tile") if "Coffee" in tile.text][0]
    scroll_to(driver, coffee)
    coffee.click()
    click_id(driver, "submit-answer")
    assert "your answer is counted" in text(driver, "verdict")
    assert not driver.find_elements(By.ID, "correct-answer")
    bars = {row.find_element(By.CSS_SELECTOR, ".opinion-text").text: row.find_element(By.TAG_NAME, "meter").get_attribute("value")
            for row in driver.find_elements(By.CSS_SELECTOR, ".opinion-bars li")}
    assert bars == {"Tea": "0", "Coffee": "1"}
    screenshot(driver, "question-poll-answered")
    axe(driver, "poll answered", found)
    click_id(driver, "continue")

    # Estimate: the slider shows with a script and moves the number field.
    slider = by_id(driver, "estimate-slider")
    assert slider.is_displayed()
    driver.execute_script("arguments[0].value = 1971; arguments[0].dispatchEvent(new Event('input'));", slider)
    assert by_id(driver, "answer-number").get_attribute("value") == "1971"
    axe(driver, "estimate", found)
    click_id(driver, "submit-answer")
    assert "Partly right (80 %)" in text(driver, "verdict")
    assert not found, "\n".join(found)


def test_without_javascript_an_ordering_is_answered_with_its_place_selects(server, browser):
    quiz_id = kinds_quiz(server)
    driver = open_browser(browser, server, javascript=False)
    register(driver, new_username("nojs"))
    driver.get(server.url + f"/quizzes/{quiz_id}")
    click_id(driver, "start-quiz")
    assert not driver.find_elements(By.CSS_SELECTOR, ".order-move")
    for item in driver.find_elements(By.CSS_SELECTOR, ".order-item"):
        place = ORDER.index(item.find_element(By.CSS_SELECTOR, ".order-text").text) + 1
        Select(item.find_element(By.TAG_NAME, "select")).select_by_value(str(place))
    click_id(driver, "submit-answer")
    assert "Right! +4 points" in text(driver, "verdict")
