"""Imports point one way (STYLE): no module of the product imports, even inside a function, a
module that imports it back, directly or through others. The graph is read from the sources
(``ast``): every ``import`` and ``from ... import`` between modules of ``gtp_engine`` and
``sgf``, a package counting as its ``__init__``; importing one's own parent package (its
face: names such as ``NAME``) is no arrow."""

import ast
from pathlib import Path
from typing import Dict, List, Set

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("gtp_engine", "sgf")


def module_files() -> Dict[str, Path]:
    files = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = path
    return files


def imported(module: str, path: Path, node, files) -> List[str]:
    """The modules of ``files`` that one import statement of ``module`` names."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        if node.level:
            parts = package.split(".")
            base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base for alias in node.names]
    found = []
    for name in names:
        while name and name not in files:
            name = name.rpartition(".")[0]
        if name and name != module and not module.startswith(name + "."):
            found.append(name)
    return found


def import_graph() -> Dict[str, Set[str]]:
    files = module_files()
    return {module: {target for node in ast.walk(ast.parse(path.read_text()))
                     if isinstance(node, (ast.Import, ast.ImportFrom))
                     for target in imported(module, path, node, files)}
            for module, path in files.items()}


def circles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    order, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module):
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for target in graph[module]:
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_the_graph_sees_real_imports():
    graph = import_graph()
    assert "gtp_engine.gtp.core" in graph["gtp_engine.gtp.analysis"]
    assert "gtp_engine.match.cluster" in graph["gtp_engine.match.runner"]   # inside a function


def test_imports_point_one_way():
    assert circles(import_graph()) == []
