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
