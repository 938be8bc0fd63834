"""The server package (issue 35): what scripts/package writes, on a machine without Swift.

A release build with the Swift runtime linked in takes a long while on 2 cores (BENCHMARKS.md),
so this module is opt-in: it runs when QUIZBOX_PACKAGE_DIR names a folder scripts/package wrote
into, or with QUIZBOX_TEST_PACKAGE=1 (it then runs scripts/package itself); otherwise it skips,
saying so. ./scripts/test --package sets the latter.

The unpacked binary runs with a PATH and environment that name no Swift toolchain, and, where
this runs as root, in a mount namespace where the toolchain's folder and this repository (build
folders included, which a binary could otherwise quietly read its resource bundles from) are
empty: it must serve the starter bank from what the package holds.
"""

import json
import os
import shutil
import socket
import subprocess
import tarfile
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SWIFT_LIBRARIES = ("swift", "Foundation", "dispatch", "BlocksRuntime", "XCTest", "_Testing")


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    given = os.environ.get("QUIZBOX_PACKAGE_DIR")
    if given:
        folder = Path(given)
    elif os.environ.get("QUIZBOX_TEST_PACKAGE") == "1":
        folder = tmp_path_factory.mktemp("dist")
        subprocess.run([str(REPO / "scripts/package"), "--out", str(folder)], check=True, cwd=REPO)
    else:
        pytest.skip("package test is opt-in (a release build): QUIZBOX_TEST_PACKAGE=1, or QUIZBOX_PACKAGE_DIR=folder of scripts/package")
    debs = sorted(folder.glob("quizbox_*.deb"))
    tars = sorted(folder.glob("quizbox-*.tar.gz"))
    assert debs and tars, f"no .deb or .tar.gz in {folder}"
    return debs[-1], tars[-1]


@pytest.fixture(scope="module")
def deb_root(packages, tmp_path_factory):
    root = tmp_path_factory.mktemp("deb-root")
    subprocess.run(["dpkg-deb", "-x", str(packages[0]), str(root)], check=True)
    return root


@pytest.fixture(scope="module")
def tar_folder(packages, tmp_path_factory):
    root = tmp_path_factory.mktemp("tar-root")
    with tarfile.open(packages[1]) as archive:
        archive.extractall(root, filter="tar")
    (folder,) = root.iterdir()
    return folder


def toolchain_root():
    swift = shutil.which("swift")
    return Path(os.path.realpath(swift)).parents[2] if swift else None


def without_swift(command, cwd, env):
    """The command, its environment stripped to what a server without Swift has."""
    clean = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": str(cwd), "LANG": "C.UTF-8", **env,
    }
    hidden = [str(REPO)] + ([str(toolchain_root())] if toolchain_root() else [])
    if os.geteuid() == 0 and shutil.which("unshare"):
        mounts = " && ".join(f'mount -t tmpfs none "${i + 1}"' for i in range(len(hidden)))
        command = ["unshare", "--mount", "sh", "-c", f'{mounts} && shift {len(hidden)} && exec "$@"', "sh", *hidden, *command]
    return subprocess.Popen(command, cwd=cwd, env=clean, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


def serve_and_check(binary: Path, workdir: Path):
    port = free_port()
    env = {"QUIZBOX_PORT": str(port), "QUIZBOX_DATABASE": str(workdir / "quizbox.sqlite"),
           "QUIZBOX_DATA_DIRECTORY": str(workdir / "data")}
    server = without_swift([str(binary), "serve"], workdir, env)
    log = []
    try:
        # The ready line comes once migrations ran and the starter bank is in: no polling.
        for line in server.stdout:
            log.append(line)
            if "Quizbox is ready at" in line:
                break
        else:
            pytest.fail("the packaged server stopped before it was ready:\n" + "".join(log))
        base = f"http://127.0.0.1:{port}"
        status, body = get(base + "/api/v1/subjects")
        assert status == 200
        assert len(json.loads(body)["subjects"]) == 5, body
        # Each resource bundle: templates and static files, the Finnish catalog, the OpenAPI document.
        status, page = get(base + "/quizzes", {"Accept-Language": "fi"})
        assert status == 200 and b'lang="fi"' in page
        assert get(base + "/static/app.css")[0] == 200
        assert get(base + "/api/openapi.yaml")[1].startswith(b"openapi:")
        # quizbox backup, as an admin runs it beside the running server.
        backup = without_swift([str(binary), "backup", "--output", str(workdir / "backup.tar")], workdir, env)
        output, _ = backup.communicate(timeout=120)
        assert backup.returncode == 0, output
        assert (workdir / "backup.tar").stat().st_size > 0
    finally:
        server.terminate()
        rest, _ = server.communicate(timeout=60)
    assert server.returncode == 0, "".join(log) + rest


def test_the_deb_holds_the_binary_unit_settings_and_scripts(packages):
    listing = subprocess.run(["dpkg-deb", "-c", str(packages[0])], check=True, capture_output=True, text=True).stdout
    for path in ["./usr/bin/quizbox -> ../lib/quizbox/quizbox", "./usr/lib/quizbox/quizbox", "./lib/systemd/system/quizbox.service",
                 "./etc/quizbox/quizbox.env", "./usr/lib/quizbox/quizbox_QuizServer.resources/"]:
        assert path in listing, listing
    control = subprocess.run(["dpkg-deb", "-I", str(packages[0])], check=True, capture_output=True, text=True).stdout
    for script in ["preinst", "postinst", "prerm", "postrm", "conffiles"]:
        assert script in control, control
    assert "swift" not in subprocess.run(["dpkg-deb", "-f", str(packages[0]), "Depends"], check=True, capture_output=True, text=True).stdout.lower()


def test_ldd_lists_no_swift_library(deb_root, tar_folder):
    for binary in [deb_root / "usr/lib/quizbox/quizbox", tar_folder / "quizbox"]:
        libraries = subprocess.run(["ldd", str(binary)], check=True, capture_output=True, text=True).stdout
        assert "not found" not in libraries, libraries
        for name in SWIFT_LIBRARIES:
            assert name not in libraries, libraries


def test_the_unpacked_deb_serves_the_starter_bank_without_swift(deb_root, tmp_path):
    serve_and_check(deb_root / "usr/bin/quizbox", tmp_path)


def test_the_unpacked_tarball_serves_the_starter_bank_without_swift(tar_folder, tmp_path):
    serve_and_check(tar_folder / "quizbox", tmp_path)


def test_the_unit_passes_systemd_analyze_verify(deb_root, tmp_path):
    if not shutil.which("systemd-analyze"):
        pytest.skip("systemd-analyze is not installed")
    # A root with the system's units (targets the unit names) and the package's files.
    root = tmp_path / "root"
    shutil.copytree("/lib/systemd/system", root / "lib/systemd/system", symlinks=True, ignore_dangling_symlinks=True)
    shutil.copytree(deb_root, root, symlinks=True, dirs_exist_ok=True)
    result = subprocess.run(["systemd-analyze", "verify", f"--root={root}", "quizbox.service"], capture_output=True, text=True)
    assert result.returncode == 0 and "quizbox" not in result.stdout + result.stderr, result.stdout + result.stderr
