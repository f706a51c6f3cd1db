"""A published list's line follows the person's name in effect (issue 25, N11; Decreto 8.727/2016): the
PostgreSQL trigger of 0004_results_guard now lets an UPDATE through when it changes nothing but ``name`` and
``search_name`` (``candidates.services.names``); every other column of a published list's line stays
frozen, and deleting one is still refused."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION candidates_resultentry_frozen() RETURNS trigger AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM candidates_resultrun WHERE id = OLD.run_id AND status = 'published') THEN
        IF TG_OP = 'UPDATE'
           AND (NEW.id, NEW.run_id, NEW.position_id, NEW.registration_id, NEW.list, NEW.rank,
                NEW.general_rank, NEW.score, NEW.number, NEW.why)
               IS NOT DISTINCT FROM
               (OLD.id, OLD.run_id, OLD.position_id, OLD.registration_id, OLD.list, OLD.rank,
                OLD.general_rank, OLD.score, OLD.number, OLD.why)
        THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'Lista publicada: as linhas de uma lista publicada não podem ser alteradas nem excluídas (calcule uma nova lista).';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
"""

BACKWARD = """
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
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("candidates", "0022_phase_make_up")]

    operations = [migrations.RunPython(forward, backward)]
