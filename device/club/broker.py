# SPDX-License-Identifier: GPL-3.0-or-later
"""A Mosquitto broker for a club: TLS, one credential per board, an ACL, and a private one for tests.

:func:`write_broker_config` makes everything a club needs in one folder: a certificate authority
(``ca.crt``, which every device and the director are given), the broker's key and certificate, one
random password per board plus ``director`` and ``viewer`` (``credentials/<user>.password``, for
handing out), the hashed password file, the ACL and ``mosquitto.conf``. Anonymous clients are
refused; a board may write only under ``ordvakt/<event>/<its id>/`` and read only its own command
topic; the director may do everything in the event; the viewer may only read.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from device.club.settings import TOPIC_LEVEL
from device.errors import DeviceError, EnvironmentProblem


class BrokerSetupError(DeviceError, ValueError):
    """The broker configuration cannot be made as asked; the message says why."""


@dataclass
class BrokerFiles:
    directory: Path
    event: str
    port: int
    tls: bool
    passwords: dict[str, str] = field(default_factory=dict)

    @property
    def conf(self) -> Path:
        return self.directory / "mosquitto.conf"

    @property
    def ca_file(self) -> Path:
        return self.directory / "ca.crt"


def _run(args: list[str], what: str) -> None:
    if shutil.which(args[0]) is None:
        raise EnvironmentProblem(f"{args[0]!r} is not installed; it is needed to {what} "
                                 "(Debian: apt-get install mosquitto openssl)")
    result = subprocess.run(args, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        raise EnvironmentProblem(f"{args[0]} failed to {what}: {tail[0]}")


def _make_certificates(directory: Path, hosts: list[str]) -> None:
    ca_key, ca_crt = directory / "ca.key", directory / "ca.crt"
    _run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "3650",
          "-keyout", str(ca_key), "-out", str(ca_crt), "-subj", "/CN=Ordvakt club CA"], "make the club CA")
    key, csr, crt = directory / "server.key", directory / "server.csr", directory / "server.crt"
    _run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-sha256", "-keyout", str(key), "-out", str(csr),
          "-subj", f"/CN={hosts[0]}"], "make the broker key")
    names = ",".join(("IP:" if _is_ip(h) else "DNS:") + h for h in hosts)
    ext = directory / "server.ext"
    ext.write_text(f"subjectAltName={names}\nextendedKeyUsage=serverAuth\n", encoding="utf-8")
    _run(["openssl", "x509", "-req", "-in", str(csr), "-CA", str(ca_crt), "-CAkey", str(ca_key),
          "-CAcreateserial", "-out", str(crt), "-days", "825", "-sha256", "-extfile", str(ext)],
         "sign the broker certificate")
    csr.unlink()
    ext.unlink()


def _is_ip(host: str) -> bool:
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            socket.inet_pton(family, host)
            return True
        except OSError:
            continue
    return False


def acl_text(event: str) -> str:
    """The Mosquitto ACL: boards write only under their own topic (``%u`` is the user name = board id)."""
    return (
        "# Ordvakt club ACL: made by `ordvakt club setup-broker`\n"
        "user director\n"
        f"topic readwrite ordvakt/{event}/#\n\n"
        "user viewer\n"
        f"topic read ordvakt/{event}/+/status\n"
        f"topic read ordvakt/{event}/+/state\n"
        f"topic read ordvakt/{event}/+/move\n"
        f"topic read ordvakt/{event}/+/result\n\n"
        "# every other user is a board\n"
        f"pattern write ordvakt/{event}/%u/#\n"
        f"pattern read ordvakt/{event}/cmd/%u\n"
    )


def write_broker_config(directory: str | os.PathLike[str], event: str, boards: list[str], *, port: int = 8883,
                        bind: str = "", hosts: list[str] | None = None, tls: bool = True) -> BrokerFiles:
    """Make a club's broker folder (see the module docstring); returns the files and the passwords."""
    if not TOPIC_LEVEL.match(event):
        raise BrokerSetupError(f"event {event!r}: use 1-64 letters, digits, '-' or '_'")
    for board in boards:
        if not TOPIC_LEVEL.match(board) or board in ("director", "viewer", "cmd"):
            raise BrokerSetupError(f"board id {board!r}: use 1-64 letters, digits, '-' or '_' "
                                   "(not director, viewer or cmd)")
    if len(set(boards)) != len(boards):
        raise BrokerSetupError("board ids must be different: " + ", ".join(sorted(b for b in boards
                                                                                   if boards.count(b) > 1)))
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    (out / "data").mkdir(exist_ok=True)
    creds = out / "credentials"
    creds.mkdir(exist_ok=True)
    os.chmod(creds, 0o700)
    files = BrokerFiles(out, event, port, tls)
    lines = []
    for user in ["director", "viewer", *boards]:
        password = secrets.token_urlsafe(18)
        files.passwords[user] = password
        (creds / f"{user}.password").write_text(password + "\n", encoding="utf-8")
        os.chmod(creds / f"{user}.password", 0o600)
        lines.append(f"{user}:{password}")
    passwd = out / "passwd"
    passwd.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.chmod(passwd, 0o600)
    _run(["mosquitto_passwd", "-U", str(passwd)], "hash the passwords")
    (out / "acl").write_text(acl_text(event), encoding="utf-8")
    if tls:
        _make_certificates(out, hosts or ["localhost", "127.0.0.1", socket.gethostname()])
    conf = [
        "# Ordvakt club broker: made by `ordvakt club setup-broker`",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {passwd}",
        f"acl_file {out / 'acl'}",
        "persistence true",
        f"persistence_location {out / 'data'}/",
        "autosave_interval 30",
        "max_queued_messages 20000",
        "max_inflight_messages 50",
        f"listener {port}" + (f" {bind}" if bind else ""),
    ]
    if tls:
        conf += [f"cafile {out / 'ca.crt'}", f"certfile {out / 'server.crt'}", f"keyfile {out / 'server.key'}",
                 "tls_version tlsv1.2"]
    if os.geteuid() == 0:
        # Run as root, Mosquitto switches to the user "mosquitto", who cannot read these 0600 files.
        conf.insert(1, "user root")
    files.conf.write_text("\n".join(conf) + "\n", encoding="utf-8")
    return files


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_broker(files: BrokerFiles, *, timeout: float = 10.0) -> subprocess.Popen[bytes]:
    """Start ``mosquitto -c`` on the folder's configuration and wait until it accepts connections."""
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        raise EnvironmentProblem("mosquitto is not installed (Debian: apt-get install mosquitto)")
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    log = open(files.directory / "mosquitto.log", "ab")  # noqa: SIM115 - the broker keeps it open
    process = subprocess.Popen([binary, "-c", str(files.conf)], stdout=log, stderr=subprocess.STDOUT)
    log.close()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            text = (files.directory / "mosquitto.log").read_text(errors="replace").strip().splitlines()[-1:]
            raise EnvironmentProblem(f"mosquitto stopped at start: {text[0] if text else 'no log'}")
        try:
            with socket.create_connection(("127.0.0.1", files.port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise EnvironmentProblem(f"mosquitto did not listen on port {files.port} within {timeout} s")
