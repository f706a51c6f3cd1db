"""Angra dos Reis' lifetime (PL 094/2015 art. 5º): ten years (seeded in 0003), a report every two years,
the final one in the first quarter of the last year (§1º), and the citations of the term and of §2º (not
for editais published before). Santa Maria's text sets no term and no report (art. 6º)."""

from django.db import migrations

ANGRA = {
    "duration_years": 10,
    "monitoring_interval_years": 2,
    "final_report_quarter": 1,
    "excludes_prior_editais": True,
    "citation_term": "art. 5º",
    "citation_prior_editais": "art. 5º §2º",
}


def seed(apps, schema_editor):
    Policy = apps.get_model("contests", "Policy")
    # Every version of the law that still has the seeded term (a version changed by Gestão is left alone).
    Policy.objects.filter(slug__startswith="angra-dos-reis", duration_years=10).update(**ANGRA)


def unseed(apps, schema_editor):
    Policy = apps.get_model("contests", "Policy")
    Policy.objects.filter(slug__startswith="angra-dos-reis").update(
        final_report_quarter=None, citation_term="", citation_prior_editais=""
    )


class Migration(migrations.Migration):
    dependencies = [("contests", "0033_policy_term_and_reports")]

    operations = [migrations.RunPython(seed, unseed)]
