"""Court orders' addresses (``declarations`` namespace, set by ``declarations.urls``): staff only."""

from django.urls import path

from declarations.courts import views

urlpatterns = [
    path("ordens-judiciais/", views.court_order_list, name="court_orders"),
    path("ordens-judiciais/registrar/", views.court_order_create, name="court_order_create"),
    path("ordens-judiciais/<int:pk>/", views.court_order_detail, name="court_order"),
    path("ordens-judiciais/<int:pk>/situacao/", views.court_order_status, name="court_order_status"),
    path("ordens-judiciais/<int:pk>/cumprir/", views.court_order_comply, name="court_order_comply"),
    path("ordens-judiciais/<int:pk>/arquivo/", views.court_order_file, name="court_order_file"),
]
