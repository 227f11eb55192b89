"""The dependency direction is one way: table → drivers, cards, engine; cards → engine."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS = {"engine", "cards", "drivers", "table"}


def imports_of(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {f: sorted(n - stdlib - {"engine"}) for f, n in imports_of("engine").items() if n - stdlib - {"engine"}}
    assert bad == {}


def test_engine_imports_no_io_modules() -> None:
    io_modules = {"sqlite3", "socket", "os", "subprocess", "time", "threading", "pathlib"}
    bad = {f: sorted(n & io_modules) for f, n in imports_of("engine").items() if n & io_modules}
    assert bad == {}


def test_drivers_import_neither_engine_nor_table() -> None:
    bad = {f: sorted(n & {"engine", "table", "cards"}) for f, n in imports_of("drivers").items()
           if n & {"engine", "table", "cards"}}
    assert bad == {}


def test_cards_do_not_import_table_or_drivers() -> None:
    bad = {f: sorted(n & {"table", "drivers"}) for f, n in imports_of("cards").items() if n & {"table", "drivers"}}
    assert bad == {}


def test_the_walker_sees_imports(tmp_path: Path) -> None:
    # The check above is only worth something if the walker finds imports at all.
    assert "engine" in imports_of("table")["table/control/controller.py"]


# --- table/ as layers -------------------------------------------------------------------------
# Each layer may import the layers before it in this list, and itself; nothing imports upward.
# table/config.py sits under them all; table/__main__.py is the command line's.
LAYERS = ("config", "storage", "session", "control", "words", "league", "ui", "web", "sim", "app", "cli")
SQLITE_LAYERS = {"storage"}
PYGAME_LAYERS = {"ui", "app"}
PAHO_LAYERS = {"league"}


def table_modules() -> dict[str, Path]:
    """Every module under table/, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted((ROOT / "table").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def resolve(module: str, modules: dict[str, Path]) -> str | None:
    """The module of ours that ``module`` names: itself, or the nearest package above it."""
    while module and module not in modules:
        module = module.rpartition(".")[0]
    return module or None


def import_graph() -> dict[str, set[str]]:
    """Module -> the table/ modules it imports, anywhere in its body (inside functions too)."""
    modules = table_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    root = ".".join(base + ([node.module] if node.module else []))
                else:
                    root = node.module or ""
                targets = [f"{root}.{alias.name}" for alias in node.names] + [root]
                # ``from table.words import i18n`` names the module table.words.i18n, not only the package
                targets = [t for t in targets if t in modules] or [root]
            for target in targets:
                if target.startswith("table"):
                    ours = resolve(target, modules)
                    if ours and ours != name:
                        edges.add(ours)
        graph[name] = edges
    return graph


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "config"                     # table/__init__.py: nothing in it
    if parts[1] == "__main__":
        return "cli"
    assert parts[1] in LAYERS, f"{module} is in no layer: put it under one of {LAYERS}"
    return parts[1]


def test_every_table_module_is_in_a_layer_with_a_docstring_that_says_what_it_owns() -> None:
    for name, path in table_modules().items():
        layer_of(name)
    for layer in LAYERS[1:]:
        init = ROOT / "table" / layer / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert "may import" in doc.lower(), f"table/{layer}/__init__.py: say what the layer owns and what it may import"


def test_no_table_module_imports_a_layer_above_its_own() -> None:
    upward = sorted(f"{a} -> {b}" for a, targets in import_graph().items() for b in targets
                    if LAYERS.index(layer_of(b)) > LAYERS.index(layer_of(a)))
    assert upward == []


def test_the_pages_do_not_import_the_screen() -> None:
    """The words (catalogs, plural forms, names shown) sit below both: the phones' pages need no pygame layer."""
    edges = sorted(f"{a} -> {b}" for a, targets in import_graph().items() for b in targets
                   if layer_of(a) == "web" and layer_of(b) == "ui")
    assert edges == []


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
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
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_table_has_no_import_cycle_even_through_imports_inside_functions() -> None:
    graph = import_graph()
    # a package's __init__ importing its own modules is no cycle of layers: only real loops count
    assert find_cycles(graph) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_imports_inside_functions_and_from_package_imports() -> None:
    graph = import_graph()
    assert "table.control.controller" in graph and "table.cli" in graph
    assert any(targets for targets in graph.values())
    # ``from table.words import i18n`` inside a function is an edge to table.words.i18n
    assert any("table.words.i18n" in targets for name, targets in graph.items() if name.startswith("table.web"))


def _imports_module(path: Path, top: str) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == top for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == top:
            return True
    return False


def test_sqlite3_is_imported_only_under_table_storage() -> None:
    bad = [name for name, path in table_modules().items()
           if _imports_module(path, "sqlite3") and layer_of(name) not in SQLITE_LAYERS]
    assert bad == []


def test_pygame_is_imported_only_under_table_ui_and_the_run_loop() -> None:
    bad = [name for name, path in table_modules().items()
           if _imports_module(path, "pygame") and layer_of(name) not in PYGAME_LAYERS]
    assert bad == []


def test_paho_mqtt_is_imported_only_under_table_league() -> None:
    bad = [name for name, path in table_modules().items()
           if _imports_module(path, "paho") and layer_of(name) not in PAHO_LAYERS]
    assert bad == []


# --- size: a class a reader can hold in mind ---------------------------------------------------
MAX_CLASS_LINES = 400
MAX_FUNCTION_LINES = 80
REASON = "Long:"            # a docstring line starting so says why a longer one stays whole


def oversized() -> list[str]:
    found = []
    for name, path in table_modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ClassDef):
                limit = MAX_CLASS_LINES
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                limit = MAX_FUNCTION_LINES
            else:
                continue
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            doc = ast.get_docstring(node) or ""
            if length > limit and not any(line.strip().startswith(REASON) for line in doc.splitlines()):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_class_over_400_lines_and_no_function_over_80_without_a_reason() -> None:
    assert oversized() == []


def test_an_import_of_table_inside_a_function_says_why_on_its_line() -> None:
    """Imports go at the top. One inside a function only to dodge a cycle is the cycle; the few that
    stay keep a heavy package (pygame, Starlette) out of the commands that do not need it, and say so."""
    bare = []
    for name, path in table_modules().items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for fn in ast.walk(ast.parse("\n".join(lines), str(path))):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("table"):
                    if "#" not in lines[node.lineno - 1]:
                        bare.append(f"{path.relative_to(ROOT)}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    assert bare == []


# --- engine/, cards/ and drivers/: no import cycle ------------------------------------------------
def module_graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports, anywhere in its body (inside functions and
    ``if TYPE_CHECKING:`` too). ``from engine import commands`` is an edge to engine.commands."""
    modules: dict[str, Path] = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                edges.update(resolve(alias.name, modules) or "" for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    edges.add(resolve(f"{node.module}.{alias.name}", modules) or "")
        graph[name] = edges - {"", name}
    return graph


def test_engine_cards_and_drivers_have_no_import_cycle_even_through_imports_inside_functions() -> None:
    graph = module_graph(("engine", "cards", "drivers"))
    assert "engine.effects" in graph and "engine.strength" in graph["engine.serialize"]
    assert find_cycles(graph) == []
