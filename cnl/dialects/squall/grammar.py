"""The SQUALL grammar's text, the one place that reads it: ``squall.lark`` (canonical SQUALL, what
the printer writes) followed by ``squall_writer_forms.lark`` (other writers' forms, read but never
printed, which extend its rules) and ``squall_ferre_forms.lark`` (more of Ferré's forms, the same
way, and the string functions). The parser, its analysis cache and every tool that builds the
grammar read it here, so the files are always one grammar."""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

GRAMMAR_FILES = ("squall.lark", "squall_writer_forms.lark", "squall_ferre_forms.lark")


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The whole SQUALL grammar: the files of :data:`GRAMMAR_FILES`, in that order."""
    folder = resources.files("cnl.dialects.squall")
    return "\n".join(folder.joinpath(name).read_text(encoding="utf-8") for name in GRAMMAR_FILES)
