"""Maths and sound (issue 34) in real Chromium: a Moodle XML bank with TeX and a sound clip, as
Moodle's editor writes one, is imported from the manage page; a phone plays it solo (the player
waits to be pressed, reads the clip's length through range requests, and seeks), then the author
hosts it live: the projector plays the clip as the question opens and the phones get the
question without it."""

import base64
import io
import math
import wave

from conftest import PHONE
from selenium.webdriver.common.by import By
from test_journeys import PASSWORD, author_signed_in, by_id, click_id, log_in, new_username, open_browser, register
from test_live_game import PROJECTOR, shot, visible, wait_for
from test_play_finished import axe, join


def tone(seconds=2.0, rate=8000):
    """A real WAV Chromium decodes: a 440 Hz tone, mono, 16-bit."""
    out = io.BytesIO()
    with wave.open(out, "wb") as clip:
        clip.setnchannels(1)
        clip.setsampwidth(2)
        clip.setframerate(rate)
        frames = bytearray()
        for n in range(int(seconds * rate)):
            frames += int(8000 * math.sin(2 * math.pi * 440 * n / rate)).to_bytes(2, "little", signed=True)
        clip.writeframes(bytes(frames))
    return out.getvalue()


def bank():
    clip = base64.b64encode(tone()).decode()
    return r"""<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/Music</text></category></question>
  <question type="multichoice">
    <name><text>Tone</text></name>
    <questiontext format="html">
      <text><![CDATA[<p>Which note is this? Its frequency is $$\frac{880}{2}$$ hertz.</p><p><audio controls="true" title="A steady tone for two seconds"><source src="@@PLUGINFILE@@/a%20note.wav">@@PLUGINFILE@@/a%20note.wav</audio></p>]]></text>
      <file name="a note.wav" path="/" encoding="base64">""" + clip + r"""</file>
    </questiontext>
    <single>true</single>
    <answer fraction="100"><text>A</text></answer>
    <answer fraction="0"><text>C</text></answer>
    <answer fraction="0"><text>E</text></answer>
  </question>
</quiz>
"""


def audio_state(driver, selector):
    return driver.execute_script(
        "const a = document.querySelector(arguments[0]);"
        "return a && {paused: a.paused, duration: a.duration, readyState: a.readyState, time: a.currentTime,"
        " autoplay: a.autoplay, src: a.currentSrc};", selector)


def test_a_music_round_from_moodle_plays_solo_and_live(server, browser, tmp_path, screenshot):
    path = tmp_path / "music.xml"
    path.write_text(bank())
    author, author_name = author_signed_in(browser, server)
    by_id(author, "file").send_keys(str(path))
    click_id(author, "preview-button")
    click_id(author, "import-button")
    quiz_link = next(link for link in author.find_elements(By.CSS_SELECTOR, "#manage-quizzes .quiz-link") if link.text == "music")
    quiz_id = int(quiz_link.get_attribute("href").rstrip("/").split("/")[-1])

    # Solo, on a phone: a player that waits, knows the clip's length, and seeks.
    player = open_browser(browser, server, size=PHONE)
    register(player, new_username("listener"))
    player.get(server.url + f"/quizzes/{quiz_id}")
    click_id(player, "start-quiz")
    assert player.find_elements(By.CSS_SELECTOR, "#question-text math"), "the formula is MathML"
    assert "@@PLUGINFILE@@" not in player.find_element(By.TAG_NAME, "main").text
    wait_for(player, lambda d: (audio_state(d, "#question-sound audio") or {}).get("readyState", 0) >= 1, "the clip's headers load")
    state = audio_state(player, "#question-sound audio")
    assert state["paused"] and not state["autoplay"], "never plays by itself"
    assert abs(state["duration"] - 2.0) < 0.05, state
    assert "/sounds/" in state["src"]
    player.execute_script("document.querySelector('#question-sound audio').currentTime = 1.5;")
    wait_for(player, lambda d: abs(audio_state(d, "#question-sound audio")["time"] - 1.5) < 0.05, "the player seeks into the clip")
    details = player.find_element(By.CSS_SELECTOR, "#question-sound details")
    details.find_element(By.TAG_NAME, "summary").click()
    assert "A steady tone for two seconds" in details.text
    found = []
    axe(player, "question with a sound clip", found)
    screenshot(player, "question-sound")
    tile = next(t for t in player.find_elements(By.CSS_SELECTOR, ".answer-tile")
                if t.find_element(By.CSS_SELECTOR, ".answer-text").text.strip() == "A")
    tile.click()
    click_id(player, "submit-answer")

    # Live: the author hosts it on the projector; one phone joins.
    host = open_browser(browser, server, size=PROJECTOR)
    host.get(server.url + "/login")
    log_in(host, author_name, PASSWORD)
    host.get(server.url + f"/quizzes/{quiz_id}")
    click_id(host, "host-live")
    assert "1 question has a sound clip" in by_id(host, "sounds-hint").text
    assert not by_id(host, "sound-on-phones").is_selected(), "the room hears the projector by default"
    by_id(host, "create-game").click()
    wait_for(host, lambda d: "/host" in d.current_url and by_id(d, "host-pin").text.strip().isdigit(), "the host screen shows the PIN")
    pin = by_id(host, "host-pin").text.strip().replace(" ", "")
    phone = join(browser, server, pin, "Ada")
    wait_for(host, lambda d: by_id(d, "player-count").get_attribute("data-count") == "1", "the host sees Ada")
    by_id(host, "start-button").click()
    # The start was a click on this page, so the browser lets the clip play as the question opens.
    wait_for(host, lambda d: (audio_state(d, "#host-question-sound audio") or {}).get("time", 0) > 0.2, "the projector plays the clip")
    assert by_id(host, "host-question-sound").find_element(By.CSS_SELECTOR, "button.sound-replay").is_displayed()
    wait_for(phone, lambda d: visible(d, "question"), "the question shows on the phone")
    # The formula is MathML on both screens, as in solo play.
    assert host.find_elements(By.CSS_SELECTOR, "#host-question-text math")
    assert phone.find_elements(By.CSS_SELECTOR, "#question-text math")
    assert "\\frac" not in by_id(host, "host-question-text").text
    assert not phone.find_elements(By.CSS_SELECTOR, "#question-sound audio"), "the phone gets no clip"
    assert not by_id(phone, "question-sound").is_displayed()
    # Muting stays for the next clip: the host's choice, kept in the page.
    host.execute_script("const a = document.querySelector('#host-question-sound audio'); a.muted = true;")
    host.find_element(By.CSS_SELECTOR, "#host-question-sound button.sound-replay").click()
    wait_for(host, lambda d: audio_state(d, "#host-question-sound audio")["time"] < 1.9, "Replay starts the clip again")
    axe(host, "live question with a sound clip (host)", found)
    shot(host, "sound")
    assert not found, "\n".join(found)
