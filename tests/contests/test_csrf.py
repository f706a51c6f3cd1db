from django.test import Client


def test_csrf_failure_page_in_portuguese(db):
    c = Client(enforce_csrf_checks=True)
    r = c.post("/entrar/", {"username": "x", "password": "y"})
    assert r.status_code == 403
    assert "Nada foi gravado" in r.content.decode()
