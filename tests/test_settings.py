"""config/settings.py: the development `.env` is read; production refuses to start without a secret, the
site's public address or the key of the access codes.

Each case imports the settings in a fresh interpreter with a controlled environment (only PATH, plus
what the case sets), since settings are read once per process.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
PRINT_SETTINGS = "import config.settings as s; print(s.DEBUG, s.SECRET_KEY)"
PRINT_ADDRESSES = "import config.settings as s; print(s.PUBLIC_BASE_URL, s.ACCESS_CODE_KEY)"
# What production must set beyond SECRET_KEY: without either, start-up stops naming it.
REQUIRED_IN_PRODUCTION = {
    "PUBLIC_BASE_URL": "https://concursos.prefeitura.example",
    "ACCESS_CODE_KEY": "the-access-code-key",
}


def _load_settings(env: dict[str, str], code: str = PRINT_SETTINGS) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
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

    result = _load_settings(
        {
            "ENV_FILE": str(env_file),
            "DEBUG": "0",
            "SECRET_KEY": "from-the-environment",
            **REQUIRED_IN_PRODUCTION,
        }
    )

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
            **REQUIRED_IN_PRODUCTION,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['old-key-1', 'old-key-2']"


def _production(tmp_path, **overrides: str) -> dict[str, str]:
    """A production environment (no `.env`, DEBUG off) with everything required, less or plus ``overrides``
    (a value of None leaves the variable out)."""
    env = {"ENV_FILE": str(tmp_path / "absent.env"), "SECRET_KEY": "production-key", **REQUIRED_IN_PRODUCTION}
    env.update(overrides)
    return {name: value for name, value in env.items() if value is not None}


def test_production_with_every_required_variable_starts(tmp_path):
    result = _load_settings(_production(tmp_path), PRINT_ADDRESSES)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["https://concursos.prefeitura.example", "the-access-code-key"]


@pytest.mark.parametrize("name", sorted(REQUIRED_IN_PRODUCTION))
@pytest.mark.parametrize("value", [None, ""], ids=["absent", "empty"])
def test_production_without_a_required_variable_refuses_to_start_naming_it(tmp_path, name, value):
    result = _load_settings(_production(tmp_path, **{name: value}), PRINT_ADDRESSES)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"Defina {name} no ambiente" in result.stderr
    (other,) = {*REQUIRED_IN_PRODUCTION} - {name}
    assert other not in result.stderr, "names only the missing one"


def test_access_code_key_is_not_derived_from_the_secret_key_outside_debug(tmp_path):
    """Rotating SECRET_KEY (docs/operations.md, section 6) leaves the candidates' codes as they were."""
    before = _load_settings(_production(tmp_path, SECRET_KEY="old-key"), PRINT_ADDRESSES)
    after = _load_settings(_production(tmp_path, SECRET_KEY="new-key"), PRINT_ADDRESSES)

    assert before.returncode == after.returncode == 0, before.stderr + after.stderr
    assert before.stdout == after.stdout


def test_development_defaults_to_the_local_server_and_a_derived_access_code_key(tmp_path):
    env = {"ENV_FILE": str(tmp_path / "absent.env"), "DEBUG": "1", "SECRET_KEY": "dev-key"}

    default_port = _load_settings(env, PRINT_ADDRESSES)
    other_port = _load_settings({**env, "PORT": "8123"}, PRINT_ADDRESSES)

    assert default_port.returncode == other_port.returncode == 0, default_port.stderr + other_port.stderr
    assert default_port.stdout.split() == ["http://127.0.0.1:8000", "cotas.access-code:dev-key"]
    assert other_port.stdout.split()[0] == "http://127.0.0.1:8123"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("https://concursos.prefeitura.example/", "https://concursos.prefeitura.example"),
     ("http://10.0.0.5:8080", "http://10.0.0.5:8080")],
)  # fmt: skip
def test_public_base_url_is_the_origin_without_a_trailing_slash(tmp_path, value, expected):
    result = _load_settings(_production(tmp_path, PUBLIC_BASE_URL=value), PRINT_ADDRESSES)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == expected


@pytest.mark.parametrize("value", ["concursos.prefeitura.example", "https://prefeitura.example/cotas"])
def test_public_base_url_that_is_not_an_origin_refuses_to_start(tmp_path, value):
    """Every link is PUBLIC_BASE_URL followed by a path from the root: no scheme, or a path of its own,
    would print links that lead nowhere."""
    result = _load_settings(_production(tmp_path, PUBLIC_BASE_URL=value), PRINT_ADDRESSES)

    assert result.returncode != 0
    assert "PUBLIC_BASE_URL deve ser só a origem do site" in result.stderr


def test_one_public_address_setting():
    """QR codes, e-mails and letters share PUBLIC_BASE_URL; the old second address and the dead TESTING
    switch are gone."""
    from django.conf import settings

    assert not hasattr(settings, "SITE_URL")
    assert not hasattr(settings, "TESTING")


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


@pytest.mark.skipif(shutil.which("make") is None, reason="make ausente")
@pytest.mark.parametrize(("args", "organization"), [([], "santa-maria"), (["DEMO=angra"], "angra")])
def test_make_demo_seeds_with_the_port_it_serves_on_and_the_chosen_organisation(args, organization):
    """The demo's e-mails and PDFs are made by ``seed_demo``: it gets the PORT ``make run`` serves on."""
    root = Path(__file__).resolve().parent.parent
    dry = subprocess.run(
        ["make", "-n", "demo", "PORT=8123", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    line = next(line for line in dry.stdout.splitlines() if "seed_demo" in line)
    assert line.startswith("PORT=8123 ") and line.endswith(f"seed_demo --organization {organization}")
