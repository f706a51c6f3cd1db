from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from contests.login import login_view, logout_view, password_change_view
from contests.views.health import health
from contests.views.home import home

urlpatterns = [
    path("admin/", admin.site.urls),
    path("saude/", health, name="health"),
    path("entrar/", login_view, name="login"),
    path("sair/", logout_view, name="logout"),
    path("senha/", password_change_view, name="password_change"),
    path("senha/alterada/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # The staff's home ("Pendências"); the public portal's home is "/".
    path("painel/", home, name="home"),
    path("", include("portal.urls")),
    path("", include("candidates.urls")),
    path("", include("declarations.urls")),
    path("", include("contests.urls")),
]
