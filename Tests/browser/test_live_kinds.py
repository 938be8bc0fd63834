"""Issue 31's kinds in a live game, in real Chromium: a host on a projector and two phones play an
ordering (Move up / Move down), an estimate (the slider) and a word cloud (a word typed; the host
hides one and it leaves every screen), then a slide the host moves on from; axe-core finds no
serious problem on any screen, light or dark, and each screen is saved at 390 px and 1280 px."""

from conftest import PHONE
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from test_journeys import by_id, click_id, log_in, new_username, open_browser, type_into
from test_live_game import PROJECTOR, shot, visible, wait_for
from test_play_finished import axe
from test_question_kinds import published_quiz

ORDER = ["Rome", "Paris", "Helsinki"]


def live_kinds_quiz(server):
    """A published quiz of an ordering, an estimate, a word cloud and a slide; its id."""
    return published_quiz(server, "Live kinds", [
        {"kind": "ordering", "text": "Oldest first", "order": ORDER},
        {"kind": "estimate", "text": "The Eiffel tower, in metres", "minimum": 0, "maximum": 1000, "step": 10, "value": 330,
         "margin": 100, "unit": "m"},
        {"kind": "wordCloud", "text": "One word for Monday"},
        {"kind": "slide", "text": "Thanks for playing!"},
    ])


def phase(host):
    return host.find_element(By.ID, "live-host").get_attribute("data-phase")


def question_shows(phone, number):
    wait_for(phone, lambda d: visible(d, "question") and d.find_element(By.ID, "question-number").text.startswith(f"Question {number} "),
             f"question {number} shows on the phone")


def items(phone):
    return [li.find_element(By.CSS_SELECTOR, ".order-text").text for li in phone.find_elements(By.CSS_SELECTOR, "#order-list .order-item")]


def put_in_order(phone, wanted, items=items):
    """Moves items up until the list reads `wanted` (as `items` reads it), with the Move up buttons only; how many moves."""
    moves = 0
    for place, item in enumerate(wanted):
        while items(phone).index(item) > place:
            row = phone.find_elements(By.CSS_SELECTOR, "#order-list .order-item")[items(phone).index(item)]
            row.find_elements(By.CSS_SELECTOR, ".order-move")[0].click()
            moves += 1
    assert items(phone) == wanted
    return moves


def next_step(host):
    before = phase(host)
    by_id(host, "next-button").click()
    wait_for(host, lambda d: phase(d) != before, "the game moves on")


def test_a_host_and_two_phones_play_an_ordering_an_estimate_a_word_cloud_and_a_slide(server, browser):
    quiz_id = live_kinds_quiz(server)
    host_name = new_username("host")
    server.create_user(host_name, "host password")
    host = open_browser(browser, server, size=PROJECTOR)
    host.get(server.url + "/login")
    log_in(host, host_name, "host password")
    host.get(server.url + f"/quizzes/{quiz_id}")
    click_id(host, "host-live")
    by_id(host, "seconds-per-question").clear()
    by_id(host, "seconds-per-question").send_keys("120")
    by_id(host, "create-game").click()
    wait_for(host, lambda d: "/host" in d.current_url and by_id(d, "host-pin").text.strip().isdigit(), "the host screen shows the PIN")
    pin = by_id(host, "host-pin").text.strip().replace(" ", "")
    phones = []
    for nickname in ["Ada", "Linus"]:
        phone = open_browser(browser, server, size=PHONE)
        phone.get(server.url + f"/join/{pin}")
        type_into(phone, **{"nickname-input": nickname})
        by_id(phone, "join-button").click()
        wait_for(phone, lambda d: visible(d, "lobby"), f"{nickname} is in the lobby")
        phones.append(phone)
    wait_for(host, lambda d: by_id(d, "player-count").get_attribute("data-count") == "2", "the host sees both players")
    found = []
    by_id(host, "start-button").click()

    # Ordering: Ada puts it right with Move up; Linus sends it as shown (wrong unless it came right).
    ada, linus = phones
    question_shows(ada, 1)
    wait_for(host, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#host-parts li")) == 3, "the host lists the items")
    assert sorted(items(ada)) == sorted(ORDER)
    shot(ada, "ordering")
    shot(host, "ordering")
    axe(ada, "live ordering (phone)", found)
    axe(host, "live ordering (host)", found)
    if put_in_order(ada, ORDER):
        # Focus stays with the moved item, so a keyboard user presses again to move it on.
        assert "order-move" in ada.switch_to.active_element.get_attribute("class")
    by_id(ada, "answer-submit").click()
    question_shows(linus, 1)
    by_id(linus, "answer-submit").click()
    wait_for(host, lambda d: visible(d, "reveal"), "the host reveals the order")
    assert [li.text for li in host.find_elements(By.CSS_SELECTOR, "#reveal-parts li")] == ORDER
    wait_for(ada, lambda d: visible(d, "result") and "Correct" in by_id(d, "result-verdict").text, "Ada's order is right")
    shot(host, "ordering-reveal")
    axe(host, "live ordering reveal (host)", found)
    axe(ada, "live ordering result (phone)", found)
    next_step(host)  # the leaderboard
    next_step(host)

    # Estimate: the slider, moved with the keyboard; 320 is 90 % of the points.
    question_shows(ada, 2)
    slider = by_id(ada, "estimate-answer")
    assert slider.get_attribute("min") == "0" and slider.get_attribute("max") == "1000" and slider.get_attribute("step") == "10"
    slider.click()
    while int(float(slider.get_attribute("value"))) > 320:
        slider.send_keys(Keys.ARROW_LEFT)
    assert by_id(ada, "estimate-value").text.replace("\u202f", " ").replace("\xa0", " ") == "320 m"
    shot(ada, "estimate")
    axe(ada, "live estimate (phone)", found)
    axe(host, "live estimate (host)", found)
    by_id(ada, "answer-submit").click()
    question_shows(linus, 2)
    by_id(linus, "answer-submit").click()  # the middle: 500
    wait_for(host, lambda d: visible(d, "reveal") and d.find_elements(By.CSS_SELECTOR, "#closest li"), "the closest are named")
    assert host.find_elements(By.CSS_SELECTOR, "#closest li")[0].text.startswith("Ada: 320")
    wait_for(ada, lambda d: visible(d, "result") and "Partly right (90 %)" in by_id(d, "result-verdict").text, "Ada is partly right")
    shot(host, "estimate-reveal")
    shot(ada, "estimate-result")
    axe(host, "live estimate reveal (host)", found)
    axe(ada, "live estimate result (phone)", found)
    next_step(host)
    next_step(host)

    # Word cloud: two words, one of them markup, which shows as text; the host hides it.
    question_shows(ada, 3)
    type_into(ada, **{"text-answer": "<b>Coffee</b>"})
    by_id(ada, "answer-submit").click()
    wait_for(host, lambda d: d.find_elements(By.CSS_SELECTOR, "#host-cloud .cloud-word"), "the word shows on the host's cloud")
    assert not host.find_elements(By.CSS_SELECTOR, "#host-cloud b"), "typed markup is text, never markup"
    question_shows(linus, 3)
    type_into(linus, **{"text-answer": "Sleepy"})
    shot(linus, "word-cloud")
    axe(linus, "live word cloud (phone)", found)
    by_id(linus, "answer-submit").click()
    wait_for(host, lambda d: visible(d, "reveal") and len(d.find_elements(By.CSS_SELECTOR, "#reveal-cloud .cloud-word")) == 2,
             "the cloud is the reveal")
    wait_for(ada, lambda d: visible(d, "result") and len(d.find_elements(By.CSS_SELECTOR, "#result-cloud .cloud-word")) == 2,
             "the phones show the cloud")
    shot(host, "word-cloud")
    axe(host, "live word cloud (host)", found)
    coffee = [li for li in host.find_elements(By.CSS_SELECTOR, "#reveal-cloud .cloud-word") if "Coffee" in li.text][0]
    coffee.find_element(By.CSS_SELECTOR, ".cloud-hide").click()
    for phone in phones:
        wait_for(phone, lambda d: [li.text.split("\n")[0] for li in d.find_elements(By.CSS_SELECTOR, "#result-cloud .cloud-text")] == ["Sleepy"],
                 "the hidden word leaves every phone")
    shot(ada, "word-cloud-hidden")
    axe(ada, "live word cloud result (phone)", found)
    next_step(host)
    next_step(host)

    # Slide: no answer, no clock; the host's Next moves on (here, to the end).
    question_shows(ada, 4)
    assert not visible(ada, "answer-submit") and not visible(ada, "countdown")
    wait_for(host, lambda d: visible(d, "next-button") and not visible(d, "close-button"), "the host moves on from a slide")
    shot(ada, "slide")
    axe(ada, "live slide (phone)", found)
    axe(host, "live slide (host)", found)
    by_id(host, "next-button").click()
    wait_for(host, lambda d: phase(d) == "ended", "the game ends after the slide")

    assert not found, "\n".join(found)
