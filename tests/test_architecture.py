"""The shape of the code (docs/development.md): a module's underscored names are its own.

The layers and the absence of import cycles are import-linter's contracts in pyproject.toml,
run by ``make lint``; this test adds what import-linter does not check: no module imports an
underscored name from another module of the project, nor reaches one through a module it
imported (``workers._load``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "games", "search", "render", "bench")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def private_reaches(text: str, importer: str, is_package: bool = False) -> list[str]:
    """Each underscored name the module ``importer`` (its source ``text``) takes from another
    module of the project."""
    tree = ast.parse(text)
    found = []
    module_aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = absolute(node, importer, is_package)
            if source.split(".")[0] not in PACKAGES or source == importer:
                continue
            for alias in node.names:
                if is_private(alias.name):
                    found.append(f"{importer}: from {source} import {alias.name}")
                else:
                    module_aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES and alias.asname:
                    module_aliases[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in module_aliases
            and is_private(node.attr)
        ):
            found.append(f"{importer}: {module_aliases[node.value.id]}.{node.attr}")
    return found


def test_the_checker_sees_each_way_of_reaching_a_private_name() -> None:
    text = (
        "from bot.domain.actions import _parse_game, parse\n"
        "from .views import _title\n"
        "from bot.runtime import workers as w\n"
        "import bot.storage.sqlite as db\n"
        "from . import _helpers\n"
        "w._load, db._encode, w.Workers, self._own, __name__\n"
    )
    assert private_reaches(text, "bot.domain.sample") == [
        "bot.domain.sample: from bot.domain.actions import _parse_game",
        "bot.domain.sample: from bot.domain.views import _title",
        "bot.domain.sample: from bot.domain import _helpers",
        "bot.domain.sample: bot.runtime.workers._load",
        "bot.domain.sample: bot.storage.sqlite._encode",
    ]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_imports_another_modules_underscored_names(package: str) -> None:
    reaches = [
        reach
        for path in sources()
        if module_name(path).split(".")[0] == package
        for reach in private_reaches(
            path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py"
        )
    ]
    assert reaches == []
