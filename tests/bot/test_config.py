import dataclasses

import pytest

from bot.config import DEFAULT_DOCS_URL, Settings, load_dotenv, parse_dotenv


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
    assert settings.remind_after == 24 * 3600
    assert settings.claim_after == 7 * 24 * 3600
    assert settings.docs_url == DEFAULT_DOCS_URL
    assert settings.workers is None  # one worker process per core


def test_env_file_is_read_and_real_env_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(
        "DISCORD_TOKEN=from-file\nIDZEVA_DB=file.db\nIDZEVA_DEV_GUILD=42\n"
        "IDZEVA_CHALLENGE_HOURS=2\nIDZEVA_REMIND_HOURS=0.5\nIDZEVA_CLAIM_DAYS=3\n"
        "IDZEVA_DOCS_URL=https://example.org/rules\nIDZEVA_WORKERS=0\n"
    )
    settings = Settings.from_env({"DISCORD_TOKEN": "from-env"}, env_file=env_file)
    assert settings.token == "from-env"
    assert settings.db_path == "file.db"
    assert settings.dev_guild == 42
    assert settings.challenge_ttl == 2 * 3600
    assert settings.remind_after == 1800
    assert settings.claim_after == 3 * 24 * 3600
    assert settings.docs_url == "https://example.org/rules"
    assert settings.workers == 0  # a thread instead of processes


@pytest.mark.parametrize(
    "name, value",
    [
        ("IDZEVA_DEV_GUILD", "abc"),
        ("IDZEVA_REMIND_HOURS", "soon"),
        ("IDZEVA_CLAIM_DAYS", "-1"),
        ("IDZEVA_WORKERS", "-1"),
        ("IDZEVA_WORKERS", "two"),
    ],
)
def test_bad_values_are_reported_by_name(name, value):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value}, env_file=None)


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().token = "x"  # type: ignore[misc]
