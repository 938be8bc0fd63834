"""Maths in a live game, in real Chromium: a host on a projector and a phone play a question whose
text, choices and explanation hold TeX, then an ordering of fractions and a matching of fractions
to decimals; every screen shows MathML (no raw TeX): the question, the tiles, the items and
prompts, the player's own answer, the reveal and the explanation; axe-core finds no serious problem."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_journeys import by_id
from test_live_game import host_game, shot, visible, wait_for
from test_live_kinds import next_step, put_in_order, question_shows
from test_play_finished import axe, join
from test_question_kinds import published_quiz

RIGHT = r"\frac{3}{4}"
ORDER = [r"\frac{1}{4}", r"\frac{1}{2}", r"\frac{3}{4}"]


def maths_quiz(server):
    return published_quiz(server, "Live fractions", [
        {"kind": "singleChoice", "text": r"What is $$\frac{1}{2} + \frac{1}{4}$$?",
         "explanation": r"Two quarters and one: \(\frac{2}{4} + \frac{1}{4}\).",
         "choices": [{"text": "$$" + RIGHT + "$$", "correct": True}, {"text": r"$$\frac{2}{6}$$", "correct": False},
                     {"text": "Neither", "correct": False}]},
        {"kind": "ordering", "text": "Smallest first", "order": ["$$" + formula + "$$" for formula in ORDER]},
        {"kind": "matching", "text": r"Match \(\frac{a}{b}\) to its decimal",
         "pairs": [{"prompt": r"$$\frac{1}{2}$$", "answer": "0.5"}, {"prompt": r"$$\frac{1}{4}$$", "answer": "0.25"}]},
    ])


def tex(driver, selector):
    """The TeX each formula under `selector` keeps in its annotation, in the page's order."""
    return [a.get_attribute("textContent") for a in driver.find_elements(By.CSS_SELECTOR, selector + " annotation")]


def formulas(driver, selector):
    return driver.find_elements(By.CSS_SELECTOR, selector + " math")


def no_raw_tex(driver):
    shown = driver.find_element(By.TAG_NAME, "main").text
    assert "$$" not in shown and "\\frac" not in shown and "\\(" not in shown, shown


def test_a_host_and_a_phone_see_a_fraction_as_mathml_in_a_live_game(server, browser):
    host, pin = host_game(browser, server, seconds=120, quiz_id=maths_quiz(server))
    phone = join(browser, server, pin, "Ada")
    wait_for(host, lambda d: by_id(d, "player-count").get_attribute("data-count") == "1", "the host sees Ada")
    found = []
    by_id(host, "start-button").click()

    question_shows(phone, 1)
    wait_for(host, lambda d: formulas(d, "#host-question-text"), "the host shows the formula")
    for driver, text, tiles in ((host, "#host-question-text", "#host-answers"), (phone, "#question-text", "#answers")):
        assert len(formulas(driver, text)) == 1 and len(formulas(driver, tiles)) == 2
        fraction = driver.find_element(By.CSS_SELECTOR, text + " mfrac")
        assert fraction.size["height"] > 20, "numerator over denominator"
        no_raw_tex(driver)
    shot(phone, "maths")
    shot(host, "maths")
    axe(phone, "live maths (phone)", found)
    axe(host, "live maths (host)", found)

    # The right tile, found by the TeX its formula keeps for screen readers.
    right = next(tile for tile in phone.find_elements(By.CSS_SELECTOR, "#answers .answer-tile")
                 if tex(tile, "") == [RIGHT])
    assert right.get_attribute("aria-label") == "3/4", "named in plain words, as the quiz pages name it"
    right.click()
    wait_for(host, lambda d: visible(d, "reveal"), "the host reveals the answer")
    assert formulas(host, "#correct-answer") and len(formulas(host, "#reveal-explanation")) == 1
    assert len(formulas(host, "#distribution")) == 2 and formulas(host, "#reveal-question")
    no_raw_tex(host)
    wait_for(phone, lambda d: visible(d, "result") and "Correct" in by_id(d, "result-verdict").text, "Ada is right")
    assert formulas(phone, "#result-correct-text") and formulas(phone, "#result-explanation") and formulas(phone, "#result-yours-text")
    no_raw_tex(phone)
    shot(phone, "maths-result")
    shot(host, "maths-reveal")
    axe(phone, "live maths result (phone)", found)
    axe(host, "live maths reveal (host)", found)
    next_step(host)  # the leaderboard
    next_step(host)

    # An ordering of fractions: the items are MathML on both screens, put right by their TeX.
    question_shows(phone, 2)
    wait_for(host, lambda d: len(formulas(d, "#host-parts")) == 3, "the host lists the items as maths")
    assert sorted(tex(phone, "#order-list")) == sorted(ORDER)
    no_raw_tex(phone)
    put_in_order(phone, ORDER, items=lambda d: tex(d, "#order-list"))
    by_id(phone, "answer-submit").click()
    wait_for(host, lambda d: visible(d, "reveal"), "the host reveals the order")
    assert tex(host, "#reveal-parts") == ORDER
    no_raw_tex(host)
    wait_for(phone, lambda d: visible(d, "result") and "Correct" in by_id(d, "result-verdict").text, "Ada's order is right")
    assert tex(phone, "#result-yours-text") == ORDER
    next_step(host)
    next_step(host)

    # A matching: its prompts are MathML, the decimals offered in selects as text.
    question_shows(phone, 3)
    assert tex(phone, "#match-list .match-prompt") == [r"\frac{1}{2}", r"\frac{1}{4}"]
    no_raw_tex(phone)
    shot(phone, "maths-matching")
    axe(phone, "live maths matching (phone)", found)
    for select, decimal in zip(phone.find_elements(By.CSS_SELECTOR, "#match-list select"), ["0.5", "0.25"]):
        Select(select).select_by_visible_text(decimal)
    by_id(phone, "answer-submit").click()
    wait_for(host, lambda d: visible(d, "reveal"), "the host reveals the pairs")
    assert tex(host, "#reveal-parts") == [r"\frac{1}{2}", r"\frac{1}{4}"] and "0.25" in by_id(host, "reveal-parts").text
    no_raw_tex(host)
    assert not found, "\n".join(found)
