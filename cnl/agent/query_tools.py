"""The tools that run and end a query: execute SPARQL or CNL, translate a question, answer, cancel."""
from __future__ import annotations

import threading

from cnl.agent.tool_schema import ALL_MODE, CNL_MODE, SPARQL_MODE, ToolResult, tool
from cnl.agent.toolbox import ToolboxBase
from cnl.errors import CNLError, CNLSyntaxError, ModelError, OptionalDependencyMissing, TranslatorUnavailable
from cnl.kg.limits import check_deadline


class QueryTools(ToolboxBase):
    """Tools that execute a query, and the two that end a run (``answer``, ``cancel``)."""

    # --- execution --------------------------------------------------------------------------

    @tool(modes=(SPARQL_MODE, ALL_MODE))
    def execute_sparql(self, sparql: str) -> ToolResult:
        """Run a SPARQL SELECT or ASK query on the knowledge graph and show its result table.

        The usual Wikidata prefixes (wd:, wdt:, p:, ps:, pq:, rdfs:, schema:) are predefined.
        Tables longer than 10 rows show the first and last 5. Errors come back as text.

        Args:
            sparql: the SPARQL query
        """
        self.require_known(self.sparql_iris(sparql))
        return ToolResult("execute_sparql", True, self.run_sparql(sparql), sparql=sparql)

    @tool(modes=(CNL_MODE, ALL_MODE))
    def execute_cnl(self, cnl: str) -> ToolResult:
        """Compile a SQUALL CNL query to SPARQL, run it, and show the SPARQL and the result table.

        Name terms by ID (<Q25191>, <P57>, optionally <P57:director>) or by exact label
        ([Christopher Nolan], <director>). A syntax error comes back with its position, what
        was expected, and a caret under the offending word, so the query can be repaired.

        Args:
            cnl: the SQUALL query, e.g. "Which <Q11424> has <P57> <Q25191>?"
        """
        try:
            sparql = self.compile_cnl(cnl)
        except CNLSyntaxError as err:
            return ToolResult("execute_cnl", False, f"syntax error in the CNL: {err}", cnl=cnl, error=err)
        text = self.run_sparql(sparql)
        return ToolResult("execute_cnl", True, f"SPARQL:\n{sparql}\n\nresult:\n{text}", sparql=sparql, cnl=cnl)

    @tool(modes=(CNL_MODE, ALL_MODE))
    def translate(self, question: str) -> ToolResult:
        """Translate a natural-language question into a SQUALL CNL query with the learned parser.

        The suggestion may need repairs: check it with execute_cnl.

        Args:
            question: the question in English
        """
        if self.translator is not None:
            output = self.translator(question)
        else:  # the question's entities linked over this toolbox's KG, as the parser was trained
            output = load_translator()(question, kg=self.kg)
        text = getattr(output, "cnl", output)
        if not isinstance(text, str) or not text.strip():
            raise TranslatorUnavailable(f"the learned parser returned no CNL for {question!r}")
        return ToolResult("translate", True, f"CNL suggestion: {text}", cnl=text)

    # --- ending a run -----------------------------------------------------------------------

    @tool("answer", modes=(SPARQL_MODE,))
    def answer_with_sparql(self, sparql: str, answer: str) -> ToolResult:
        """Give the final SPARQL query and a short human-readable answer; this ends the run.

        Args:
            sparql: the final SPARQL query that answers the question
            answer: the answer in words, from the query's result
        """
        from cnl.kg.sparql import parse_sparql

        parse_sparql(sparql)
        self.require_known(self.sparql_iris(sparql))
        return ToolResult("answer", True, "answer recorded", final=True, status="answered",
                          sparql=sparql, answer=answer)

    @tool("answer", modes=(CNL_MODE, ALL_MODE))
    def answer_with_cnl(self, cnl: str, answer: str) -> ToolResult:
        """Give the final CNL query and a short human-readable answer; this ends the run.

        The CNL is compiled to the final SPARQL; if it does not compile, the error comes back
        and the run goes on.

        Args:
            cnl: the final SQUALL query that answers the question
            answer: the answer in words, from the query's result
        """
        try:
            sparql = self.compile_cnl(cnl)
        except CNLSyntaxError as err:
            return ToolResult("answer", False, f"syntax error in the CNL: {err}", cnl=cnl, error=err)
        return ToolResult("answer", True, "answer recorded", final=True, status="answered",
                          sparql=sparql, cnl=cnl, answer=answer)

    @tool()
    def cancel(self, explanation: str, best_attempt: str | None = None) -> ToolResult:
        """Give up when no satisfying query can be found, with the reason; this ends the run.

        Args:
            explanation: why no query answers the question
            best_attempt: the best query found so far (SPARQL, or CNL in CNL mode), if any
        """
        sparql = cnl = None
        if best_attempt:
            try:
                from cnl.kg.sparql import parse_sparql

                parse_sparql(best_attempt)
                sparql = best_attempt
            except CNLError:
                try:
                    cnl, sparql = best_attempt, self.compile_cnl(best_attempt)
                except CNLError:
                    cnl = best_attempt
        return ToolResult("cancel", True, "cancelled", final=True, status="cancelled",
                          sparql=sparql, cnl=cnl, answer=explanation)


class TranslatorState:
    """Where the learned parser stands — not asked for, being imported, imported (then
    ``cnl.learn.inference`` reports loading and loaded) — readable at any moment without
    importing anything: importing the model stack takes seconds, and a status read from the
    half-imported module answered 500 (issue 30)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.importing = 0
        self.module = None
        self.error: str | None = None

    def inference(self):
        """``cnl.learn.inference``, imported through this state (ImportError/OSError pass)."""
        if self.module is not None:
            return self.module
        with self._lock:
            self.importing += 1
        try:
            import cnl.learn.inference as inference
        except (ImportError, OSError) as err:
            with self._lock:
                self.error = f"the learned parser cannot be imported: {err}"
            raise
        finally:
            with self._lock:
                self.importing -= 1
        with self._lock:
            self.module, self.error = inference, None
        return inference

    def status(self) -> dict:
        """``{"loaded", "loading", "error"}``; never imports, never blocks on a load."""
        with self._lock:
            module, importing, error = self.module, self.importing, self.error
        if module is not None:
            return module.translator_status()
        return {"loaded": False, "loading": bool(importing), "error": error}


TRANSLATOR = TranslatorState()


def load_translator():
    """The learned parser's translate (issue 5), or TranslatorUnavailable saying why not. The
    returned callable takes the question and :meth:`Translator.translate`'s options (``store``,
    ``kg``: link the question's entities over that KG, so the parser can also abstain)."""
    def run(question: str, **options):
        from cnl.learn.base_model import require_model_stack

        try:
            require_model_stack()
        except OptionalDependencyMissing as err:
            raise TranslatorUnavailable(f"the learned parser is not installed: {err}") from None
        try:
            translator = TRANSLATOR.inference().get_translator()
        except ModelError as err:  # not installed, or a failed load (tried again next time)
            raise TranslatorUnavailable(str(err)) from None
        except (ImportError, OSError) as err:
            raise TranslatorUnavailable(f"the learned parser cannot be loaded: {err}") from None
        check_deadline()  # a load that outlived its request: the request has had its answer
        try:
            return translator.translate(question, **options)
        except CNLError:
            raise
        except Exception as err:  # a model that fails mid-generation: an answer, not a crash
            raise TranslatorUnavailable(f"the learned parser failed on this question "
                                        f"({type(err).__name__}: {str(err)[:200]})") from None

    return run
