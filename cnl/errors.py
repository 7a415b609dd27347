"""The error types every stage raises.

Each carries what a person needs to fix the input (position, offending value, what was
expected) and an exit code the CLI uses, so no stage ever needs to print a traceback.
"""
from __future__ import annotations


class CNLError(Exception):
    """Base of every error cnl2sparql raises on bad input."""

    exit_code = 1


class CNLSyntaxError(CNLError):
    """Text that the grammar does not accept, with its position and a caret excerpt."""

    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        text: str = "",
        line: int = 1,
        column: int = 1,
        token: str | None = None,
        expected: tuple[str, ...] = (),
        hint: str | None = None,
    ) -> None:
        self.reason = message
        self.text = text
        self.line = line
        self.column = column
        self.token = token
        self.expected = tuple(expected)
        self.hint = hint
        super().__init__(self.render())

    @property
    def excerpt(self) -> str:
        """The offending line with a caret under the offending column."""
        lines = self.text.splitlines() or [""]
        src = lines[self.line - 1] if 0 < self.line <= len(lines) else ""
        return f"  {src}\n  {' ' * (self.column - 1)}^"

    def with_hint(self, hint: str) -> "CNLSyntaxError":
        """This error with ``hint`` added to its message."""
        self.hint = hint
        self.args = (self.render(),)
        return self

    def render(self) -> str:
        where = f"line {self.line}, column {self.column}"
        head = f"{self.reason} at {where}"
        if self.token is not None:
            head = f"{self.reason} at {where}: {self.token!r}"
        parts = [head]
        if self.expected:
            parts.append("expected one of: " + ", ".join(self.expected))
        if self.hint:
            parts.append(self.hint)
        if self.text:
            parts.append(self.excerpt)
        return "\n".join(parts)


class LexiconError(CNLError):
    """A label that cannot be resolved to exactly one IRI."""

    exit_code = 3

    def __init__(
        self,
        message: str,
        *,
        label: str,
        kind: str = "entity",
        position: int | None = None,
        suggestions: tuple[str, ...] = (),
        candidates: tuple[str, ...] = (),
    ) -> None:
        self.label = label
        self.kind = kind
        self.position = position
        self.suggestions = tuple(suggestions)
        self.candidates = tuple(candidates)
        parts = [message]
        if position is not None:
            parts[0] += f" (at character {position + 1})"
        if candidates:
            parts.append("it could be any of: " + ", ".join(candidates))
        if suggestions:
            parts.append("closest known labels: " + ", ".join(repr(s) for s in suggestions))
        super().__init__("\n".join(parts))


class CompileError(CNLError):
    """A parsed query that the chosen KG profile cannot express."""

    exit_code = 4


class PrintError(CompileError):
    """An IR that a dialect cannot print (e.g. built by hand or by the decompiler)."""


class NoValueToRank(CompileError):
    """A superlative that picks among things of a class ("the 10 highest <mountain>-s"): they
    have no value to rank them by, and ORDER BY their IRIs would answer something arbitrary."""

    CONSTRUCT = "ORDER BY the things of a class (their IRIs) with a limit"


class UnsupportedSPARQLError(CNLError):
    """SPARQL using a construct the decompiler cannot express in CNL; names the construct."""

    exit_code = 4

    def __init__(self, construct: str, detail: str = "") -> None:
        self.construct = construct
        super().__init__(f"cannot express {construct} in CNL" + (f": {detail}" if detail else ""))


class MeaningChangeError(UnsupportedSPARQLError):
    """The decompiler's reading of a query, compiled again, is not equivalent to the query:
    the decompiler, a printer or a parser would have changed its meaning, so it is refused
    (the meaning guard of :mod:`cnl.sparql.decompile`); ``detail`` names the first difference."""

    CONSTRUCT = "a reading that would change the query's meaning"

    def __init__(self, detail: str = "") -> None:
        super().__init__(self.CONSTRUCT, detail)


class DataError(CNLError):
    """A dataset file that is missing or not in the expected shape."""

    exit_code = 5


class SPARQLParseError(CNLSyntaxError):
    """SPARQL text that the SPARQL parser rejects, with the parser's line and column."""

    exit_code = 2


# --- Knowledge-graph access (cnl.kg). Exit codes 10-19 are reserved for this layer. ---


class KGError(CNLError):
    """A query that could not be answered by the knowledge graph."""

    exit_code = 10


class EndpointUnreachable(KGError):
    """The SPARQL endpoint cannot be reached (connection refused, unknown host, DNS)."""

    exit_code = 11


class QueryTimeout(KGError):
    """The endpoint did not answer within the timeout."""

    exit_code = 12


class QueryCancelled(QueryTimeout):
    """Work stopped because the request it was for has ended (the client went away, or the
    response was already sent)."""


class QueryCapacityExceeded(QueryTimeout):
    """A query that outgrew the fast lane while every slot for long queries was taken: it was
    stopped, to be tried again later (a server answers 503 with Retry-After)."""


class QueryRejected(KGError):
    """A query refused before it was sent, e.g. a SPARQL Update on a read-only connection
    (``update=True``: its message names no flag, each interface says how it allows updates —
    the CLI ``--allow-updates``, Python ``allow_updates=True``; the HTTP server never does)."""

    exit_code = 13

    def __init__(self, message: str = "", *, update: bool = False) -> None:
        super().__init__(message)
        self.update = update


class FederationRefused(QueryRejected):
    """A query that would make the store fetch a URL (SERVICE, LOAD) whose target is not on
    the operator's allow-list; the message names the construct and the target."""

    def __init__(self, construct: str, target: str | None, *, allowed: int = 0, nested: bool = False) -> None:
        self.construct, self.target = construct, target
        if nested:
            super().__init__(f"refused {construct} inside {construct}: the inner one would be run by the outer "
                             f"endpoint, beyond the operator's allow-list")
            return
        where = f"<{target}>" if target else "a target known only at run time"
        if allowed:
            why = (f"it is not among the {allowed} endpoint{'s' if allowed != 1 else ''} the operator allows"
                   if target else "only SERVICE to an endpoint the operator allows, named by IRI, may run")
            super().__init__(f"refused {construct} {where}: {why}")
        else:
            super().__init__(f"refused {construct} {where}: queries may not fetch from other servers "
                             f"(federation is off; an operator can allow endpoints with --allow-service)")


class SPARQLSyntaxError(KGError):
    """SPARQL that does not parse, with line and column when known."""

    exit_code = 14


class EndpointError(KGError):
    """The endpoint answered with an error (HTTP status) that retrying did not fix."""

    exit_code = 15


class ResultTooLarge(KGError):
    """A result bigger than the configured size cap."""

    exit_code = 16


class QueryMemoryExceeded(ResultTooLarge):
    """A query that needed more memory than a query worker may use; the worker was replaced."""


class StoreError(KGError):
    """The embedded store cannot be opened, or a file cannot be loaded into it."""

    exit_code = 17


# --- Entity linking and search indices (cnl.linking). ---


class LinkingError(CNLError):
    """An index, entity map or linker that cannot be built or used."""

    exit_code = 18


class OptionalDependencyMissing(CNLError):
    """A feature needs an optional package that is not installed; the message says which."""

    exit_code = 19

    def __init__(self, feature: str, package: str, hint: str = "") -> None:
        self.feature = feature
        self.package = package
        msg = f"{feature} needs the optional package {package!r}, which is not installed"
        super().__init__(msg + (f"; {hint}" if hint else ""))


# --- Agent tools, agent loop and servers (cnl.agent). Exit codes 50-59 are reserved for this layer. ---


class AgentError(CNLError):
    """An agent run that could not be carried out (bad configuration, no answer)."""

    exit_code = 50


class ToolCallError(AgentError):
    """A tool call naming an unknown tool or giving arguments that do not fit its schema."""

    exit_code = 51


class ModelEndpointError(AgentError):
    """The chat-completions endpoint could not be reached or answered with an error."""

    exit_code = 52


class ServerConfigError(AgentError):
    """A server or agent configuration (datasets, file, options) that cannot be used."""

    exit_code = 53


class TranslatorUnavailable(AgentError):
    """The learned parser (cnl.translate) is not installed or has no model to load."""

    exit_code = 54


class UnknownIRIError(AgentError):
    """An IRI used in a query that no earlier tool call showed (know-before-use)."""

    exit_code = 55


# --- Decompiler, profile files and grammar tests (issue 3). Exit codes 20-29 are reserved here. ---


class ProfileFileError(CNLError):
    """A KG profile file (TOML) that cannot be read or does not describe a valid profile."""

    exit_code = 20


class GrammarTestFileError(CNLError):
    """A grammar-test cases file that cannot be read or is not a list of {cnl, sparql?, answers?}."""

    exit_code = 21


class GrammarTestFailed(CNLError):
    """At least one grammar-test case failed (the report lists each case)."""

    exit_code = 22

# --- The learned parser (cnl.learn): training, inference. ---


class ModelError(CNLError):
    """A model, adapter or training run that cannot be loaded or used."""

    exit_code = 30


class ModelNotFound(ModelError):
    """The base model or an adapter is missing; the message says how to install or train it."""

    exit_code = 31


class TrainingError(ModelError):
    """A training run that cannot start or go on (bad configuration, no examples, bad checkpoint)."""

    exit_code = 32


class TranslationError(ModelError):
    """The model produced no usable CNL for a question (no candidate parses or compiles)."""

    exit_code = 33


class TranslationAbstained(TranslationError):
    """The parser declined the question: it names nothing the KG knows or asks nothing the CNL
    can say ("hello", gibberish); the message gives the reason (cnl.learn.abstention)."""

    exit_code = 34


# --- evaluation (issue 6): exit codes 40-49 ---------------------------------------------------

class EvalError(CNLError):
    """An evaluation run cannot go on."""

    exit_code = 40


class EvalConfigError(EvalError):
    """The experiment configuration (TOML) is missing, unreadable or names unknown values."""

    exit_code = 41


class EvalDependencyMissing(EvalError):
    """Something the metrics need is not installed (WordNet for METEOR, the learned parser)."""

    exit_code = 42


class EvalCacheError(EvalError):
    """A cached adapter or prediction file is corrupt or belongs to another configuration."""

    exit_code = 43
