"""Sparklis verbalizations (Ferré, SWJ 2017): how the Sparklis query builder reads a query.

``give me every film that has as a <P57:director> Jon Favreau``"""
from __future__ import annotations

from cnl.dialects.base import Dialect
from cnl.dialects.sparklis.forms import check_expressible, sparklis_form
from cnl.dialects.sparklis.parser import parse_sparklis
from cnl.dialects.sparklis.printer import print_sparklis


def _labels(known, kind: str):
    """Known labels of ``kind``: a dict or a list as it is, a lexicon's ``labels(kind)``, else
    none (a resolver that can only answer for one label at a time)."""
    if known is None or isinstance(known, (dict, list, tuple, set, frozenset)):
        return known
    labels = getattr(known, "labels", None)
    return labels(kind) if callable(labels) else None


class Sparklis(Dialect):
    name = "sparklis"
    title = "Sparklis"
    description = "Sparklis verbalizations: give me every film that has as a <P57:director> Jon Favreau"
    # In a Sparklis sentence every indefinite is an answer ("X has a <P> with a <Q>" lists both).
    reads_back_differently = True

    def parse(self, text, *, notation=None, properties=None, entities=None):
        return parse_sparklis(text, notation=notation, properties=_labels(properties, "property"),
                              entities=_labels(entities, "item"))

    def print(self, query, notation="label", *, id_labels=True):
        return print_sparklis(query, notation, id_labels=id_labels)

    def printable(self, query):
        return sparklis_form(query)

    def check_expressible(self, query):
        check_expressible(query)
