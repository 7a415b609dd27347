"""The playground in a real browser (Debian's Chromium, headless, through chromedriver and
Selenium), served by `cnl2sparql ui` over a real store (the Nolan slice of the shared Wikidata
file), with the shipped learned parser: ask, read the answers, edit the CNL with completions, see
an error underlined, use the page from the keyboard alone, fix a wrong reading with completions
only, share a link. Waits are explicit (a condition in the page), never sleeps."""
from __future__ import annotations

import pytest

from tests.browser import (EVIL_LABEL, Playground, accept_completion, accept_selected, answers, browser_missing, build_store,
                           completion_options, console_errors, editor_text, open_completions, ready_options, start_browser, wait,
                           wait_for_answers, wait_for_text)

pytestmark = pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")

# a translation takes seconds on an idle CPU; minutes on a machine shared by many jobs
TRANSLATION_S = 1200
NOLAN_FILMS = {"Inception", "Memento", "The Prestige", "Batman Begins", "The Dark Knight", "The Dark Knight Rises"}


@pytest.fixture(scope="module")
def playground(shared_data, tmp_path_factory):
    pytest.importorskip("torch", reason="the learned parser needs the model extra")
    folder = tmp_path_factory.mktemp("playground")
    server = Playground(build_store(shared_data, folder), folder / "ui.log")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    driver = start_browser()
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, playground):
    """The page, fresh: no history kept from an earlier test."""
    browser.get(playground.url)
    browser.execute_script("window.localStorage.clear()")
    return load(browser, playground.url)


def load(browser, url):
    browser.get(url)
    wait(browser, lambda d: d.execute_script("return document.body.classList.contains('ready')"), 30)
    return browser


def by_id(driver, ident):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, ident)


def keys(driver, *sequence):
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(*sequence).perform()


def select_all(driver):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()


def focus_editor(driver):
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, "#editor .cm-content").click()


def ask(driver, question):
    from selenium.webdriver.common.keys import Keys

    box = by_id(driver, "question")
    box.clear()
    box.send_keys(question, Keys.ENTER)
    return wait_for_answers(driver, timeout=TRANSLATION_S)


def csp_violations(driver):
    return [m for m in console_errors(driver) if "Content Security Policy" in m]


def test_ask_read_and_edit_with_a_completion_after_has(page):
    from selenium.webdriver.common.by import By

    rows = ask(page, "Who directed Inception?")
    assert rows and rows[0][0].startswith("Christopher Nolan")
    assert "[Inception]" in editor_text(page)
    assert "wd:Q25188" in by_id(page, "sparql").text
    assert by_id(page, "wdqs-link").get_attribute("href").startswith("https://query.wikidata.org/#")
    # the entities and properties of the CNL are marked with their kinds, their IDs kept for the tooltips
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '.cm-term-entity[data-term-id="Q25188"]'), 30)
    # edit it: a class, "has", then the property the completion list offers after it
    focus_editor(page)
    select_all(page)
    keys(page, "which [film] has ")
    wait(page, lambda d: "<director>" in completion_options(d), 60, "no <director> after has")
    accept_completion(page, "<director>")
    keys(page, "[Christopher No")
    accept_completion(page, "[Christopher Nolan]")
    keys(page, "?")
    summary = by_id(page, "answers-summary").text
    keys(page, "\n")
    rows = wait_for_answers(page, summary)
    assert editor_text(page) == "which [film] has <director> [Christopher Nolan]?"
    assert NOLAN_FILMS <= {row[0] for row in rows}
    assert "rows" in by_id(page, "answers-summary").text and " s" in by_id(page, "answers-summary").text
    assert not csp_violations(page)


def test_an_alternative_reading_is_one_click_away(page):
    from selenium.webdriver.common.by import By

    ask(page, "Who directed Inception?")
    alternatives = page.find_elements(By.CSS_SELECTOR, "#alternatives-list button")
    assert alternatives and by_id(page, "alternatives").is_displayed()
    chosen = alternatives[0].text
    summary = by_id(page, "answers-summary").text
    alternatives[0].click()
    wait(page, lambda d: editor_text(d) == chosen, 10)
    # the run is over when the page files the reading in its history (the summary's text alone
    # may not change: the same number of rows in the same hundredths of a second)
    wait(page, lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#history li code")][:1] == [chosen], 300)
    assert by_id(page, "answers-summary").text and summary


def test_an_invalid_cnl_shows_the_underlined_position(page):
    from selenium.webdriver.common.by import By

    focus_editor(page)
    keys(page, "which [film] has has <director>?")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ".cm-lintRange-error"), 60, "no error underline")
    underline = page.find_element(By.CSS_SELECTOR, ".cm-lintRange-error")
    assert underline.text == "has"
    position = page.execute_script(
        "const v = window.cnlPlayground.editor; return v.posAtDOM(arguments[0])", underline)
    assert position == 17  # the second "has", where the parser stopped
    message = by_id(page, "cnl-error").text
    assert "unexpected token" in message and "expected one of" in message and "a property" in message


def test_keyboard_only(page):
    from selenium.webdriver.common.keys import Keys

    # the question box has the focus when the page opens
    assert page.execute_script("return document.activeElement.id") == "question"
    keys(page, "Who directed Inception?", Keys.ENTER)
    wait_for_answers(page, timeout=TRANSLATION_S)
    for _ in range(3):  # Ask button, then the editor
        keys(page, Keys.TAB)
        if page.execute_script("return document.activeElement.classList.contains('cm-content')"):
            break
    assert page.execute_script("return document.activeElement.classList.contains('cm-content')")
    select_all(page)
    keys(page, "which [film] has <dir")
    wait(page, lambda d: ready_options(d)[:1] == ["<director>"], 60)
    accept_selected(page, Keys.TAB)  # Tab accepts the highlighted completion
    wait_for_text(page, "which [film] has <director> ")
    wait(page, lambda d: ready_options(d), 30, "the list did not reopen for what comes next")
    keys(page, Keys.ESCAPE)  # Esc closes it
    wait(page, lambda d: not completion_options(d), 10)
    keys(page, "[Christopher No")
    accept_completion(page, "[Christopher Nolan]", key=Keys.ENTER)
    keys(page, Keys.ESCAPE, "?")
    summary = by_id(page, "answers-summary").text
    keys(page, Keys.ENTER)  # Enter runs the query
    assert NOLAN_FILMS <= {row[0] for row in wait_for_answers(page, summary)}


# A question the shipped model reads wrong on this store: it asks for Inception's <location>,
# which Inception does not have (no answer). Completions alone fix it: click into the wrong
# property, ask for completions (Ctrl-Space), accept the one the question's words name among the
# properties around Inception ("set" names <narrative location> by its alias "set in"), run.
SCENARIO_QUESTION = "Where is Inception set?"
SCENARIO_ANSWER = {"Los Angeles", "Australia", "Paris"}


def test_a_wrong_reading_is_fixed_by_accepting_completions_only(page):
    """The issue's scenario: at most 3 accepted completions, no label typed (only a click,
    Ctrl-Space, arrows and Enter)."""
    from selenium.webdriver.common.by import By

    first = {row[0] for row in ask(page, SCENARIO_QUESTION)}
    first_cnl = editor_text(page)
    assert first != SCENARIO_ANSWER, (f"the shipped parser now reads {SCENARIO_QUESTION!r} right ({first_cnl}): "
                                      "the scenario needs a question it reads wrong; choose another")
    properties = page.find_elements(By.CSS_SELECTOR, ".cm-term-property")
    assert len(properties) == 1, first_cnl
    properties[0].click()  # into the property the model chose
    open_completions(page)
    moves = accept_completion(page, "<narrative location>")
    accepted = 1
    summary = by_id(page, "answers-summary").text
    keys(page, "\n")
    rows = wait_for_answers(page, summary)
    assert {row[0] for row in rows} == SCENARIO_ANSWER, (first_cnl, editor_text(page), rows)
    assert editor_text(page) == first_cnl.replace(properties_text(first_cnl), "<narrative location>")
    assert accepted <= 3 and moves == 0  # the right property was the first suggestion


def properties_text(cnl):
    from cnl.dialects.squall.completion import terms_in

    return next(t.text for t in terms_in(cnl) if t.kind == "property")


def test_a_shared_link_reopens_the_query_and_history_keeps_it(page, playground):
    from urllib.parse import urlencode

    from selenium.webdriver.common.by import By

    cnl = "which [film] has <director> [Christopher Nolan]?"
    load(page, playground.url + "?" + urlencode({"q": "Nolan's films", "cnl": cnl}))
    assert NOLAN_FILMS <= {row[0] for row in wait_for_answers(page)}
    assert editor_text(page) == cnl and by_id(page, "question").get_attribute("value") == "Nolan's films"
    shared = page.current_url
    load(page, shared)  # the address bar is the link to share
    assert NOLAN_FILMS <= {row[0] for row in wait_for_answers(page)}
    history = page.find_elements(By.CSS_SELECTOR, "#history li a")
    assert history and cnl in history[0].text and "Nolan's films" in history[0].text


def test_nothing_the_server_sends_is_markup(page):
    from selenium.webdriver.common.by import By

    focus_editor(page)
    keys(page, "What is the <director> of [<img")
    wait(page, lambda d: any("Evil" in o for o in ready_options(d)), 60, "the markup-labelled entity is not offered")
    assert any(EVIL_LABEL.split("]")[0] in o for o in completion_options(page))
    accepted = next(o for o in completion_options(page) if "Evil" in o)
    accept_completion(page, accepted)
    keys(page, "?")
    summary = by_id(page, "answers-summary").text
    keys(page, "\n")
    assert wait_for_answers(page, summary)[0][0].startswith("Christopher Nolan")
    focus_editor(page)
    select_all(page)
    keys(page, "which [film] has <director> [Christopher Nolan]?")
    summary = by_id(page, "answers-summary").text
    keys(page, "\n")
    rows = wait_for_answers(page, summary)
    assert any(row[0].startswith(EVIL_LABEL) for row in rows)  # shown as the text it is
    assert page.execute_script("return window.pwned") is None
    assert not page.find_elements(By.CSS_SELECTOR, "main img, main b, main script")
    assert not csp_violations(page)
