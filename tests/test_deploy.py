"""deploy/serve_class.py: several Streamlit processes behind one nginx address, sticky per browser."""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "deploy"))
import serve_class  # noqa: E402 - deploy/ is a folder of scripts, not a package


def config(tmp_path, ports=(8601, 8602, 8603)):
    return serve_class.nginx_config(ports=list(ports), address="127.0.0.1", port=8599, run_dir=tmp_path)


def test_every_field_is_filled_and_every_process_is_an_upstream(tmp_path):
    text = config(tmp_path)
    assert "{{" not in text and "}}" not in text
    assert re.findall(r"server 127\.0\.0\.1:(\d+)", text) == ["8601", "8602", "8603"]
    assert "listen 127.0.0.1:8599;" in text
    assert str(tmp_path) in text  # pid, logs and temp files in the run folder: no root needed


def test_a_browser_keeps_its_process_by_cookie_not_by_ip():
    # a classroom shares one NAT address: routing by IP would send the whole room to one process
    text = (ROOT / "deploy" / "nginx-class.conf.template").read_text(encoding="utf-8")
    assert "hash $dproute consistent;" in text
    assert re.search(r'map \$cookie_dproute \$dproute \{\s*""\s+\$request_id;\s*default \$cookie_dproute;', text)
    assert 'Set-Cookie "dproute=$dproute;' in text
    assert "ip_hash" not in text
    # websockets pass through, with the Host the origin check compares
    assert "proxy_set_header Upgrade $http_upgrade;" in text and "proxy_set_header Host $http_host;" in text


def test_nginx_accepts_uploads_streamlit_accepts(tmp_path):
    mb = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["server"]["maxUploadSize"]
    limit = int(re.search(r"client_max_body_size (\d+)m;", config(tmp_path)).group(1))
    assert limit > mb  # multipart overhead on top of the file: nginx must not refuse what Streamlit takes


def test_bad_process_count_is_refused():
    out = subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "serve_class.py"), "--processes", "0"], capture_output=True, text=True
    )
    assert out.returncode == 2 and "--processes must be >= 1, got --processes=0" in out.stderr


@pytest.mark.skipif(
    not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()),
    reason="nginx is not installed (scripts/test.sh installs it as root)",
)
def test_nginx_parses_the_configuration(tmp_path):
    path = tmp_path / "nginx.conf"
    path.write_text(config(tmp_path))
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    out = subprocess.run([nginx, "-t", "-c", str(path), "-p", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_the_exercise_sheets_get_the_address_students_open(monkeypatch):
    # issue 31 item 9: serve_class passes DPCORE_PUBLIC_URL to its processes
    monkeypatch.setattr(serve_class.socket, "getfqdn", lambda: "hall7.uni.example")
    assert serve_class.public_url(None, address="0.0.0.0", port=8501) == "http://hall7.uni.example:8501"
    assert serve_class.public_url(None, address="127.0.0.1", port=8080) == "http://localhost:8080"
    assert serve_class.public_url(None, address="10.1.2.3", port=80) == "http://10.1.2.3:80"
    assert serve_class.public_url("https://dp.example.org/", address="0.0.0.0", port=8501) == "https://dp.example.org"
    source = (ROOT / "deploy" / "serve_class.py").read_text(encoding="utf-8")
    assert '"DPCORE_PUBLIC_URL": public_url(' in source and "env=env," in source


def test_the_grid_warm_up_sweeps_pages_whose_releases_are_on_disk():
    """serve_class's ε-grid warm-up (issue 29 item 5) is worth its time only where the default seed's releases are
    kept on disk (dpui.common.disk_cache): every page it sweeps has an ε slider and a data module that calls disk_shared."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_classroom import eps_pages

    with_eps = {p.url_path for p in eps_pages()}
    assert serve_class.GRID_PAGES and set(serve_class.GRID_PAGES) <= with_eps
    modules = {"DP_ngram_extraction": "dpne/data.py"}
    for page in serve_class.GRID_PAGES:
        assert "disk_shared(" in (ROOT / "dpui" / modules[page]).read_text(encoding="utf-8"), page
