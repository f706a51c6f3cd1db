from django.urls import path

from monitoring import views

app_name = "monitoring"

urlpatterns = [
    path("relatorios-da-lei/", views.report, name="report"),
    path("relatorios-da-lei/entregues/", views.filed, name="filed"),
    path("relatorios-da-lei/gerar/", views.generate, name="generate"),
]
