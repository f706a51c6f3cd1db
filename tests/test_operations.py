"""docs/operations.md, performed: the backup with pg_dump (custom format) and the restore with pg_restore
into a fresh database, with the real binaries, on the test database."""

import datetime
import os
import shutil
import subprocess
import uuid

import pytest
from django.db import connection

from contests.models import Holiday

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="Cópia e restauração são do PostgreSQL."),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

BINARIES = ("pg_dump", "pg_restore", "psql")


def _env_and_uri(name: str) -> tuple[dict[str, str], str]:
    """The environment (password) and the URI of database ``name``, like the DATABASE_URL of the docs."""
    conf = connection.settings_dict
    env = {**os.environ}
    if conf.get("PASSWORD"):
        env["PGPASSWORD"] = conf["PASSWORD"]
    host, port, user = conf.get("HOST") or "localhost", conf.get("PORT") or "5432", conf.get("USER") or ""
    return env, f"postgresql://{user}@{host}:{port}/{name}"


def _run(*args: str, env: dict[str, str]) -> str:
    result = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{args[0]}: {result.stderr}"
    return result.stdout


def test_backup_with_pg_dump_and_restore_into_a_fresh_database(tmp_path):
    missing = [name for name in BINARIES if shutil.which(name) is None]
    if missing:
        pytest.skip(f"Sem {', '.join(missing)} (pacote postgresql-client, instalado por .ci/run).")
    Holiday.objects.create(date=datetime.date(2026, 11, 20), name="Dia da Consciência Negra (cópia)")
    env, source = _env_and_uri(connection.settings_dict["NAME"])
    dump = tmp_path / "cotas.dump"
    _run("pg_dump", "--format=custom", "--no-owner", f"--file={dump}", source, env=env)
    assert dump.stat().st_size > 0

    fresh = f"cotas_restore_{uuid.uuid4().hex[:12]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{fresh}"')
    try:
        _, target = _env_and_uri(fresh)
        _run("pg_restore", "--no-owner", "--exit-on-error", f"--dbname={target}", str(dump), env=env)
        found = _run(
            "psql",
            target,
            "-tAc",
            "SELECT date, name FROM contests_holiday WHERE name LIKE '%(cópia)'",
            env=env,
        )
        assert found.strip() == "2026-11-20|Dia da Consciência Negra (cópia)"
        migrations = _run("psql", target, "-tAc", "SELECT count(*) FROM django_migrations", env=env)
        assert int(migrations) > 0
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')
