"""The ECAI-2023 data's SPARQL conventions as a named profile preset, ``wikidata-ecai``.

The data's gold queries (squall2sparql's output) write every statement as ``p:/ps:`` even
without qualifiers and project every variable in scope; the general ``wikidata`` profile
follows Wikidata practice instead (``wdt:`` unless a qualifier needs a statement, only the
question's focus). Reports and evaluations that reproduce the paper's figures ask for this
preset by name: ``cnl2sparql compile --kg wikidata-ecai``, ``compile_query(q, ECAI_PROFILE)``.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial

from cnl.sparql.profiles import WikidataProfile, register_profile

PRESET_NAME = "wikidata-ecai"
# order_columns: the golds also show the count that "the most" ranks by; today: the golds' "now"
# (written in April 2023: "How old is ...?" is 2023, or the year of 2023-04-20, less the year of birth)
ECAI_SETTINGS = {"name": PRESET_NAME, "statements": "always", "projection": "all", "order_columns": True,
                 "today": "2023-04-20"}
ECAI_PROFILE = WikidataProfile(**ECAI_SETTINGS)
# Sparklis itself writes a comparison with a number as xsd:double(STR(?x)) ("higher or equal to
# 10000000"), and so do the golds of the data's Sparklis annotations.
ECAI_SPARKLIS_PROFILE = replace(ECAI_PROFILE, numeric_cast=True)

register_profile(PRESET_NAME, partial(WikidataProfile, **ECAI_SETTINGS))
