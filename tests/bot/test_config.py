import dataclasses

import pytest

from bot.config import Settings, load_dotenv, parse_dotenv


def test_parse_dotenv_handles_comments_quotes_and_export():
    text = """
# a comment
DISCORD_TOKEN="abc def"
export IDZEVA_DB='./x.db'
IDZEVA_DEV_GUILD=123  # inline comment
EMPTY=
NOEQUALS
ESCAPED="a\\"b"
HASH=a#b
"""
    assert parse_dotenv(text) == {
        "DISCORD_TOKEN": "abc def",
        "IDZEVA_DB": "./x.db",
        "IDZEVA_DEV_GUILD": "123",
        "EMPTY": "",
        "ESCAPED": 'a"b',
        "HASH": "a#b",
    }


def test_missing_env_file_gives_defaults(tmp_path):
    assert load_dotenv(tmp_path / "nope.env") == {}
    settings = Settings.from_env({}, env_file=tmp_path / "nope.env")
    assert settings == Settings()
    assert settings.token == ""
    assert settings.db_path == "./idzeva.db"
    assert settings.dev_guild is None
    assert settings.challenge_ttl == 24 * 3600
    assert settings.claim_after == 3 * 24 * 3600  # the time per move, unless chosen
    assert settings.docs_url == ""  # no published rules pages: no link
    assert settings.workers is None  # one worker process per core
    assert settings.bot_iterations is None  # the bot opponent thinks for its level's time


def test_env_file_is_read_and_real_env_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(
        "DISCORD_TOKEN=from-file\nIDZEVA_DB=file.db\nIDZEVA_DEV_GUILD=42\n"
        "IDZEVA_CHALLENGE_HOURS=2\nIDZEVA_CLAIM_DAYS=5\n"
        "IDZEVA_DOCS_URL=https://example.org/rules\nIDZEVA_WORKERS=0\n"
        "IDZEVA_BOT_ITERATIONS=40\n"
    )
    settings = Settings.from_env({"DISCORD_TOKEN": "from-env"}, env_file=env_file)
    assert settings.token == "from-env"
    assert settings.db_path == "file.db"
    assert settings.dev_guild == 42
    assert settings.challenge_ttl == 2 * 3600
    assert settings.claim_after == 5 * 24 * 3600
    assert settings.docs_url == "https://example.org/rules"
    assert settings.workers == 0  # a thread instead of processes
    assert settings.bot_iterations == 40


@pytest.mark.parametrize(
    "name, value",
    [
        ("IDZEVA_DEV_GUILD", "abc"),
        ("IDZEVA_CHALLENGE_HOURS", "soon"),
        ("IDZEVA_CLAIM_DAYS", "-1"),
        ("IDZEVA_WORKERS", "-1"),
        ("IDZEVA_WORKERS", "two"),
        ("IDZEVA_BOT_ITERATIONS", "0"),
        ("IDZEVA_BOT_ITERATIONS", "many"),
    ],
)
def test_bad_values_are_reported_by_name(name, value):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value}, env_file=None)


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().token = "x"  # type: ignore[misc]


def test_the_token_is_never_printed():
    settings = Settings.from_env({"DISCORD_TOKEN": "MTIz.secret-token.xyz"}, env_file=None)
    assert settings.token == "MTIz.secret-token.xyz"
    for shown in (repr(settings), str(settings), f"{settings}", f"{settings!r}"):
        assert "secret" not in shown and "MTIz" not in shown
        assert shown.startswith("Settings(") and "db_path='./idzeva.db'" in shown


def test_dependency_lower_bounds_are_past_known_security_fixes():
    import re
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    bounds = {}
    for requirement in project["project"]["dependencies"]:
        name, version = re.match(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", requirement).groups()
        bounds[name.lower()] = tuple(int(part) for part in version.split("."))
    assert bounds["pillow"] >= (10, 3)  # CVE-2024-28219
    assert bounds["pillow"] >= (11, 3)  # CVE-2025-48379
    assert bounds["aiohttp"] >= (3, 13, 4)  # CVE-2026-22815
    assert {"discord.py", "aiosqlite"} <= set(bounds)
