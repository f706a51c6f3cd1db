"""Each kind of act's signer (a free name and office until now) becomes an authority the kind points to: one
authority per distinct name and office, in office since the signer was first recorded (its competence left
blank for Gestão to complete). The procedure's signer also signs, as before, the decision on appeal and the
act of effects, now kinds of their own. Reversible: the name and office go back onto each kind."""

from django.db import migrations
from django.utils import timezone

NEW_PROCEDURE_KINDS = ("procedure_appeal", "procedure_effects")


def forwards(apps, schema_editor):
    Authority = apps.get_model("contests", "Authority")
    Signatory = apps.get_model("contests", "Signatory")
    HistoricalSignatory = apps.get_model("contests", "HistoricalSignatory")
    authorities = {}
    for row in Signatory.objects.order_by("pk"):
        name, office = row.name.strip(), row.office.strip()
        if not name or not office:
            row.delete()  # a kind without a signer: no assignment
            continue
        first = HistoricalSignatory.objects.filter(id=row.pk).order_by("history_date").first()
        since = timezone.localdate(first.history_date) if first else timezone.localdate()
        authority = authorities.get((name, office))
        if authority is None:
            authority = Authority.objects.create(name=name, office=office, valid_from=since)
            authorities[(name, office)] = authority
        elif since < authority.valid_from:
            authority.valid_from = since
            authority.save(update_fields=["valid_from"])
        row.authority = authority
        row.save(update_fields=["authority"])
    procedure = Signatory.objects.filter(kind="procedure").first()
    if procedure is not None:
        for kind in NEW_PROCEDURE_KINDS:
            if not Signatory.objects.filter(kind=kind).exists():
                Signatory.objects.create(kind=kind, authority=procedure.authority)


def backwards(apps, schema_editor):
    Signatory = apps.get_model("contests", "Signatory")
    Signatory.objects.filter(kind__in=NEW_PROCEDURE_KINDS).delete()
    for row in Signatory.objects.select_related("authority"):
        if row.authority is not None:
            row.name, row.office = row.authority.name, row.authority.office
            row.save(update_fields=["name", "office"])


class Migration(migrations.Migration):
    dependencies = [("contests", "0026_authority")]

    operations = [migrations.RunPython(forwards, backwards)]
