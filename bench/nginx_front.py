"""nginx in front of the application, as docs/operations.md configures it, for the result-day bench
(bench/public_load.py) and its test (tests/portal/test_nginx_config.py), and the wrk load generator.

The configuration is the ``nginx`` block of docs/operations.md itself, with only these changes: the port
(plain HTTP on 127.0.0.1, no certificate), the snapshot folder, the application's address and the cache's
folder; it runs as a child process (``daemon off``) with its own temporary files, from the Debian package
(/usr/sbin/nginx). wrk (Debian package ``wrk``) loads it with keep-alive connections; a Lua script cycles
through the addresses and prints the figures as JSON.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "operations.md"
NGINX = os.environ.get("NGINX", "/usr/sbin/nginx")
WRK = os.environ.get("WRK", "/usr/bin/wrk")
MARK = "# /etc/nginx/conf.d/cotas.conf"


def documented_block() -> str:
    """The nginx configuration docs/operations.md gives (its fenced block that starts with ``MARK``)."""
    text = DOC.read_text()
    for block in re.findall(r"```nginx\n(.*?)```", text, flags=re.S):
        if block.startswith(MARK):
            return block
    raise SystemExit(f"docs/operations.md não tem o bloco nginx que começa com {MARK!r}.")


def configuration(*, port: int, snapshots: Path, upstream: str, work: Path) -> str:
    """A complete nginx.conf around the documented block, for a child process in ``work``."""
    block = documented_block()
    replacements = [
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{port} backlog=4096;"),
        ("root /srv/cotas/private/snapshots;", f"root {snapshots};"),
        ("proxy_pass http://127.0.0.1:8000;", f"proxy_pass http://{upstream};"),
        ("proxy_cache_path /var/cache/nginx/cotas ", f"proxy_cache_path {work / 'cache'} "),
    ]
    for old, new in replacements:
        if old not in block:
            raise SystemExit(f"o bloco nginx de docs/operations.md mudou: falta {old!r}")
        block = block.replace(old, new)
    block = "\n".join(line for line in block.splitlines() if "ssl_certificate" not in line)
    user = pwd.getpwuid(os.geteuid()).pw_name
    temp = "\n".join(
        f"    {name}_temp_path {work / name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""{"user " + user + ";" if os.geteuid() == 0 else ""}
daemon off;
worker_processes {os.environ.get("NGINX_WORKERS", "auto")};
pid {work / "nginx.pid"};
error_log {work / "error.log"} warn;
events {{ worker_connections 8192; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
{temp}
{block}
}}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(conf: str, work: Path, port: int) -> subprocess.Popen:
    """nginx with ``conf`` (``nginx -t`` first), answering on ``port``."""
    path = work / "nginx.conf"
    path.write_text(conf)
    checked = subprocess.run([NGINX, "-t", "-q", "-c", str(path)], capture_output=True, text=True)
    if checked.returncode:
        raise SystemExit(f"nginx -t recusou a configuração:\n{checked.stderr}")
    process = subprocess.Popen([NGINX, "-c", str(path)], stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.05)
    process.terminate()
    raise SystemExit(f"o nginx não respondeu; veja {work / 'error.log'}")


def stop(process: subprocess.Popen) -> None:
    process.terminate()  # SIGTERM: fast shutdown of master and workers
    process.wait(timeout=30)


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", headers={"Host": "127.0.0.1", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


# wrk -----------------------------------------------------------------------------------------------------

LUA = r"""
local paths = {}
for line in io.lines(os.getenv("WRK_PATHS")) do paths[#paths + 1] = line end
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], {["Host"] = "127.0.0.1"})
end
local threads = {}
setup = function(thread) threads[#threads + 1] = thread end
done = function(summary, latency, requests)
  local e = summary.errors
  local hits, misses = 0, 0
  for _, thread in ipairs(threads) do
    hits = hits + (thread:get("hits") or 0)
    misses = misses + (thread:get("misses") or 0)
  end
  io.write(string.format(
    '{"requests": %d, "seconds": %f, "bytes": %d, "p50": %f, "p95": %f, "p99": %f, "max": %f, ' ..
    '"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d, "hits": %d, "misses": %d}\n',
    summary.requests, summary.duration / 1e6, summary.bytes,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, e.connect, e.read, e.write, e.status, e.timeout, hits, misses))
end
"""
# Counts nginx's micro-cache answers (its X-Cache header); costs wrk some speed, so only where asked.
LUA_CACHE = r"""
hits, misses = 0, 0
response = function(status, headers, body)
  local state = headers["X-Cache"]
  if state == "HIT" or state == "STALE" or state == "UPDATING" then hits = hits + 1 else misses = misses + 1 end
end
"""


def wrk(
    port: int,
    paths: list[str],
    *,
    connections: int,
    seconds: int,
    threads: int,
    work: Path,
    name: str,
    count_cache: bool = False,
    pause_ms: int = 0,
) -> subprocess.Popen:
    """Start wrk on ``paths`` (cycled in each thread); ``result`` reads its figures. ``pause_ms``: each
    connection waits that long after an answer before its next request (wrk's ``delay``), which sets the
    rate: about ``connections × 1000 / pause_ms`` requests per second at most."""
    pace = f"delay = function() return {pause_ms} end\n" if pause_ms else ""
    (work / f"{name}.lua").write_text(LUA + (LUA_CACHE if count_cache else "") + pace)
    (work / f"{name}.paths").write_text("\n".join(paths) + "\n")
    command = [
        WRK, "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--timeout", "10s",
        "-s", str(work / f"{name}.lua"), f"http://127.0.0.1:{port}/",
    ]  # fmt: skip
    env = {**os.environ, "WRK_PATHS": str(work / f"{name}.paths")}
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def result(process: subprocess.Popen) -> dict:
    out, err = process.communicate(timeout=600)
    for line in out.splitlines():
        if line.startswith("{"):
            figures = json.loads(line)
            figures["errors"] = sum(figures[k] for k in ("connect", "read", "write", "status", "timeout"))
            figures["rate"] = figures["requests"] / figures["seconds"]
            return figures
    raise SystemExit(f"wrk não imprimiu resultados:\n{out}\n{err}")
