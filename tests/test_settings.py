"""config/settings.py: the development `.env` is read; production refuses to start without a secret.

Each case imports the settings in a fresh interpreter with a controlled environment (only PATH, plus
what the case sets), since settings are read once per process.
"""

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
PRINT_SETTINGS = "import config.settings as s; print(s.DEBUG, s.SECRET_KEY)"


def _load_settings(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS],
        cwd=BASE_DIR,
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_without_secret_key_refuses_to_start(tmp_path):
    result = _load_settings({"ENV_FILE": str(tmp_path / "absent.env")})

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "Defina SECRET_KEY" in result.stderr


def test_production_with_empty_secret_key_refuses_to_start(tmp_path):
    result = _load_settings({"ENV_FILE": str(tmp_path / "absent.env"), "DEBUG": "0", "SECRET_KEY": ""})

    assert result.returncode != 0
    assert "Defina SECRET_KEY" in result.stderr


def test_development_env_file_is_read(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("DEBUG=1\nSECRET_KEY=from-the-env-file\n")

    result = _load_settings({"ENV_FILE": str(env_file)})

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "from-the-env-file"]


def test_environment_wins_over_env_file(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("DEBUG=1\nSECRET_KEY=from-the-env-file\n")

    result = _load_settings({"ENV_FILE": str(env_file), "DEBUG": "0", "SECRET_KEY": "from-the-environment"})

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "from-the-environment"]


def test_secret_key_fallbacks_are_read_from_the_environment(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", "import config.settings as s; print(s.SECRET_KEY_FALLBACKS)"],
        cwd=BASE_DIR,
        env={
            "PATH": os.environ.get("PATH", ""),
            "ENV_FILE": str(tmp_path / "absent.env"),
            "SECRET_KEY": "new-key",
            "SECRET_KEY_FALLBACKS": "old-key-1,old-key-2",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['old-key-1', 'old-key-2']"


def test_a_session_made_with_the_old_key_survives_the_rotation(settings):
    """docs/operations.md: the old key goes to SECRET_KEY_FALLBACKS, so nobody is logged out at once."""
    from django.core import signing

    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "old-key", []
    token = signing.dumps({"session": 1})
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "new-key", ["old-key"]
    assert signing.loads(token) == {"session": 1}
    settings.SECRET_KEY_FALLBACKS = []  # the old key dropped: its tokens are refused
    try:
        signing.loads(token)
    except signing.BadSignature:
        pass
    else:
        raise AssertionError("a token of a dropped key was accepted")


def test_log_records_are_one_line_with_time_level_logger_and_message():
    import logging
    import re

    from django.conf import settings

    line = settings.LOGGING["formatters"]["line"]
    formatter = logging.Formatter(line["format"], line["datefmt"])
    record = logging.LogRecord("cotas.database", logging.ERROR, __file__, 1, "Banco indisponível", None, None)
    text = formatter.format(record)
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} ERROR cotas\.database Banco indisponível", text
    )
    assert settings.LOGGING["handlers"]["console"]["formatter"] == "line"


def test_operations_doc_lists_every_environment_variable_the_settings_read():
    import re

    settings_source = (BASE_DIR / "config" / "settings.py").read_text()
    doc = (BASE_DIR / "docs" / "operations.md").read_text()
    names = set(re.findall(r'env(?:\.\w+)?\("([A-Z_]+)"', settings_source))
    names |= set(re.findall(r'os\.environ\.get\("([A-Z_]+)"', settings_source))
    assert {"SECRET_KEY", "DATABASE_URL", "SECRET_KEY_FALLBACKS", "ENV_FILE"} <= names
    missing = sorted(name for name in names if f"`{name}`" not in doc)
    assert not missing, f"docs/operations.md não documenta: {missing}"
