"""The `cnl2sparql` command.

Each sub-command lives in its own module exposing ``register(subparsers)``; the module sets
``func`` on its parser. Errors derived from :class:`cnl.errors.CNLError` are printed as one
clear message and turn into the error's exit code — never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from cnl.errors import CNLError

# Sub-command modules, imported lazily so `cnl2sparql compile` never pays for torch.
COMMAND_MODULES = [
    "cnl.cli.cmd_compile",
    "cnl.cli.cmd_kg",
    "cnl.cli.cmd_link",
    "cnl.cli.cmd_agent",
    "cnl.cli.cmd_serve",
    "cnl.cli.cmd_ui",
    "cnl.cli.cmd_mcp",
    "cnl.cli.cmd_decompile",
    "cnl.cli.cmd_grammar_test",
    "cnl.cli.cmd_eval",
    "cnl.cli.cmd_train",
    "cnl.cli.cmd_ensemble",
    "cnl.cli.cmd_translate",
    "cnl.cli.cmd_prepare",
]
# The module that registers each command: a call imports its own command's module alone (the
# others import the compiler and the dialects: half a second of a cold `cnl2sparql link`).
# tests/test_cli.py checks it against what the modules register.
COMMANDS = {
    "compile": "cnl.cli.cmd_compile", "kg": "cnl.cli.cmd_kg", "query": "cnl.cli.cmd_kg", "run": "cnl.cli.cmd_kg",
    "link": "cnl.cli.cmd_link", "agent": "cnl.cli.cmd_agent", "serve": "cnl.cli.cmd_serve", "mcp": "cnl.cli.cmd_mcp",
    "decompile": "cnl.cli.cmd_decompile", "grammar-test": "cnl.cli.cmd_grammar_test", "eval": "cnl.cli.cmd_eval",
    "train": "cnl.cli.cmd_train", "ensemble": "cnl.cli.cmd_ensemble", "translate": "cnl.cli.cmd_translate",
    "ask": "cnl.cli.cmd_translate", "prepare": "cnl.cli.cmd_prepare", "ui": "cnl.cli.cmd_ui",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command-line parser; with ``command`` (a known command's name), that command's alone."""
    parser = argparse.ArgumentParser(
        prog="cnl2sparql",
        description="Compile controlled natural language (SQUALL, Sparklis) to SPARQL and run it.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in [COMMANDS[command]] if command in COMMANDS else COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv and argv[0] in COMMANDS else None
    # the data sets' profile presets (--kg wikidata-ecai), for the commands that take a profile
    if command is None or getattr(importlib.import_module(COMMANDS[command]), "TAKES_PROFILE", True):
        import cnl.datasets  # noqa: F401

    parser = build_parser(command)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CNLError as err:
        print(f"error: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except UnicodeDecodeError:
        print("error: the input is not UTF-8 text", file=sys.stderr)
        return 2
    except RecursionError:
        print("error: the input nests too deeply to be processed", file=sys.stderr)
        return 2
    except Exception as err:  # a bug: one line, the traceback only on request
        if os.environ.get("CNL_DEBUG"):
            raise
        print(f"error: internal error ({type(err).__name__}: {str(err)[:300]}); "
              f"set CNL_DEBUG=1 to see the traceback", file=sys.stderr)
        return 1


def console() -> None:
    """The ``cnl2sparql`` executable: :func:`main`, then exit. A process that loaded PyTorch
    (translate, ask, train, agent) skips the interpreter's teardown, which spends about 0.8 s
    unloading torch and transformers after the work is done; every command has closed its
    files and stores by then, and query workers end with their parent."""
    code = main()
    if "torch" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    console()
