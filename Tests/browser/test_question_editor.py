"""The question editor in a real browser: it shows the chosen kind's fields only, grows its choice
rows on demand, names where it is in its breadcrumb, and without JavaScript shows every kind's
fields, each group under its own heading."""

from urllib.parse import quote

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_journeys import (PASSWORD, author_signed_in, by_id, click_id, log_in, new_username, open_browser, text,
                           type_into)


def first_quiz(server):
    _, subjects = server.api("GET", "/subjects")
    subject = subjects["subjects"][0]
    _, topics = server.api("GET", f"/subjects/{subject['id']}/topics")
    topic = topics["topics"][0]
    _, quizzes = server.api("GET", f"/topics/{topic['id']}/quizzes")
    return subject, topic, quizzes["quizzes"][0]


def shown_groups(driver):
    return [group.get_attribute("id") for group in driver.find_elements(By.CSS_SELECTOR, "fieldset.kind-fields")
            if group.is_displayed()]


def test_the_editor_shows_the_chosen_kinds_fields_and_grows_its_choices(server, browser, screenshot):
    subject, topic, quiz = first_quiz(server)
    author, _ = author_signed_in(browser, server, quote(f"/manage/questions/new?topic={topic['id']}&quiz={quiz['id']}", safe="/"))

    # The trail names the subject, topic and quiz, each a link back.
    crumbs = {link.text: link.get_attribute("href") for link in author.find_elements(By.CSS_SELECTOR, ".crumbs a")}
    assert crumbs[subject["name"]].endswith(f"/manage/subjects/{subject['id']}")
    assert crumbs[topic["name"]].endswith(f"/manage/topics/{topic['id']}")
    assert quiz["title"] in crumbs, crumbs
    assert crumbs[quiz["title"]].endswith(f"/manage/quizzes/{quiz['id']}")
    assert "Back" not in crumbs

    # The question is typed in the page's own font, not a code font.
    font = author.execute_script("return getComputedStyle(document.getElementById('text')).fontFamily")
    assert "mono" not in font.lower()

    kind = Select(by_id(author, "kind"))
    assert kind.first_selected_option.get_attribute("value") == "singleChoice"
    assert shown_groups(author) == ["choices-fields"]
    kind.select_by_value("numeric")
    assert shown_groups(author) == ["number-fields"]
    kind.select_by_value("typedAnswer")
    assert shown_groups(author) == ["typed-fields"]
    kind.select_by_value("trueFalse")
    assert shown_groups(author) == ["true-false-fields"]
    screenshot(author, "manage-question-kinds")
    kind.select_by_value("multipleChoice")
    assert shown_groups(author) == ["choices-fields"]

    # Six choices: two rows more than the four offered, added with the button.
    add = by_id(author, "add-choice")
    add.click()
    add.click()
    rows = author.find_elements(By.CSS_SELECTOR, "#choices-fields .choice-row")
    assert len(rows) == 6
    assert author.switch_to.active_element.get_attribute("id") == "choice-6", "the new row has the focus"
    names = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn"]
    type_into(author, text="Which of these planets have rings?", **{f"choice-{i + 1}": name for i, name in enumerate(names)})
    boxes = author.find_elements(By.NAME, "choice_correct")
    for index in (4, 5):
        author.execute_script("arguments[0].scrollIntoView({block: 'center'})", boxes[index])
        boxes[index].click()
    # Up to ten rows, then the button goes.
    for _ in range(4):
        add.click()
    assert len(author.find_elements(By.CSS_SELECTOR, "#choices-fields .choice-row")) == 10
    assert not add.is_displayed()
    click_id(author, "save-question")

    preview = text(author, "preview")
    assert "Jupiter ✓" in preview and "Saturn ✓" in preview and "Earth ✓" not in preview
    # Opened again: the six choices, two empty rows for more, and only the choices shown.
    author.find_element(By.LINK_TEXT, "Which of these planets have rings?").click()
    rows = author.find_elements(By.CSS_SELECTOR, "#choices-fields .choice-row input[name=choice_text]")
    assert [row.get_attribute("value") for row in rows] == names + ["", ""]
    assert shown_groups(author) == ["choices-fields"]


def test_without_javascript_every_kind_is_shown_under_its_heading(server, browser):
    _, topic, _ = first_quiz(server)
    author_name = new_username("author")
    server.create_user(author_name, PASSWORD)
    server.set_role(author_name, "author")
    plain = open_browser(browser, server, javascript=False)
    plain.get(f"{server.url}/login?next=/manage/questions/new?topic={topic['id']}")
    log_in(plain, author_name, PASSWORD)
    groups = plain.find_elements(By.CSS_SELECTOR, "fieldset.kind-fields")
    assert [group.get_attribute("id") for group in groups if group.is_displayed()] == [
        "choices-fields", "true-false-fields", "typed-fields", "number-fields", "name-all-fields", "ordering-fields",
        "matching-fields", "gap-fill-fields", "poll-fields", "estimate-fields"]
    legends = [group.find_element(By.TAG_NAME, "legend").text for group in groups]
    assert legends[2:] == ["Typed answer", "Number", "Name them all", "Ordering", "Matching", "Gap fill", "Poll", "Estimate"]
    assert not by_id(plain, "add-choice").is_displayed(), "the button needs the script; four empty rows are there instead"
    assert len(plain.find_elements(By.CSS_SELECTOR, "#choices-fields .choice-row")) == 4

    # A number question saved without script: the kind decides which fields are read.
    Select(by_id(plain, "kind")).select_by_value("numeric")
    type_into(plain, text="How many moons has Mars?", value="2", tolerance="0")
    click_id(plain, "save-question")
    assert "How many moons has Mars?" in text(plain, "main")
