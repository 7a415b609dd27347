"""Helpers to drive the playground in a real browser: Debian's Chromium through chromedriver
(Selenium), headless, with a fresh profile and no network beyond loopback; and the playground
started as a user starts it (`cnl2sparql ui --store DIR --no-browser`).

Used by tests/test_playground_browser.py and scripts/playground_screenshots.py."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--lang=en-US")
# a small store the browser tests answer from: the Nolan slice, and an entity whose label is markup
EVIL_LABEL = '<img src=x onerror="window.pwned=1">Evil "label" ]'
EVIL_TTL = f"""@prefix wd: <http://www.wikidata.org/entity/> .
@prefix wdt: <http://www.wikidata.org/prop/direct/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix schema: <http://schema.org/> .
wd:Q99999999 rdfs:label {'"' + EVIL_LABEL.replace(chr(92), chr(92) * 2).replace('"', chr(92) + '"') + '"'}@en ;
    schema:description "<b>bold</b> description <script>window.pwned=2</script>"@en ;
    wdt:P31 wd:Q11424 ; wdt:P57 wd:Q25191 .
"""


def browser_missing() -> str | None:
    """Why no browser test can run here (None: they can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not chromium_binary():
        return "Debian's chromium is not installed (apt-get install chromium chromium-driver)"
    if not chromedriver_binary():
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return None


def chromium_binary() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromedriver_binary() -> str | None:
    return shutil.which("chromedriver")


def start_browser(width: int = 1200, height: int = 1000):
    """A headless Chromium under chromedriver, a fresh profile, the console log kept."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium_binary()
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='cnl-chromium-')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(chromedriver_binary()), options=options)


def build_store(shared_data: Path, folder: Path) -> Path:
    """The Nolan slice and the markup-labelled entity, loaded into a store under ``folder``."""
    from tests.agent_fixtures import nolan_slice
    from cnl.kg.embedded import EmbeddedKG

    folder.mkdir(parents=True, exist_ok=True)
    evil = folder / "evil.ttl"
    evil.write_text(EVIL_TTL, encoding="utf-8")
    with EmbeddedKG(folder / "store") as kg:
        kg.load(nolan_slice(shared_data), progress=False)
        kg.load(evil, progress=False)
    return folder / "store"


class Playground:
    """`cnl2sparql ui --store STORE --no-browser` as a child process on a free loopback port, until
    its page answers and its learned parser is loaded."""

    def __init__(self, store: Path, log: Path, *, startup_s: float = 900.0, timeout_s: float = 1200.0) -> None:
        import httpx

        from tests.kg_fixtures import free_port

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1")
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cnl", "ui", "--store", str(store), "--no-browser", "--port", str(self.port),
                 "--timeout", str(timeout_s), "--log-level", "warning"], stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + startup_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"cnl2sparql ui exited with {self.process.returncode}:\n"
                                   + log.read_text(errors="replace")[-3000:])
            try:
                health = httpx.get(self.url + "health", timeout=5).json()
                translator = health.get("translator") or {}
                if translator.get("loaded"):
                    return
                if translator.get("error"):
                    raise RuntimeError(f"the learned parser did not load: {translator['error']}")
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"the playground was not ready within {startup_s:g} s")

    def stop(self) -> None:
        from tests.agent_fixtures import stop_process

        stop_process(self.process)


# ---------------------------------------------------------------- driving the page

def wait(driver, condition, timeout: float = 60.0, message: str = ""):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition, message)


def editor_text(driver) -> str:
    return driver.execute_script("return window.cnlPlayground.editor.state.doc.toString()")


def wait_for_text(driver, expected: str, timeout: float = 10.0) -> None:
    """Wait until the editor holds ``expected``; the error says what it holds instead."""
    from selenium.common.exceptions import TimeoutException

    try:
        wait(driver, lambda d: editor_text(d) == expected, timeout)
    except TimeoutException:
        raise AssertionError(f"the editor holds {editor_text(driver)!r}, not {expected!r}") from None


def answers(driver) -> list[list[str]]:
    """The answer table's cells as read: an IRI by its label (the link's text), a value as shown."""
    from selenium.webdriver.common.by import By

    def cell_text(cell):
        links = cell.find_elements(By.TAG_NAME, "a")
        return links[0].text if links else cell.text

    return [[cell_text(cell) for cell in row.find_elements(By.TAG_NAME, "td")]
            for row in driver.find_elements(By.CSS_SELECTOR, "#answers tbody tr")]


def answers_summary(driver) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, "answers-summary").text


def wait_for_answers(driver, previous_summary: str | None = None, timeout: float = 300.0) -> list[list[str]]:
    """The answer table, once a run has finished (its summary changed from ``previous_summary``)."""
    wait(driver, lambda d: answers_summary(d) and answers_summary(d) != previous_summary, timeout,
         "no answers appeared")
    return answers(driver)


def completion_options(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    return [o.text for o in driver.find_elements(By.CSS_SELECTOR, ".cm-tooltip-autocomplete li .cm-completionLabel")]


def selected_option(driver) -> str | None:
    from selenium.webdriver.common.by import By

    found = driver.find_elements(By.CSS_SELECTOR, ".cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel")
    return found[0].text if found else None


def completion_ready(driver) -> bool:
    """A completion list is shown, answered for the text as it is now, and takes keys (a list
    waiting for fresher suggestions is greyed and ignores arrows, Tab and Enter)."""
    return bool(driver.execute_script("return window.cnlPlayground.completionReady()"))


def ready_options(driver) -> list[str]:
    """The options of a list that takes keys (empty while none does)."""
    return completion_options(driver) if completion_ready(driver) else []


def accept_selected(driver, key=None, *, tries: int = 20) -> None:
    """Accept the highlighted completion with Enter (or ``key``). CodeMirror ignores an accept
    key for a moment after a list opens (75 ms, against accidental acceptance) and while it
    waits for fresher suggestions; the page keeps such a key, so pressing again is safe."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    before = editor_text(driver)
    for _ in range(tries):
        wait(driver, lambda d: completion_ready(d), 30, "no completion list takes keys")
        ActionChains(driver).send_keys(key or Keys.ENTER).perform()
        try:
            wait(driver, lambda d: editor_text(d) != before, 2)
            return
        except TimeoutException:
            continue
    raise AssertionError(f"the completion was not applied after {tries} tries; the editor holds {before!r}")


def accept_completion(driver, wanted: str, *, key=None, max_moves: int = 60) -> int:
    """With the completion list open, move down to ``wanted`` with the arrow key and accept it
    (Enter, or ``key``); returns how many moves it took."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    wait(driver, lambda d: wanted in ready_options(d), 60, f"{wanted!r} is not offered")
    moves = 0
    while selected_option(driver) != wanted:
        if moves >= max_moves:
            raise AssertionError(f"{wanted!r} not reached in {max_moves} moves")
        wait(driver, lambda d: wanted in ready_options(d), 60, f"{wanted!r} is no longer offered")
        current = selected_option(driver)
        ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
        wait(driver, lambda d: selected_option(d) != current, 10)
        moves += 1
    accept_selected(driver, key)
    return moves


def open_completions(driver) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.SPACE).key_up(Keys.CONTROL).perform()
    wait(driver, lambda d: ready_options(d), 60, "no completion list opened")


def console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
