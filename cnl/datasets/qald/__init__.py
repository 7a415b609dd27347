"""QALD-9-plus train (Perevalov et al., via stanford-oval/spinach): 371 Wikidata questions with
gold SPARQL written by others (``benchmarks/qald9plus_train.json``)."""
