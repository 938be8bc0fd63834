"""Bodies over the limit get 413 (not 500), and a client hanging up mid-body logs no error."""

import json
import threading
import time

import pytest

from conftest import Server, print_log_on_failure

MiB = 1 << 20
# Each path's limit (README: 1 MiB by default, 7 MiB for posts, 20 MiB for imports) and a body
# well over it.
OVER_THE_LIMIT = {
    "/api/v1/sessions": 2_000_000,
    "/api/v1/users": 2_000_000,
    "/api/v1/posts": 8 * MiB,
    "/api/v1/imports": 21 * MiB,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("bodies"))
    running.token = running.user("body-admin", role="admin")
    yield running
    running.stop()
    print_log_on_failure(running)


def send(server, path, size, chunked, hang_up_after=None, token=None, timeout=60):
    """POSTs `size` bytes of 'a' to `path` over a raw socket, chunked or with Content-Length, reading
    the response while still sending (a server may answer 413 before the body is in). With
    `hang_up_after`, closes the connection after that many body bytes instead. Returns the
    response (status, headers, body) or None."""
    sock = server.connect(timeout=timeout)
    received = bytearray()
    done = threading.Event()

    def read():
        try:
            while data := sock.recv(65536):
                received.extend(data)
        except OSError:
            pass
        done.set()

    head = [f"POST {path} HTTP/1.1", f"Host: {server.host}:{server.port}", "Content-Type: application/json",
            "Connection: close", "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    threading.Thread(target=read, daemon=True).start()
    chunk = b"a" * (64 << 10)
    try:
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        sent = 0
        limit = size if hang_up_after is None else hang_up_after
        while sent < limit and not done.is_set():
            piece = chunk[:limit - sent]
            sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            sent += len(piece)
        if hang_up_after is not None:
            sock.close()
            return None
        if chunked and not done.is_set():
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # the server stopped reading: its answer, if any, is in `received`
    done.wait(timeout)
    sock.close()
    return parse(bytes(received))


def parse(raw):
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines[0].startswith("HTTP/1."):
        return None, {}, raw
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        decoded = b""
        while body:
            size_line, _, rest = body.partition(b"\r\n")
            size = int(size_line.split(b";")[0] or b"0", 16)
            if size == 0:
                break
            decoded, body = decoded + rest[:size], rest[size + 2:]
        body = decoded
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
@pytest.mark.parametrize("path", list(OVER_THE_LIMIT))
def test_a_body_over_the_limit_gets_413(server, path, chunked):
    mark = len(server.log)
    status, headers, body = send(server, path, OVER_THE_LIMIT[path], chunked, token=server.token)
    assert status == 413, f"{path} with {OVER_THE_LIMIT[path]} bytes ({'chunked' if chunked else 'Content-Length'}): " \
                          f"got {status} {headers} {body[:300]!r}"
    assert headers.get("content-type", "").startswith("application/json"), headers
    error = json.loads(body)["error"]
    assert error["code"] in ("body_too_large", "image_too_large"), error
    assert server.error_lines(mark) == []
    # The server is still fine.
    assert server.api("GET", "/subjects")[0] == 200


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
@pytest.mark.parametrize("path", ["/api/v1/sessions", "/api/v1/posts", "/api/v1/imports"])
def test_a_client_hanging_up_mid_body_logs_no_error(server, path, chunked):
    mark = len(server.log)
    send(server, path, 500_000, chunked, hang_up_after=100_000, token=server.token)
    # Whatever the server makes of it is logged by the time it has answered a later request.
    assert server.api("GET", "/subjects")[0] == 200
    time.sleep(0.5)
    assert server.error_lines(mark) == [], f"error-level log lines after a client hung up mid-body on {path}"
