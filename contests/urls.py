from django.urls import path

from contests import views

app_name = "contests"

urlpatterns = [
    path("concursos/", views.contest_list, name="list"),
]
