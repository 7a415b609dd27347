"""WikiWebQuestions (Xu et al., EMNLP 2023; from WebQuestions, CC-BY-4.0): 2,431 real web
questions with executable Wikidata SPARQL (``wikiwebquestions/``): loader, a seeded dev split,
SQUALL targets, and the data's conventions as the ``wikidata-wwq`` profile preset."""
from cnl.datasets.wwq import preset  # noqa: F401  (registers the wikidata-wwq profile)
