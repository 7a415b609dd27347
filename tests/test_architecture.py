"""The house rules, checked: stages import only the stages before them (import-linter's
contracts in .importlinter), nothing inside imports the facade, and no module imports another
module's private names."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cnl"


def test_import_contracts_hold():
    pytest.importorskip("importlinter")
    run = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                          "sys.exit(lint_imports_command())", "--no-cache"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


def _module_aliases(tree) -> set[str]:
    """Names a module binds to other cnl modules (``from cnl.x import parser as p``, ``import cnl.x as p``)."""
    import importlib.util

    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname for a in node.names if a.name.startswith("cnl") and a.asname}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cnl"):
            for a in node.names:
                if importlib.util.find_spec(f"{node.module}.{a.name}") if _is_package(node.module) else False:
                    aliases.add(a.asname or a.name)
    return aliases


def _is_package(module: str) -> bool:
    return (PACKAGE.parent / module.replace(".", "/") / "__init__.py").is_file()


def _private_imports(path: Path):
    tree = ast.parse(path.read_text("utf-8"))
    modules = _module_aliases(tree)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            yield f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}"
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cnl"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module} import {alias.name}"
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[-1].startswith("_") \
                and node.module.startswith("cnl"):
            yield f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module} import ..."


def test_no_private_names_across_modules():
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _private_imports(path)]
    assert not found, "private names imported across modules:\n" + "\n".join(found)
