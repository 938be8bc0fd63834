"""Play that feels finished (issue 30), checked in real Chromium: the verdict and Continue in the
first screen of a phone, what a screen reader hears, contrast, and axe-core over every play
screen, solo and live, in the light and the dark theme.

axe-core comes from PyPI (axe-core-python ships axe.min.js inside the package): nothing is
downloaded while the tests run.
"""

import re
import signal

from axe_core_python.base import AXE_SCRIPT
from conftest import DESKTOP, PHONE, set_viewport
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from test_journeys import (by_id, choose, click_id, new_username, open_browser, other_option, register, scroll_to,
                           text, type_into)
from test_live_game import host_game, visible, wait_for

SCHEMES = ("light", "dark")


# MARK: - Helpers


def scheme(driver, name):
    """The system's colour scheme as the page sees it (the pages follow prefers-color-scheme)."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": name}]})


def axe(driver, screen, found):
    """Runs axe-core on the page as it is, light and dark; adds every serious or critical
    violation to `found` as one readable line (screen, theme, rule, the elements)."""
    driver.set_script_timeout(60)
    for name in SCHEMES:
        scheme(driver, name)
        if not driver.execute_script("return typeof window.axe === 'object'"):
            driver.execute_script(AXE_SCRIPT)
        result = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations), (e) => done(String(e)));")
        assert isinstance(result, list), f"{screen}: axe did not run: {result}"
        for violation in result:
            if violation["impact"] in ("serious", "critical"):
                targets = "; ".join(" ".join(node["target"]) + " → " + node.get("failureSummary", "").replace("\n", " ")
                                    for node in violation["nodes"][:4])
                found.append(f"{screen} ({name}): {violation['id']} [{violation['impact']}] {targets}")
    scheme(driver, "light")


def contrast(first, second):
    """WCAG contrast ratio of two CSS colours given as rgb()/rgba() strings (alpha ignored)."""
    def luminance(css):
        channels = [int(part) / 255 for part in re.findall(r"[\d.]+", css)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def first_screen_bottom(driver):
    """Where the first screen ends for the eye: the window's bottom, or the top of the phone's tab bar."""
    return driver.execute_script(
        "const bar = document.querySelector('.tabbar');"
        "const top = bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight;"
        "return Math.min(top, innerHeight);")


def rect(driver, element):
    return driver.execute_script("const r = arguments[0].getBoundingClientRect();"
                                 "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};", element)


def answer_anything(driver):
    """Answers the question on the page: its first tile, or a number typed."""
    tiles = driver.find_elements(By.CSS_SELECTOR, "label.answer-tile")
    if tiles:
        scroll_to(driver, tiles[0])
        tiles[0].click()
    else:
        (driver.find_elements(By.ID, "answer-text") or driver.find_elements(By.ID, "answer-number"))[0].send_keys("1")
    click_id(driver, "submit-answer")


def start_quiz(driver, server, quiz_id=1):
    driver.get(server.url + f"/quizzes/{quiz_id}")
    click_id(driver, "start-quiz")


# MARK: - Solo: the verdict


def test_the_verdict_fills_the_phone_and_continue_is_in_its_first_screen(server, browser, screenshot):
    key = server.answer_key(1)
    driver = open_browser(server=server, browser=browser, size=PHONE)
    register(driver, new_username())
    start_quiz(driver, server)
    for verdict in ("right", "wrong"):
        question = text(driver, "question-text")
        choose(driver, key[question] if verdict == "right" else other_option(driver, key[question]))
        click_id(driver, "submit-answer")
        banner = by_id(driver, "feedback")
        # The verdict is said in words and with an icon, not by colour alone.
        words = driver.find_element(By.CSS_SELECTOR, "#verdict span").text
        assert (words.startswith("Right!") if verdict == "right" else words == "Not quite."), words
        assert driver.find_elements(By.CSS_SELECTOR, "#verdict svg.verdict-icon path")
        assert f"verdict-{verdict}" in banner.get_attribute("class").split()
        screenshot(driver, f"question-verdict-{verdict}")
        for size in (PHONE, DESKTOP):
            set_viewport(driver, size)
            driver.execute_script("window.scrollTo(0, 0)")
            box = rect(driver, banner)
            if size == PHONE:
                # Filled from edge to edge of the phone.
                assert box["left"] <= 0 and box["right"] >= PHONE[0], box
            fill = banner.value_of_css_property("background-color")
            page = driver.find_element(By.TAG_NAME, "body").value_of_css_property("background-color")
            assert contrast(fill, page) > 3, (fill, page)
            # The verdict, the right answer and Continue, all in the first screen.
            bottom = first_screen_bottom(driver)
            for element_id in ("verdict", "correct-answer", "continue"):
                assert rect(driver, by_id(driver, element_id))["bottom"] <= bottom, f"{element_id} below the fold at {size}"
        set_viewport(driver, PHONE)
        # A screen reader starts at the verdict: focus is on it, and it is named by it.
        assert driver.execute_script("return document.activeElement.id") == "feedback"
        assert banner.get_attribute("aria-labelledby") == "verdict"
        assert {"your-answer", "correct-answer"} <= set(banner.get_attribute("aria-describedby").split())
        click_id(driver, "continue")


def test_in_finnish_too_the_verdict_and_continue_fit_the_first_screen_of_a_phone(server, browser):
    key = server.answer_key(1)
    driver = open_browser(server=server, browser=browser, size=PHONE, language="fi-FI")
    register(driver, new_username("aino"))
    start_quiz(driver, server)
    question = text(driver, "question-text")
    choose(driver, other_option(driver, key[question]))
    click_id(driver, "submit-answer")
    assert driver.find_element(By.CSS_SELECTOR, "#verdict span").text == "Ei aivan."
    assert text(driver, "continue") == "Jatka"
    bottom = first_screen_bottom(driver)
    for element_id in ("verdict", "your-answer", "correct-answer", "continue"):
        assert rect(driver, by_id(driver, element_id))["bottom"] <= bottom, element_id


def test_a_random_question_shows_its_verdict_and_the_next_one_in_the_first_screen(server, browser):
    driver = open_browser(server=server, browser=browser, size=PHONE)
    register(driver, new_username())
    driver.get(server.url + "/random/question")
    answer_anything(driver)
    assert driver.execute_script("return document.activeElement.id") == "feedback"
    bottom = first_screen_bottom(driver)
    for element_id in ("verdict", "correct-answer", "another-question"):
        assert rect(driver, by_id(driver, element_id))["bottom"] <= bottom, element_id


# MARK: - Solo: contrast and what a screen reader hears


def test_dimmed_tiles_and_the_focus_ring_are_readable_in_both_themes(server, browser):
    key = server.answer_key(1)
    driver = open_browser(server=server, browser=browser, size=PHONE)
    register(driver, new_username())
    start_quiz(driver, server)
    card = driver.find_element(By.CSS_SELECTOR, ".card.question")
    # The focus ring on an answer tile, against the card around it.
    driver.find_element(By.TAG_NAME, "body").click()
    first_input = driver.find_element(By.CSS_SELECTOR, "label.answer-tile .tile-input")
    driver.execute_script("arguments[0].focus()", first_input)
    first_input.send_keys(Keys.SPACE)  # from the keyboard, so :focus-visible applies
    tile = driver.find_element(By.CSS_SELECTOR, "label.answer-tile")
    for name in SCHEMES:
        scheme(driver, name)
        ring = tile.value_of_css_property("outline-color")
        assert tile.value_of_css_property("outline-style") == "solid"
        ratio = contrast(ring, card.value_of_css_property("background-color"))
        assert ratio >= 3, f"focus ring {ring} is {ratio:.2f}:1 on the card ({name})"
    scheme(driver, "light")
    question = text(driver, "question-text")
    choose(driver, other_option(driver, key[question]))
    click_id(driver, "submit-answer")
    others = driver.find_elements(By.CSS_SELECTOR, "#answered-tiles .is-other")
    assert others, "no dimmed tile"
    for name in SCHEMES:
        scheme(driver, name)
        for other in others:
            words = other.find_element(By.CLASS_NAME, "answer-text")
            ratio = contrast(words.value_of_css_property("color"), other.value_of_css_property("background-color"))
            assert float(other.value_of_css_property("opacity")) == 1
            assert ratio >= 4.5, f"{words.text!r}: {ratio:.2f}:1 ({name})"


def test_timed_practice_says_ten_seconds_left_and_time_is_up_and_nothing_every_second(server, browser):
    driver = open_browser(server=server, browser=browser)
    register(driver, new_username("timed"))
    driver.get(server.url + "/practice")
    type_into(driver, count="1")
    driver.find_element(By.CSS_SELECTOR, '#time-limit option[value="20"]').click()
    click_id(driver, "start-practice")
    say = by_id(driver, "countdown-say")
    assert say.get_attribute("aria-live") == "assertive"
    # Everything the region is given, in order, as a screen reader would hear it.
    driver.execute_script("window.said = []; new MutationObserver(() => window.said.push(arguments[0].textContent))"
                          ".observe(arguments[0], {childList: true, characterData: true, subtree: true});", say)
    assert by_id(driver, "countdown").get_attribute("aria-live") in (None, "off")  # a timer stays quiet
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return window.said.length") >= 2,
                                    "ten seconds left, then time is up")
    assert driver.execute_script("return window.said") == ["10 seconds left", "Time is up: an answer now scores nothing."]


def test_every_solo_play_screen_passes_axe_in_both_themes(server, browser):
    found = []
    key = server.answer_key(1)
    driver = open_browser(server=server, browser=browser, size=PHONE)
    register(driver, new_username("axe"))
    start_quiz(driver, server)
    axe(driver, "quiz question", found)
    question = text(driver, "question-text")
    choose(driver, key[question])
    click_id(driver, "submit-answer")
    axe(driver, "feedback: right", found)
    click_id(driver, "continue")
    question = text(driver, "question-text")
    choose(driver, other_option(driver, key[question]))
    click_id(driver, "submit-answer")
    axe(driver, "feedback: wrong", found)
    click_id(driver, "back-to-list")
    axe(driver, "the attempt's questions", found)
    click_id(driver, "finish-quiz")
    axe(driver, "quiz result", found)
    driver.get(server.url + "/leaderboard")
    axe(driver, "leaderboard", found)

    driver.get(server.url + "/practice")
    axe(driver, "practice settings", found)
    type_into(driver, count="2")
    driver.find_element(By.CSS_SELECTOR, '#time-limit option[value="60"]').click()
    click_id(driver, "start-practice")
    axe(driver, "timed practice question", found)
    answer_anything(driver)
    axe(driver, "timed practice feedback", found)

    driver.get(server.url + "/random")
    axe(driver, "random question form", found)
    click_id(driver, "random-go")
    axe(driver, "random question", found)
    answer_anything(driver)
    axe(driver, "random question result", found)

    driver.get(server.url + "/games")
    axe(driver, "name them all: the games", found)
    planets = [item for item in driver.find_elements(By.CSS_SELECTOR, "#games button, #games a, #games li")
               if "planets" in item.text.lower()]
    start = planets[0].find_elements(By.CSS_SELECTOR, "button") or [planets[0]]
    scroll_to(driver, start[0])
    start[0].click()
    WebDriverWait(driver, 15).until(lambda d: d.find_elements(By.ID, "guess"))
    by_id(driver, "guess").send_keys("Mars")
    WebDriverWait(driver, 15).until(lambda d: "Found" in text(d, "guess-feedback"))
    axe(driver, "name them all: playing", found)
    click_id(driver, "give-up")
    axe(driver, "name them all: over", found)

    assert not found, "\n".join(found)


# MARK: - Live


def join(browser, server, pin, nickname):
    phone = open_browser(browser, server, size=PHONE)
    phone.get(server.url + f"/join/{pin}")
    type_into(phone, **{"nickname-input": nickname})
    by_id(phone, "join-button").click()
    wait_for(phone, lambda d: visible(d, "lobby"), f"{nickname} is in the lobby")
    return phone


def phase(host):
    return host.find_element(By.ID, "live-host").get_attribute("data-phase")


def answer(phone, right_answer, right):
    """Taps the right tile, or another one."""
    wait_for(phone, lambda d: visible(d, "question") and text(d, "question-text") != "", "the question shows")
    tiles = [tile for tile in phone.find_elements(By.CSS_SELECTOR, "#answers .answer-tile") if tile.is_displayed()]
    labels = [tile.find_element(By.CLASS_NAME, "answer-text").text for tile in tiles]
    pick = labels.index(right_answer) if right else next(i for i, label in enumerate(labels) if label != right_answer)
    tiles[pick].click()
    wait_for(phone, lambda d: visible(d, "waiting") or visible(d, "result"), "the answer is in")
    return labels[pick]


def board(driver):
    """The leaderboard shown: {first name: (rank, the movement cell's text)}."""
    rows = driver.find_elements(By.CSS_SELECTOR, "#leaderboard-list li[data-player]")
    return {row.find_element(By.CLASS_NAME, "name").text.split(" ")[0]: (int(row.find_element(By.CLASS_NAME, "rank").text),
                                                                         row.find_element(By.CLASS_NAME, "move").text)
            for row in rows}


def breaks_inside_a_word(driver, element):
    """Whether a word of the element's text is split over two lines."""
    return driver.execute_script("""
        const node = arguments[0].firstChild;
        if (!node) return false;
        const text = node.textContent;
        const range = document.createRange();
        for (const match of text.matchAll(/\\S+/g)) {
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
          if (tops.size > 1) return true;
        }
        return false;""", element)


def test_a_live_game_tells_each_player_their_pick_and_whom_they_chase_and_passes_axe(server, browser):
    """Three questions: Bartholomew and Wolfeschlegel right first, then Maximiliana alone right
    twice, so the boards move. Long words in the names, which a phone's podium once broke."""
    found = []
    key = server.answer_key(1)
    host, pin = host_game(browser, server, seconds=120)
    axe(host, "host lobby", found)
    names = ["Bartholomew Smith", "Maximiliana", "Wolfeschlegel"]
    phones = {}
    for name in names:
        phones[name] = join(browser, server, pin, name)
    bart = phones["Bartholomew Smith"]
    axe(bart, "phone: lobby", found)
    wait_for(host, lambda d: by_id(d, "player-count").get_attribute("data-count") == "3", "the host sees three players")

    # The join screen, as a new phone sees it.
    newcomer = open_browser(browser, server, size=PHONE)
    newcomer.get(server.url + f"/join/{pin}")
    axe(newcomer, "phone: join", found)

    right_in = {0: {"Bartholomew Smith", "Wolfeschlegel"}, 1: {"Maximiliana"}, 2: {"Maximiliana"}}
    boards = []
    by_id(host, "start-button").click()
    for index in range(3):
        wait_for(host, lambda d: phase(d) == "question" and text(d, "host-question-text") != "", "a question opens")
        question = text(host, "host-question-text")
        if index == 0:
            axe(host, "host question", found)
            wait_for(bart, lambda d: visible(d, "question") and text(d, "question-text") != "", "the phone shows the question")
            axe(bart, "phone: question", found)
        picks = {name: answer(phone, key[question], name in right_in[index]) for name, phone in phones.items()}
        wait_for(host, lambda d: phase(d) == "reveal", "everyone answered: the answer shows")
        if index == 0:
            axe(host, "host reveal", found)
        for name, phone in phones.items():
            wait_for(phone, lambda d: visible(d, "result") and by_id(d, "score").get_attribute("data-value"), "the result shows")
            # Their own pick, and where they stand.
            assert text(phone, "result-yours") == f"Your answer: {picks[name]}", name
            rank = int(by_id(phone, "rank").get_attribute("data-value"))
            behind = text(phone, "result-behind")
            if rank == 1:
                assert behind == "You are in the lead!", (name, behind)
            else:
                assert re.fullmatch(r"[\d,]+ points? behind (Bartholomew Smith|Maximiliana|Wolfeschlegel)", behind), (name, behind)
                assert not behind.endswith(name)
        if index == 0:
            axe(bart, "phone: result (right)", found)
            axe(phones["Maximiliana"], "phone: result (wrong)", found)
        by_id(host, "next-button").click()
        wait_for(host, lambda d: phase(d) == "leaderboard", "the leaderboard shows")
        wait_for(bart, lambda d: visible(d, "leaderboard") and d.find_elements(By.CSS_SELECTOR, "#leaderboard-list li"), "the phone's board")
        boards.append(board(host))
        assert board(bart) == boards[-1]
        if index == 0:
            axe(host, "host leaderboard", found)
            axe(bart, "phone: leaderboard", found)
        if index < 2:
            by_id(host, "next-button").click()

    # The first board has nobody to compare with: no column of dashes. Later ones show who moved,
    # by as many places as they moved.
    assert all(move == "" for _, move in boards[0].values()), boards[0]
    moved = False
    for before, after in zip(boards, boards[1:]):
        for name, (rank, move) in after.items():
            change = before[name][0] - rank
            assert move == ("▲ %d" % change if change > 0 else "▼ %d" % -change if change < 0 else ""), (name, before, after)
            moved = moved or change != 0
    assert moved, boards
    assert boards[-1]["Maximiliana"][0] == 1

    host.find_element(By.ID, "end-button").click()
    host.switch_to.alert.accept()
    wait_for(host, lambda d: visible(d, "podium"), "the podium shows")
    axe(host, "host podium", found)
    wait_for(bart, lambda d: visible(d, "ended") and d.find_elements(By.CSS_SELECTOR, "#podium li"), "the phone's podium")
    axe(bart, "phone: podium", found)
    # Names wrap between words on a phone's podium, never inside one.
    for place in bart.find_elements(By.CSS_SELECTOR, "#podium .podium-name"):
        assert not breaks_inside_a_word(bart, place), place.text
    assert not found, "\n".join(found)


def test_a_phone_says_time_is_up_and_the_host_lock_is_a_drawn_padlock(server, browser):
    host, pin = host_game(browser, server, seconds=5)
    # Locked joining shows a padlock drawn in SVG, hidden from screen readers (the button says it).
    lock = by_id(host, "lock-button")
    icon = lock.find_element(By.CSS_SELECTOR, "svg.lock-icon")
    assert not icon.is_displayed()
    phone = join(browser, server, pin, "Ada")
    lock.click()
    wait_for(host, lambda d: by_id(d, "lock-button").get_attribute("aria-pressed") == "true", "joining is locked")
    assert icon.is_displayed() and icon.get_attribute("aria-hidden") == "true"
    assert host.execute_script("return getComputedStyle(arguments[0], '::before').content", lock) in ("none", "normal")
    alert = by_id(phone, "time-up")
    phone.execute_script("window.said = []; new MutationObserver(() => window.said.push(arguments[0].textContent))"
                         ".observe(arguments[0], {childList: true, characterData: true, subtree: true});", alert)
    by_id(host, "start-button").click()
    wait_for(phone, lambda d: visible(d, "question") and text(d, "question-text") != "", "the question shows")
    assert alert.get_attribute("role") == "alert" and alert.text == ""
    # The server is held up, so its end of the question cannot come first: the phone's own clock
    # says time is up. (When the server's reveal comes first, its heading takes the focus and a
    # screen reader reads that.)
    server.process.send_signal(signal.SIGSTOP)
    try:
        wait_for(phone, lambda d: d.execute_script("return window.said").count("Time is up.") == 1, "time is up, said once")
        assert visible(phone, "time-up") and by_id(phone, "countdown-number").text == "0"
    finally:
        server.process.send_signal(signal.SIGCONT)
    wait_for(phone, lambda d: visible(d, "result"), "the result follows")
    assert text(phone, "result-verdict") == "No answer"
