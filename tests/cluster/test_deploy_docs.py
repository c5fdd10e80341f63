"""Issue 14: the production layout of docs/deploy.md. Its nginx configuration parses with
Debian's nginx (``nginx -t``, installed by ``.ci/run``), and it balances WebSockets as a plain
load balancer must for Ahiko: upgraded, long read timeouts, no sticky sessions."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "docs" / "deploy" / "nginx.conf"


def test_the_nginx_config_of_docs_deploy_parses(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(nginx).exists(), "nginx not installed: .ci/run installs Debian's nginx"
    (tmp_path / "logs").mkdir()
    done = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(CONF)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "syntax is ok" in done.stderr and "test is successful" in done.stderr


def test_the_nginx_config_upgrades_websockets_without_sticky_sessions() -> None:
    text = CONF.read_text()
    assert "proxy_set_header Upgrade $http_upgrade;" in text
    assert "proxy_set_header Connection $connection_upgrade;" in text
    assert "location /ws/" in text and "proxy_read_timeout 1h;" in text
    assert "ip_hash" not in text and "sticky" not in text.replace("no sticky", "")
    assert (ROOT / "docs" / "deploy.md").read_text().count("deploy/nginx.conf") >= 1
