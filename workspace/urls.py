"""The workspace's own addresses (no namespace: ``login``, ``home``… are the project's): signing in and out,
the password, the staff's home ("Pendências") and the health check."""

from django.contrib.auth import views as auth_views
from django.urls import path

from workspace.login import login_view, logout_view, password_change_view
from workspace.views.health import health
from workspace.views.home import home

urlpatterns = [
    path("saude/", health, name="health"),
    path("entrar/", login_view, name="login"),
    path("sair/", logout_view, name="logout"),
    path("senha/", password_change_view, name="password_change"),
    path("senha/alterada/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # The staff's home ("Pendências"); the public portal's home is "/".
    path("painel/", home, name="home"),
]
