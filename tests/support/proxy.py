"""The front door on this machine: Debian's nginx run from the repository's own
configuration (``ftsite/deploy/nginx.conf.template``) in front of live daphne processes
(the sockets) and gunicorn's (the pages) or daphne's for both,
with a self-signed certificate made for the run.

The template is rendered as the official nginx image renders it in compose.yaml (envsubst
of the defined names only): ``${FT_...}`` names are filled in, nginx's own ``$variables``
are left alone, and a name left unfilled is an error here rather than a broken config.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.support.servers import free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "ftsite" / "deploy"
TEMPLATE = DEPLOY / "nginx.conf.template"
NGINX = "/usr/sbin/nginx"
_NAME = re.compile(r"\$\{(FT_[A-Z0-9_]+)\}")


def nginx_available() -> bool:
    return Path(NGINX).is_file() or shutil.which("nginx") is not None


def render(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``${FT_NAME}`` replaced by ``values[FT_NAME]``.

    >>> render("listen ${FT_PORT}; return $host;", {"FT_PORT": "8443"})
    'listen 8443; return $host;'
    """
    missing = sorted({name for name in _NAME.findall(template) if name not in values})
    if missing:
        raise KeyError(f"the template needs {', '.join(missing)}")
    return _NAME.sub(lambda m: values[m.group(1)], template)


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost (a day long) and its key, made by openssl."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],  # fmt: skip
        check=True,
        capture_output=True,
    )
    return cert, key


@dataclass
class Proxy:
    """A running nginx: ``https://127.0.0.1:<port>`` in front of ``upstreams``."""

    port: int
    http_port: int
    folder: Path
    cert: Path
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def https(self) -> str:
        return f"https://{self.address}"

    @property
    def wss(self) -> str:
        return f"wss://{self.address}"

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts this run's certificate (and nothing else)."""
        return ssl.create_default_context(cafile=str(self.cert))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # nginx: fast shutdown
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_proxy(
    upstreams: Iterable[int],
    static_root: Path,
    log_dir: Path,
    *,
    pages: Iterable[int] | None = None,
    replace: Mapping[str, str] | None = None,
) -> Proxy:
    """nginx on free ports in front of daphne processes on 127.0.0.1 at ``upstreams``
    (ports: the sockets, /ws/) and the pages' processes at ``pages`` (gunicorn; the same
    daphne processes when not given), serving ``static_root`` as /static/; returns once it
    accepts TLS. ``replace``: text of the rendered configuration replaced (a test's shorter
    timeout), each of which must be there."""
    # nginx's worker processes drop root for an unprivileged user: everything they read
    # (static files) must be readable by anyone, as in the image (files 0644, dirs 0755).
    folder = Path(tempfile.mkdtemp(prefix="ft-proxy-"))
    folder.chmod(0o755)
    cert, key = self_signed(folder)
    upstreams = list(upstreams)
    upstream_file, page_file = folder / "upstreams.conf", folder / "page_upstreams.conf"
    for file, ports in (
        (upstream_file, upstreams),
        (page_file, upstreams if pages is None else pages),
    ):
        file.write_text(
            "".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in ports)
        )
    port, http_port = free_port(), free_port()
    config = folder / "nginx.conf"
    text = TEMPLATE.read_text()
    for old, new in (replace or {}).items():
        if old not in text:
            raise KeyError(f"the template has no {old!r}")
        text = text.replace(old, new)
    config.write_text(
        render(
            text,
            {
                "FT_PROXY_PORT": f"127.0.0.1:{port}",
                "FT_PROXY_HTTP_PORT": f"127.0.0.1:{http_port}",
                "FT_TLS_CERT": str(cert),
                "FT_TLS_KEY": str(key),
                "FT_STATIC_ROOT": str(static_root),
                "FT_UPSTREAMS": str(upstream_file),
                "FT_PAGE_UPSTREAMS": str(page_file),
                "FT_PROXY_RUN": str(folder),
            },
        )
    )
    log_dir.mkdir(parents=True, exist_ok=True)
    log = log_dir / f"nginx-{port}.log"
    nginx = NGINX if Path(NGINX).is_file() else str(shutil.which("nginx"))
    command = [nginx, "-c", str(config), "-p", str(folder), "-e", "stderr", "-g", "daemon off;"]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    if checked.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"nginx -t refused the rendered configuration:\n{checked.stderr}")
    process = subprocess.Popen(
        command, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True
    )
    proxy = Proxy(port, http_port, folder, cert, process, log)
    deadline = time.monotonic() + 15
    while True:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", port), timeout=1) as raw,
            proxy.ssl_context().wrap_socket(raw, server_hostname="127.0.0.1"),
        ):
            return proxy
        if process.poll() is not None or time.monotonic() > deadline:
            proxy.stop()
            raise RuntimeError(f"nginx did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.1)
