"""WikiWebQuestions' SPARQL conventions as a named profile preset, ``wikidata-wwq``.

The data's queries test classes with ``wdt:P31/wdt:P279*`` (302 of the 384 that test a class;
82 write plain ``wdt:P31``), write ``wdt:`` unless a qualifier needs a statement, project only
the answer (``SELECT DISTINCT ?x``), also when ordering by another variable. Evaluations that
score predictions against this gold ask for the preset by name: ``cnl2sparql translate --kg
wikidata-wwq``, ``compile_query(q, WWQ_PROFILE)``.
"""
from __future__ import annotations

from functools import partial

from cnl.sparql.profiles import WikidataProfile, register_profile

PRESET_NAME = "wikidata-wwq"
WWQ_SETTINGS = {"name": PRESET_NAME, "subclasses": True, "statements": "qualified", "projection": "focus",
                "order_columns": False}
WWQ_PROFILE = WikidataProfile(**WWQ_SETTINGS)

register_profile(PRESET_NAME, partial(WikidataProfile, **WWQ_SETTINGS))
