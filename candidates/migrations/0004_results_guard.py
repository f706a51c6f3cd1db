"""A published result run is frozen in the database too (PostgreSQL, the production database).

Triggers refuse to UPDATE or DELETE an entry of a published run, to delete a published run, and to change
what a published run is (its status, kind, contest, scope or inputs). Services never try (there is no
update service for entries); this catches a shell, a script or a bug. TRUNCATE (used by test teardown) is
not affected. On SQLite (development) only the services guard the runs.
"""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION candidates_resultentry_frozen() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM candidates_resultrun WHERE id = OLD.run_id AND status = 'published') THEN
        RAISE EXCEPTION 'Lista publicada: as linhas de uma lista publicada não podem ser alteradas nem excluídas (calcule uma nova lista).';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER candidates_resultentry_frozen
    BEFORE UPDATE OR DELETE ON candidates_resultentry
    FOR EACH ROW EXECUTE FUNCTION candidates_resultentry_frozen();

CREATE OR REPLACE FUNCTION candidates_resultrun_frozen() RETURNS trigger AS $$
BEGIN
    IF OLD.status = 'published' THEN
        IF TG_OP = 'DELETE' THEN
            RAISE EXCEPTION 'Lista publicada: não pode ser excluída.';
        END IF;
        IF NEW.status IS DISTINCT FROM OLD.status OR NEW.kind IS DISTINCT FROM OLD.kind
           OR NEW.contest_id IS DISTINCT FROM OLD.contest_id OR NEW.position_id IS DISTINCT FROM OLD.position_id
           OR NEW.inputs_hash IS DISTINCT FROM OLD.inputs_hash OR NEW.published_at IS DISTINCT FROM OLD.published_at
        THEN
            RAISE EXCEPTION 'Lista publicada: espécie, situação, alcance e dados de entrada não podem mudar (calcule uma nova lista).';
        END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER candidates_resultrun_frozen
    BEFORE UPDATE OR DELETE ON candidates_resultrun
    FOR EACH ROW EXECUTE FUNCTION candidates_resultrun_frozen();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS candidates_resultrun_frozen ON candidates_resultrun;
DROP FUNCTION IF EXISTS candidates_resultrun_frozen();
DROP TRIGGER IF EXISTS candidates_resultentry_frozen ON candidates_resultentry;
DROP FUNCTION IF EXISTS candidates_resultentry_frozen();
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("candidates", "0003_results_and_nominations")]

    operations = [migrations.RunPython(forward, backward)]
