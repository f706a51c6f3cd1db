from django.db import migrations, models


class Migration(migrations.Migration):
    """The acts' kinds (rules.Act), in a migration of its own: regenerated after a rebase with every
    engineer's kinds (issue 21)."""

    dependencies = [
        ("declarations", "0021_hearing_time_and_place"),
    ]

    operations = [
        migrations.AlterField(
            model_name='historicalprocedureact',
            name='kind',
            field=models.CharField(choices=[('opening', 'Instauração'), ('notice', 'Intimação para defesa'), ('defence', 'Defesa'), ('evidence', 'Prova'), ('hearing', 'Audiência'), ('instruction_closed', 'Encerramento da instrução'), ('final_statement', 'Alegações finais'), ('report', 'Relatório com proposta de decisão'), ('decision', 'Decisão'), ('decision_extension', 'Prorrogação do prazo para decidir'), ('decision_notice', 'Intimação da decisão'), ('appeal', 'Recurso'), ('reconsideration', 'Juízo de reconsideração'), ('superior_decision', 'Decisão da instância superior'), ('final', 'Decisão definitiva'), ('revision_request', 'Pedido de revisão'), ('revision', 'Revisão'), ('annulment', 'Anulação da decisão'), ('after_final_notice', 'Intimação da revisão ou anulação'), ('closing_notice', 'Intimação do encerramento da instrução'), ('diligence', 'Diligência ou prova determinada'), ('hearing_notice', 'Intimação de audiência ou diligência')], max_length=30, verbose_name='ato'),
        ),
        migrations.AlterField(
            model_name='procedureact',
            name='kind',
            field=models.CharField(choices=[('opening', 'Instauração'), ('notice', 'Intimação para defesa'), ('defence', 'Defesa'), ('evidence', 'Prova'), ('hearing', 'Audiência'), ('instruction_closed', 'Encerramento da instrução'), ('final_statement', 'Alegações finais'), ('report', 'Relatório com proposta de decisão'), ('decision', 'Decisão'), ('decision_extension', 'Prorrogação do prazo para decidir'), ('decision_notice', 'Intimação da decisão'), ('appeal', 'Recurso'), ('reconsideration', 'Juízo de reconsideração'), ('superior_decision', 'Decisão da instância superior'), ('final', 'Decisão definitiva'), ('revision_request', 'Pedido de revisão'), ('revision', 'Revisão'), ('annulment', 'Anulação da decisão'), ('after_final_notice', 'Intimação da revisão ou anulação'), ('closing_notice', 'Intimação do encerramento da instrução'), ('diligence', 'Diligência ou prova determinada'), ('hearing_notice', 'Intimação de audiência ou diligência')], max_length=30, verbose_name='ato'),
        ),
    ]
