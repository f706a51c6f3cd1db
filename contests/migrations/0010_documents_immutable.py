"""A published document is immutable in the database too: triggers refuse UPDATE and DELETE of a row of
contests_document, on PostgreSQL (production) and on SQLite (development), whatever writes (a shell, a
queryset update, a bug). The model refuses the same before the database is reached."""

from django.db import migrations

MESSAGE = "Documento publicado não se altera nem se exclui: publique uma retificação."

POSTGRES_FORWARD = f"""
CREATE OR REPLACE FUNCTION contests_document_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER contests_document_immutable BEFORE UPDATE OR DELETE ON contests_document
    FOR EACH ROW EXECUTE FUNCTION contests_document_immutable();
"""
POSTGRES_BACKWARD = """
DROP TRIGGER IF EXISTS contests_document_immutable ON contests_document;
DROP FUNCTION IF EXISTS contests_document_immutable();
"""
SQLITE_FORWARD = [
    f"CREATE TRIGGER contests_document_no_update BEFORE UPDATE ON contests_document "
    f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;",
    f"CREATE TRIGGER contests_document_no_delete BEFORE DELETE ON contests_document "
    f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS contests_document_no_update;",
    "DROP TRIGGER IF EXISTS contests_document_no_delete;",
]


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_FORWARD)
    elif vendor == "sqlite":
        for statement in SQLITE_FORWARD:
            schema_editor.execute(statement)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_BACKWARD)
    elif vendor == "sqlite":
        for statement in SQLITE_BACKWARD:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("contests", "0009_edital_text_and_documents")]

    operations = [migrations.RunPython(forward, backward)]
