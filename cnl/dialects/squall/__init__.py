"""SQUALL (Ferré, DKE 2014): English-like questions with bracketed terms.

``which [film] has <director> [Jon Favreau] and has the highest <publication date>?``"""
from __future__ import annotations

from cnl.dialects.base import Dialect
from cnl.dialects.squall.parser import parse_squall
from cnl.dialects.squall.printer import print_squall


class Squall(Dialect):
    name = "squall"
    title = "SQUALL"
    description = "SQUALL questions: which [film] has <director> [Jon Favreau]?"

    def parse(self, text, *, notation=None, properties=None, entities=None):
        return parse_squall(text, notation=notation)

    def print(self, query, notation="label", *, id_labels=True):
        return print_squall(query, notation, id_labels=id_labels)
