"""The import contract of ``ahiko``: layers between packages, no cycle inside ``rooms``.

Layers, top to bottom (a package may import only from layers below it, and
``ahiko.poker`` imports nothing of ours)::

    server > competition > rooms > (bots | history | fairness | wallet) > (poker | store)

The graph is read from the source with :mod:`ast`. Between packages every ``import``
counts, at the top of a file, inside a function or under ``if TYPE_CHECKING:``: an import
placed late or guarded is still a dependency. Inside ``rooms`` the cycle check counts every
import too, an annotation-only one under ``if TYPE_CHECKING:`` included: a part that names
the type of what it is handed depends on it as surely as one that calls it.
``ahiko/__init__.py`` and ``ahiko/cli.py`` sit above every layer (the command line) and are
not checked.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

#: Each package's layer: higher numbers may import lower ones, never the reverse, and two
#: packages of the same layer may not import each other.
LAYERS: Mapping[str, int] = {
    "server": 4,
    "competition": 3,
    "rooms": 2,
    "bots": 1,
    "history": 1,
    "fairness": 1,
    "wallet": 1,
    "poker": 0,
    "store": 0,
}
#: Packages that may import nothing else of ours.
ISOLATED = frozenset({"poker"})
#: Packages in which no two modules may import each other in a loop.
ACYCLIC_INSIDE = ("rooms",)
#: Modules of ``rooms/house`` that still name the ``Room`` they are handed (converted to
#: ports on their own branch): their type-only imports are not yet counted. May only shrink.
ROOT = "ahiko"


@dataclass(frozen=True, slots=True)
class Import:
    """One import statement: which module imports which, at which line."""

    source: str
    target: str
    line: int
    type_only: bool = False  # under ``if TYPE_CHECKING:``

    def __str__(self) -> str:
        return f"{self.source}:{self.line} imports {self.target}"


def module_name(path: Path, src: Path) -> str:
    """``src/ahiko/rooms/room.py`` -> ``ahiko.rooms.room`` (packages drop ``__init__``)."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                for stmt in node.body:
                    guarded.update(id(n) for n in ast.walk(stmt))
    return guarded


def imports_of(module: str, source: str, *, is_package: bool = False) -> list[Import]:
    """Every import of ours in ``source`` (the text of ``module``), wherever it stands."""
    found: list[Import] = []
    tree = ast.parse(source)
    guarded = _type_checking_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node)
            # ``from ahiko.rooms import commands`` names a module; ``from x import Name`` a value.
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            if target == ROOT or target.startswith(ROOT + "."):
                found.append(Import(module, target, node.lineno, id(node) in guarded))
    return found


def read_tree(src: Path) -> dict[str, list[Import]]:
    """The import graph of every module under ``src/ahiko``."""
    graph: dict[str, list[Import]] = {}
    for path in sorted((src / ROOT).rglob("*.py")):
        name = module_name(path, src)
        text = path.read_text(encoding="utf-8")
        graph[name] = imports_of(name, text, is_package=path.name == "__init__.py")
    return graph


def package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def layer_violations(graph: Mapping[str, Iterable[Import]]) -> list[str]:
    """Upward imports, imports across one layer, and imports out of an isolated package
    (one line per import statement)."""
    problems: dict[tuple[str, int], str] = {}
    for imports in graph.values():
        for imp in imports:
            src_pkg, dst_pkg = package_of(imp.source), package_of(imp.target)
            if src_pkg is None or src_pkg == dst_pkg:
                continue
            where = (imp.source, imp.line)
            if dst_pkg is None:
                top = imp.target.split(".")[1] if "." in imp.target else ""
                if top in ("cli", "web"):
                    problems[where] = f"{imp}: {top!r} sits above every layer"
                continue
            if src_pkg in ISOLATED:
                problems[where] = f"{imp}: {src_pkg!r} imports nothing of ours"
            elif LAYERS[dst_pkg] >= LAYERS[src_pkg]:
                problems[where] = (
                    f"{imp}: {src_pkg!r} (layer {LAYERS[src_pkg]}) may not import "
                    f"{dst_pkg!r} (layer {LAYERS[dst_pkg]})"
                )
    return list(problems.values())


def module_edges(
    graph: Mapping[str, Iterable[Import]],
    package: str,
    *,
    with_type_only: bool = True,
) -> dict[str, set[str]]:
    """Edges between the modules of one package (a target names the module it lives in);
    annotation-only imports count when ``with_type_only``."""
    prefix = f"{ROOT}.{package}"
    modules = {m for m in graph if m == prefix or m.startswith(prefix + ".")}
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for module in modules:
        for imp in graph[module]:
            if imp.type_only and not with_type_only:
                continue
            target = imp.target
            while target and target not in modules:
                target = target.rpartition(".")[0]
            # A package's ``__init__`` re-exports; importing *from* it is not a loop by itself.
            if target and target != module and target != prefix:
                edges[module].add(target)
    return edges


def cycles(edges: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def package_cycles(graph: Mapping[str, Iterable[Import]]) -> list[list[str]]:
    """Loops between packages (which the layers forbid; reported on their own for clarity)."""
    edges: dict[str, set[str]] = {p: set() for p in LAYERS}
    for imports in graph.values():
        for imp in imports:
            a, b = package_of(imp.source), package_of(imp.target)
            if a and b and a != b:
                edges[a].add(b)
    return cycles(edges)


def check(src: Path) -> list[str]:
    """Every breach of the contract in the tree under ``src``, as readable lines."""
    graph = read_tree(src)
    problems = layer_violations(graph)
    problems += [
        f"packages import each other in a loop: {' <-> '.join(c)}" for c in package_cycles(graph)
    ]
    for package in ACYCLIC_INSIDE:
        for component in cycles(module_edges(graph, package)):
            problems.append(
                f"modules of {package!r} import each other in a loop: {', '.join(component)}"
            )
    return problems


def files_in_cycles(src: Path, package: str, *, with_type_only: bool = True) -> int:
    """How many modules of ``package`` sit in an import loop (the figure docs/rooms.md gives)."""
    edges = module_edges(read_tree(src), package, with_type_only=with_type_only)
    return sum(len(component) for component in cycles(edges))
