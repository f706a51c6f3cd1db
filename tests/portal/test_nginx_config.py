"""docs/operations.md's nginx configuration, run by the Debian nginx (skipped where it is not installed): a
snapshot file is sent for its address with the application's headers; a search, another parameter, a page
without a file and anyone with a session go to the application (here: nobody listens, so 502); what the
application answers is kept 1 s, never when it says private or sets a cookie. No database."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench import nginx_front

pytestmark = pytest.mark.skipif(not os.access(nginx_front.NGINX, os.X_OK), reason="nginx não instalado")

LIST = "/publico/concursos/c/resultados/5/cargos/7/geral/"


@pytest.fixture
def nginx(tmp_path: Path):
    snapshots = tmp_path / "snapshots"
    files = {
        "index.html": "<p>início</p>",
        LIST.lstrip("/") + "index.html": "<p>página 1</p>",
        LIST.lstrip("/") + "index.pagina-3.html": "<p>página 3</p>",
        "publico/concursos/c/resultados/5/cargos/7/geral.csv": "a;b\r\n",
        "publico/concursos/c/index.html": "<p>concurso</p>",
    }
    for name, text in files.items():
        (snapshots / name).parent.mkdir(parents=True, exist_ok=True)
        (snapshots / name).write_text(text)
    work = tmp_path / "nginx"
    work.mkdir()
    port = nginx_front.free_port()
    conf = nginx_front.configuration(
        port=port, snapshots=snapshots, upstream=f"127.0.0.1:{nginx_front.free_port()}", work=work
    )
    process = nginx_front.start(conf, work, port)
    yield port
    nginx_front.stop(process)


def test_snapshot_files_are_sent_with_the_applications_headers(nginx):
    status, headers, body = nginx_front.get(nginx, "/")
    assert (status, body) == (200, "<p>início</p>".encode())
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["cache-control"] == "public, max-age=60, stale-while-revalidate=60"
    assert "x-robots-tag" not in headers
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]

    status, headers, body = nginx_front.get(nginx, LIST + "?pagina=3")
    assert (status, body) == (200, "<p>página 3</p>".encode())
    assert headers["cache-control"] == "public, max-age=600, stale-while-revalidate=600"
    assert headers["x-robots-tag"] == "noindex, nofollow"
    assert nginx_front.get(nginx, LIST)[2] == "<p>página 1</p>".encode()

    status, headers, body = nginx_front.get(nginx, "/publico/concursos/c/resultados/5/cargos/7/geral.csv")
    assert (status, body) == (200, b"a;b\r\n")
    assert headers["content-type"] == "text/csv; charset=utf-8"
    assert headers["content-disposition"] == "attachment"


@pytest.mark.parametrize(
    "path",
    [
        LIST + "?q=silva",  # a search
        LIST + "?pagina=2",  # a page without a file
        LIST + "?pagina=3&utm=x",  # another parameter
        LIST + "?pagina=03",
        "/publico/minha-inscricao/",
        "/painel/",
    ],
)
def test_what_is_not_a_file_goes_to_the_application(nginx, path):
    assert nginx_front.get(nginx, path)[0] == 502


def test_a_session_always_goes_to_the_application(nginx):
    assert nginx_front.get(nginx, "/publico/concursos/c/", {"Cookie": "sessionid=abc"})[0] == 502
    assert nginx_front.get(nginx, "/publico/concursos/c/")[0] == 200


class Application(BaseHTTPRequestHandler):
    """An application that counts what reaches it: /publica/ is public, /privada/ private, /cookie/ sets one."""

    seen: Counter[str] = Counter()

    def do_GET(self) -> None:
        self.seen[self.path] += 1
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        if self.path.startswith("/privada/"):
            self.send_header("Cache-Control", "no-store, private")
        else:
            self.send_header("Cache-Control", "public, max-age=600")
        if self.path.startswith("/cookie/"):
            self.send_header("Set-Cookie", "csrftoken=x; Path=/")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args) -> None:
        pass


def test_dynamic_pages_are_kept_one_second_never_private_ones(tmp_path):
    Application.seen.clear()
    application = ThreadingHTTPServer(("127.0.0.1", 0), Application)
    threading.Thread(target=application.serve_forever, daemon=True).start()
    work = tmp_path / "nginx"
    work.mkdir()
    port = nginx_front.free_port()
    upstream = f"127.0.0.1:{application.server_address[1]}"
    conf = nginx_front.configuration(port=port, snapshots=tmp_path / "vazia", upstream=upstream, work=work)
    process = nginx_front.start(conf, work, port)
    try:
        for path in ("/publica/?q=a", "/privada/", "/cookie/"):
            for _ in range(3):
                assert nginx_front.get(port, path)[0] == 200
        nginx_front.get(port, "/publica/?q=a", {"Cookie": "sessionid=abc"})  # the staff: always through
        assert Application.seen == {"/publica/?q=a": 2, "/privada/": 3, "/cookie/": 3}
        # Micro-caching: one second (nginx counts whole seconds: less than two), whatever max-age the
        # application gave browsers.
        time.sleep(2.1)
        states = [nginx_front.get(port, "/publica/?q=a")[1].get("x-cache") for _ in range(2)]
        assert Application.seen["/publica/?q=a"] == 3, states
    finally:
        nginx_front.stop(process)
        application.shutdown()
