"""`cnl2sparql translate "QUESTION"` and `cnl2sparql ask "QUESTION" --store DIR|--endpoint URL`.

Both take a question, or ``--batch FILE`` (one question per line: plain text, or JSON — a
``{"question": ...}`` object or a string — when the line starts with ``{``, ``[`` or ``"``;
``-`` reads standard input) and then write one JSON object per line.
"""
from __future__ import annotations

import json
import re
import sys


def _add_model_options(p) -> None:
    from cnl.learn.prompts import EL_VARIANTS

    p.add_argument("question", nargs="?", help="the question (or use --batch)")
    p.add_argument("--batch", metavar="FILE", help="questions, one per line: plain text or JSON ({\"question\": ...} "
                                                  "or a string); '-': standard input")
    p.add_argument("--adapter", default=None, help="adapter folder (default: the shipped SQUALL adapter)")
    p.add_argument("--base-model", default=None, help="base model folder or hub id")
    p.add_argument("--el", choices=EL_VARIANTS, default="hybrid", help="entity-linking variant")
    p.add_argument("--unconstrained", action="store_true", help="no grammar-constrained decoding")
    p.add_argument("--no-validate", action="store_true", help="no validation: the first output, compiled")
    p.add_argument("--no-abstain", action="store_true",
                   help="write a query even for a question the parser would decline (a greeting, gibberish: "
                        "exit code 34 otherwise)")
    p.add_argument("--beams", type=int, default=None, help="beams / n-best size (default 1: greedy; 4: the first of 4 beams that compiles and, "
                        "with a KG, answers)")
    p.add_argument("--lexicon", default=None, help="label → ID lexicon for the generated labels")
    from cnl.sparql.profiles import profile_names

    p.add_argument("--kg", default="wikidata", help=f"KG profile the CNL compiles with ({', '.join(profile_names())}, "
                                                    "or a TOML file); default: %(default)s")
    p.add_argument("--batch-size", type=int, default=None,
                   help="questions generated together with --batch (default: 1 with beams, 8 greedy)")
    p.add_argument("--no-property-candidates", action="store_true",
                   help="prompts without property candidates (for an adapter trained with them: to measure them)")
    p.add_argument("--property-constraint", choices=["known", "candidates"], default="known",
                   help="constrained decoding writes inside <...> any known Wikidata property label (known), or "
                        "only the question's property candidates and the adapter's training properties")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="print where the time went (load, link, generate) to standard error")


def register(subparsers) -> None:
    t = subparsers.add_parser("translate", help="translate a question into CNL and SPARQL with the learned parser")
    _add_model_options(t)
    where = t.add_mutually_exclusive_group()
    where.add_argument("--store", default=None,
                       help="embedded store whose labels link the question's entities and resolve the output's "
                            "labels, and where each beam's query runs (read-only) to choose among the beams")
    where.add_argument("--endpoint", default=None,
                       help="SPARQL endpoint whose labels link the question's entities (by exact name) and resolve "
                            "the output's labels, and where each beam's query runs to choose among the beams")
    t.add_argument("--timeout", type=float, default=30.0, help="seconds per query on the store or endpoint")
    t.add_argument("--format", choices=["text", "json"], default="text")
    t.set_defaults(func=run_translate)

    a = subparsers.add_parser("ask", help="translate a question and run it on a store or an endpoint")
    _add_model_options(a)
    from cnl.cli.cmd_kg import add_kg_options

    add_kg_options(a)
    a.add_argument("--show-sparql", action="store_true", help="print the CNL and SPARQL to stderr")
    a.set_defaults(func=run_ask)


def read_questions(args) -> list[str]:
    from cnl.errors import DataError

    if args.batch is None:
        if not args.question:
            raise DataError("give a question or --batch FILE (one question per line; - for standard input)")
        return [args.question]
    handle = sys.stdin if args.batch == "-" else open(args.batch, encoding="utf-8")
    out = []
    with handle:
        for n, line in enumerate(handle, 1):
            if not line.strip():
                continue
            text = line.strip()
            if text[0] in "{[\"":
                try:
                    item = json.loads(text)
                except ValueError as err:
                    raise DataError(f"{args.batch}:{n}: not JSON ({err})") from None
            else:
                item = text  # a line of plain text is the question itself
            question = item.get("question") if isinstance(item, dict) else item
            if not isinstance(question, str) or not question.strip():
                raise DataError(f"{args.batch}:{n}: no \"question\" string")
            out.append(question)
    return out


def _translator(args, stages):
    """The learned parser, after the one-time preparations it still lacks (with progress)."""
    from cnl.learn.base_model import require_model_stack

    require_model_stack()
    from cnl.learn.prepare import prepare

    prepare(getattr(args, "store", None), adapter=args.adapter, base_model=args.base_model, missing_only=True)
    with stages.stage("loading the model"):
        from cnl.learn.inference import Translator

        translator = Translator.load(args.adapter, args.base_model)
    translator.property_constraint = args.property_constraint
    translator.abstain = not args.no_abstain
    if args.no_property_candidates:
        translator.config["property_candidates"] = 0
    return translator


def _stages(args):
    from cnl.progress import Stages

    # a batch has its own progress bar; one question shows its stages on a terminal (-v: their seconds)
    return Stages(verbose=getattr(args, "verbose", False), live=False if args.batch else None)


def _profile(args):
    from cnl.sparql.profiles import get_profile

    return get_profile(args.kg)


def _translate_all(translator, questions, args, kg=None, store=None, stages=None):
    """Translations of ``questions`` (model, indices and pools loaded once); a batch shows a
    progress bar and its questions per second on stderr."""
    from cnl.learn.inference import DEFAULT_BEAMS

    validate = not args.no_validate
    beams = args.beams if args.beams is not None else (DEFAULT_BEAMS if validate else 1)
    batch_size = args.batch_size or (1 if beams > 1 else 8)
    options = dict(el=args.el, kg=kg, lexicon=args.lexicon, constrained=not args.unconstrained, validate=validate,
                   num_beams=beams, store=store, profile=_profile(args))
    import time

    if not args.batch:
        stages = stages or _stages(args)
        where = store if store is not None else getattr(kg, "path", None)
        if where is not None:
            with stages.stage("loading the store's search index"):
                translator.entity_index(where)
        for question in questions:
            candidates = []
            with stages.stage("linking entities", lambda: f"{len(candidates)} entity candidates"):
                candidates = translator.candidates_for(question, store, kg)
            with stages.stage("writing the query", lambda: "property candidates, generation, compilation"
                              + (" and validation" if kg is not None else "")):
                translated = translator.translate_batch([question], candidates=[candidates], **options)
            yield from translated
        return

    from cnl.progress import bar

    started = time.perf_counter()
    with bar(len(questions), "translating", unit="q") as shown:
        for start in range(0, len(questions), 4 * batch_size):
            chunk = questions[start:start + 4 * batch_size]
            yield from translator.translate_batch(chunk, batch_size=batch_size, progress=shown.update, **options)
    elapsed = time.perf_counter() - started
    print(f"{len(questions)} questions in {elapsed:.1f} s: {len(questions) / max(elapsed, 1e-9):.2f} questions/s, "
          f"{elapsed / max(len(questions), 1):.2f} s per question", file=sys.stderr)


def _linking_note(args, store=None, endpoint=None) -> None:
    """With --verbose: where the entities are linked and the output's labels resolved."""
    if not getattr(args, "verbose", False):
        return
    if store:
        print(f"note: entities are linked over the store {store} (its labels); output labels resolve through "
              f"{'--lexicon, ' if args.lexicon else ''}the candidates, Wikidata's property names and the store's names",
              file=sys.stderr)
    elif endpoint:
        print(f"note: entities are linked over {endpoint} by exact name (no fuzzy matching); output labels resolve "
              f"through {'--lexicon, ' if args.lexicon else ''}the candidates, Wikidata's property names and the "
              f"endpoint's labels", file=sys.stderr)
    else:
        print("note: no --store or --endpoint: no entities are linked, and labels resolve only through --lexicon "
              "and Wikidata's property names", file=sys.stderr)


def run_translate(args) -> int:
    questions = read_questions(args)
    stages = _stages(args)
    translator = _translator(args, stages)
    _linking_note(args, args.store, args.endpoint)
    kg = None
    if args.endpoint or (args.store and not args.no_validate):
        from cnl.kg import open_kg

        # the store too, read-only: validation runs each beam's query there, so the choice among
        # the beams (answers, answer type, readings, slot fit) is the one `ask` makes
        kg = open_kg(store=None if args.endpoint else args.store, endpoint=args.endpoint, timeout=args.timeout)
        _warm_in_background(kg)
    failures, result = 0, None
    try:
        for result in _translate_all(translator, questions, args, kg=kg, store=args.store, stages=stages):
            failures += result.sparql is None
            if args.format == "json" or args.batch:
                print(json.dumps(result.to_json(), ensure_ascii=False), flush=True)
            elif not result.abstained:
                shown = as_run_reads_it(result, translator, args, kg)
                print(shown if shown is not None else "")
                if result.sparql:
                    print(result.sparql)
                for warning in result.warnings:
                    print(f"warning: {warning}", file=sys.stderr)
    finally:
        if kg is not None:
            kg.close()
    if failures and not args.batch:
        raise no_sparql_error(result, args)
    return 0


def no_sparql_error(result, args):
    """The one error line of a question that got no SPARQL: declined by the parser (exit code
    34, with its reason) or whose generated CNL does not compile (33: what the model wrote and
    why; without a KG, that no entity could be linked)."""
    from cnl.errors import TranslationAbstained, TranslationError

    if result.abstained:
        return TranslationAbstained(f"no query for {result.question!r}: {result.abstained}")
    hint = ""
    if not args.store and not getattr(args, "endpoint", None) and not args.lexicon:
        hint = " (no --store or --endpoint: no entity was linked; give the KG the question is about)"
    return TranslationError(f"the generated CNL does not compile: {result.error}{hint}")


def run_ask(args) -> int:
    from cnl.cli.cmd_kg import execute_and_print, open_from_args

    questions = read_questions(args)
    stages = _stages(args)
    with open_from_args(args) as kg:
        _warm_in_background(kg)  # the store's query process starts while the model loads
        translator = _translator(args, stages)
        _linking_note(args, args.store, getattr(args, "endpoint", None))
        for result in _translate_all(translator, questions, args, kg=kg, store=args.store, stages=stages):
            if args.batch:
                print(json.dumps(batch_row(result, kg, args), ensure_ascii=False), flush=True)
                continue
            reading = as_run_reads_it(result, translator, args, kg)
            if not result.sparql:  # (the error quotes a CNL that does not compile)
                raise no_sparql_error(result, args)
            # the reading before its answer, so that a person sees what was asked and can correct
            # it (`run`); "cnl:" beside the SPARQL with --show-sparql
            print(f"cnl: {reading}" if args.show_sparql else f"read as: {reading}", file=sys.stderr)
            for warning in result.warnings:
                print(f"warning: {warning}", file=sys.stderr)
            if args.show_sparql:
                print(result.sparql, file=sys.stderr)
            sys.stderr.flush()
            execute_and_print(kg, result.sparql, args, hints=other_readings_hint(result, args), stages=stages,
                              headers=question_headers(result.question))
    return 0


def as_run_reads_it(result, translator, args, kg):
    """The translation's CNL as a person's `run` with the same KG reads it: a label the parser
    took from the question's candidates that the KG's names read otherwise, or as ambiguous
    ("Avatar": the film, the deity, the user picture), written with its ID, so the line a person
    corrects and runs means what was run."""
    if not result.sparql or not result.cnl or kg is None:
        return result.cnl
    from cnl.cli.cmd_compile import label_resolver, load_lexicon
    from cnl.linking.resolver import pin_terms

    meant = translator.resolver(result.candidates, args.lexicon, args.store, kg)
    with label_resolver(args, load_lexicon(args.lexicon), kg) as here:
        return pin_terms(result.cnl, meant, here)


# the names the compiler gives an answer it knows nothing about (no noun, no property)
GENERIC_COLUMNS = ("answer", "x")
_WH_NOUN = re.compile(r"^\s*(?:which|what)\s+((?:[a-z][\w'-]*\s+){0,2}?[a-z][\w'-]*)\s+"
                      r"(?:is|are|was|were|did|does|do|has|have|had|can|could|will|would)\b", re.IGNORECASE)
_NOT_NOUNS = {"is", "are", "was", "were", "did", "does", "do", "has", "have", "had", "can", "could", "will",
              "would", "kind", "type", "sort"}


def question_headers(question: str) -> dict[str, str]:
    """Headers for answer columns the compiler could only call ``answer``: the question's noun
    ("Which company was founded by …" heads them ``company``), or ``who``."""
    match = _WH_NOUN.match(question)
    noun = None
    if match and match.group(1).split()[0].lower() not in _NOT_NOUNS:
        noun = match.group(1).lower()
    elif question.strip().lower().startswith("who"):
        noun = "who"
    return {column: noun for column in GENERIC_COLUMNS} if noun else {}


def _warm_in_background(kg) -> None:
    """Start an embedded store's query worker in a thread (it imports and opens the store while
    the model loads; a query that comes first waits for it as it would have)."""
    warm = getattr(kg, "warm", None)
    if warm is not None:
        import threading

        threading.Thread(target=warm, daemon=True, name="kg-warm").start()


def batch_row(result, kg, args) -> dict:
    """One JSON line of ``ask --batch``: the translation, its answers (a query cut at its
    deadline is reported in ``error`` and the batch goes on), its own ``seconds``, and for an
    empty answer ``why`` (:func:`cnl.kg.explain.explain_empty`)."""
    import time

    from cnl.errors import CNLError

    row = result.to_json()
    row["answers"] = answer = None
    started = time.perf_counter()
    if result.sparql:
        try:
            answer = kg.query(result.sparql)
        except CNLError as err:
            row["error"] = str(err).splitlines()[0]
        if isinstance(answer, bool):
            row["answers"] = answer
        elif answer is not None:
            if not args.no_labels:
                kg.add_labels(answer)
            row["answers"] = json.loads(answer.render("json"))
    # this question's own seconds (RowClock: its linking, its share of the batch's generation by
    # the length of its output, its validation) and its query's
    row["seconds"] = round(result.seconds + time.perf_counter() - started, 4)
    if answer is not None and not isinstance(answer, bool) and not len(answer) and not args.no_explain:
        from cnl.kg.explain import explain_empty

        row["why"] = [finding.message for finding in explain_empty(result.sparql, kg)]
    return row


def other_readings_hint(result, args) -> list[str]:
    """What an empty answer's user may try with the model: other readings of the question."""
    if len(result.nbest) > 1:
        return [f"none of the {len(result.nbest)} readings the model wrote (--beams {len(result.nbest)}) answers"]
    return ["--beams 4 lets the model try other readings of the question; or correct the reading above and "
            "run it with: cnl2sparql run \"CNL\" --store/--endpoint …"]
