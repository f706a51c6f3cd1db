"""Staff views of the candidates app, one module per screen family; each exposes its ``urlpatterns``."""
