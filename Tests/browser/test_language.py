"""Finnish and English in a real browser: the browser's language chooses, the footer switches and
the account remembers; scripts and the live game's messages follow the page."""

from conftest import PHONE
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from test_journeys import PASSWORD, by_id, click_and_wait, click_id, new_username, open_browser, path, register, type_into


def html_lang(driver):
    return driver.find_element(By.TAG_NAME, "html").get_attribute("lang")


def switch_to(driver, name):
    """Presses the footer's language button (named in its own language)."""
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, f".langswitch button[lang={name}]"))
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == name


def test_a_finnish_phone_gets_finnish_pages_and_switches_on_any_page(server, browser, screenshot):
    phone = open_browser(browser, server, size=PHONE, language="fi-FI")
    phone.get(server.url + "/login")
    assert html_lang(phone) == "fi"
    assert by_id(phone, "login-button").text == "Kirjaudu sisään"
    register(phone, new_username("aino"), first="Aino", last="Aalto")
    assert path(phone) == "/home"
    assert by_id(phone, "tab-home").text == "Etusivu"
    screenshot(phone, "home-finnish")

    # A quiz's question in Finnish; the bank's own words stay as written.
    phone.get(server.url + "/quizzes/1")
    click_id(phone, "start-quiz")
    assert by_id(phone, "submit-answer").text == "Lähetä"
    question_text = by_id(phone, "question-text").text
    assert question_text
    screenshot(phone, "question-finnish")

    # The footer's switcher: English on the same page, then back.
    here = path(phone)
    switch_to(phone, "en")
    assert path(phone) == here
    assert by_id(phone, "submit-answer").text == "Submit"
    assert by_id(phone, "question-text").text == question_text, "the bank's question is the same in both"
    switch_to(phone, "fi")
    assert by_id(phone, "submit-answer").text == "Lähetä"


def test_the_choice_follows_the_account_to_an_english_browser(server, browser):
    username = new_username("eino")
    server.create_user(username, PASSWORD)
    laptop = open_browser(browser, server)
    laptop.get(server.url + "/login")
    assert html_lang(laptop) == "en"
    type_into(laptop, username=username, password=PASSWORD)
    click_id(laptop, "login-button")
    switch_to(laptop, "fi")
    # Another English-speaking browser: once signed in as the same person, Finnish.
    other = open_browser(browser, server)
    other.get(server.url + "/login")
    assert html_lang(other) == "en"
    type_into(other, username=username, password=PASSWORD)
    click_id(other, "login-button")
    assert html_lang(other) == "fi"
    assert by_id(other, "tab-leaderboard").text == "Tulostaulu"


def test_the_live_join_page_and_its_messages_are_finnish(server, browser):
    phone = open_browser(browser, server, size=PHONE, language="fi-FI")
    phone.get(server.url + "/join")
    assert html_lang(phone) == "fi"
    type_into(phone, **{"pin-input": "999999", "nickname-input": "Aino"})
    by_id(phone, "join-button").click()
    # The server's refusal comes over the WebSocket, in the page's language.
    message = WebDriverWait(phone, 30).until(
        lambda d: by_id(d, "join-error").is_displayed() and by_id(d, "join-error").text, "the refusal shows")
    assert message == "Tällä PIN-koodilla ei ole käynnissä peliä. Tarkista koodi juontajalta."
    # Said once, at its field: not again in the banner above the form.
    assert not by_id(phone, "message").is_displayed()
    # The language switch stands alone under the form, with no separator before it.
    before = phone.execute_script("return getComputedStyle(document.querySelector('.langswitch'), '::before').content")
    assert before in ("none", "normal"), before
    # A mistake the page's script finds itself, in Finnish too.
    type_into(phone, **{"pin-input": "12"})
    by_id(phone, "join-button").click()
    WebDriverWait(phone, 10).until(lambda d: by_id(d, "join-error").text == "PIN-koodi on ison näytön 6 numeroa.",
                                   "the script's own message is Finnish")
