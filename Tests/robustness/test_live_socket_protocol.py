"""The live socket speaks WebSocket as other clients do: pings, fragmented messages, binary and
broken text, messages over the limit, the close handshake, phones that vanish without a word, and
the server stopping. (Our own clients never fragment or send binary; other libraries do.)"""

import json
import socket
import struct
import time

import pytest
import websocket
from websocket import ABNF

from conftest import Server, closed_within, print_log_on_failure

PING = 1  # QUIZBOX_LIVE_PING_SECONDS
JOIN = {"v": 1, "type": "join", "pin": "000000", "nickname": "Ann"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # The greeting timeout (idle) is long, so only the pings decide whether a silent socket stays.
    running = Server(tmp_path_factory.mktemp("live-protocol"), env={
        "QUIZBOX_LIVE_PING_SECONDS": str(PING), "QUIZBOX_IDLE_TIMEOUT_SECONDS": "60"})
    yield running
    running.stop()
    print_log_on_failure(running)


def connect(server):
    return websocket.create_connection(f"ws://{server.host}:{server.port}/live/socket", timeout=10)


def frame(ws):
    """The next frame other than the server's pings (which the library answers)."""
    while True:
        opcode, received = ws.recv_data_frame(True)
        if opcode != ABNF.OPCODE_PING:
            return opcode, received.data


def message(ws):
    opcode, data = frame(ws)
    assert opcode == ABNF.OPCODE_TEXT, (opcode, data)
    return json.loads(data)


def close_code(data):
    return struct.unpack("!H", data[:2])[0]


def expect_close(ws, code):
    """A close frame with `code` (the library answers it), then the server closes the socket."""
    opcode, data = frame(ws)
    assert opcode == ABNF.OPCODE_CLOSE and close_code(data) == code, (opcode, data)
    closed, elapsed, _ = closed_within(ws.sock, 5)
    assert closed, f"still open {elapsed:.1f} s after the close frames"


def test_a_ping_is_answered_with_its_payload(server):
    ws = connect(server)
    ws.ping(b"are you there")
    assert frame(ws) == (ABNF.OPCODE_PONG, b"are you there")
    ws.close()


def test_a_message_in_fragments_is_read_as_one(server):
    ws = connect(server)
    text = json.dumps(JOIN).encode()
    ws.send_frame(ABNF(fin=0, opcode=ABNF.OPCODE_TEXT, data=text[:10]))
    ws.ping(b"between fragments")  # control frames may come between a message's fragments
    ws.send_frame(ABNF(fin=0, opcode=ABNF.OPCODE_CONT, data=text[10:20]))
    ws.send_frame(ABNF(fin=1, opcode=ABNF.OPCODE_CONT, data=text[20:]))
    assert frame(ws) == (ABNF.OPCODE_PONG, b"between fragments")
    reply = message(ws)
    assert (reply["type"], reply["code"], reply["of"]) == ("error", "unknown-game", "join"), reply
    ws.close()


def test_binary_and_broken_text_are_refused_and_the_socket_stays(server):
    ws = connect(server)
    ws.send_binary(b"\x00\x01\x02")
    assert message(ws)["code"] == "bad-message"
    ws.send_frame(ABNF(fin=1, opcode=ABNF.OPCODE_TEXT, data=b'{"v":1,"type":"\xff\xfe"}'))
    assert message(ws)["code"] == "bad-message"
    ws.send("not json")
    assert message(ws)["code"] == "bad-message"
    ws.send(json.dumps(JOIN))
    assert message(ws)["code"] == "unknown-game"
    ws.close()


@pytest.mark.parametrize("fragments", [1, 3])
def test_a_message_over_4_kib_is_told_why_and_closed_with_1009(server, fragments):
    ws = connect(server)
    text = json.dumps({**JOIN, "nickname": "x" * 5000}).encode()
    size = -(-len(text) // fragments)
    for index in range(fragments):
        opcode = ABNF.OPCODE_TEXT if index == 0 else ABNF.OPCODE_CONT
        ws.send_frame(ABNF(fin=int(index == fragments - 1), opcode=opcode, data=text[index * size:(index + 1) * size]))
    reply = message(ws)
    assert reply["code"] == "bad-message" and "4 KiB" in reply["message"], reply
    expect_close(ws, 1009)


def test_the_close_handshake_is_answered_and_the_socket_closed(server):
    ws = connect(server)
    ws.send_frame(ABNF(fin=1, opcode=ABNF.OPCODE_CLOSE, data=struct.pack("!H", 1000) + b"bye"))
    expect_close(ws, 1000)


def test_a_phone_that_stops_answering_pings_is_closed_and_one_that_answers_stays(server):
    gone = connect(server)
    alive = connect(server)
    # `gone` is never read, so its pings go unanswered; `alive` answers every one.
    deadline = time.monotonic() + 3 * PING + 0.5
    alive.settimeout(0.2)
    pings = 0
    while time.monotonic() < deadline:
        try:
            opcode, _ = alive.recv_data_frame(True)
            pings += opcode == ABNF.OPCODE_PING
        except websocket.WebSocketTimeoutException:
            pass
    assert pings >= 2, pings
    alive.settimeout(10)
    alive.send(json.dumps(JOIN))
    assert message(alive)["code"] == "unknown-game"
    alive.close()
    closed, elapsed, _ = closed_within(gone.sock, 2)
    assert closed, f"a socket that answered no ping is still open {3 * PING + elapsed:.1f} s later (ping every {PING} s)"


def test_a_stopping_server_says_it_is_going_away(tmp_path):
    server = Server(tmp_path, env={"QUIZBOX_IDLE_TIMEOUT_SECONDS": "60"})
    try:
        ws = connect(server)
        ws.send(json.dumps(JOIN))
        assert message(ws)["code"] == "unknown-game"
        started = time.monotonic()
        server.process.terminate()
        opcode, data = frame(ws)
        assert opcode == ABNF.OPCODE_CLOSE and close_code(data) == 1001, (opcode, data)
        ws.send_close(1001)
        assert server.process.wait(timeout=15) == 0
        assert time.monotonic() - started < 10
    finally:
        server.stop()
        print_log_on_failure(server)


def masked_frame(opcode, payload, fin=True):
    """A client frame as RFC 6455 5.2 writes it, masked with a fixed key."""
    key = b"\x11\x22\x33\x44"
    length = len(payload)
    if length < 126:
        header = bytes([0x80 * fin | opcode, 0x80 | length])
    elif length < 1 << 16:
        header = bytes([0x80 * fin | opcode, 0x80 | 126]) + struct.pack("!H", length)
    else:
        header = bytes([0x80 * fin | opcode, 0x80 | 127]) + struct.pack("!Q", length)
    return header + key + bytes(byte ^ key[index % 4] for index, byte in enumerate(payload))


def test_an_unmasked_client_frame_closes_the_socket_with_1002(server):
    ws = connect(server)
    text = json.dumps(JOIN).encode()
    ws.sock.sendall(bytes([0x81, len(text)]) + text)  # no mask bit, no key
    opcode, data = frame(ws)
    assert opcode == ABNF.OPCODE_CLOSE and close_code(data) == 1002, (opcode, data)
    closed, elapsed, _ = closed_within(ws.sock, 5)
    assert closed, f"still open {elapsed:.1f} s after the close frame"


def test_a_frame_over_16_kib_is_told_why_before_the_socket_closes_and_is_not_reset(server):
    """The frame's bytes are never read: closing on them would reset the connection, and the
    phone would lose the message saying why."""
    ws = connect(server)
    ws.sock.sendall(masked_frame(0x1, b"x" * 40_000))
    reply = message(ws)
    assert reply["code"] == "bad-message" and "4 KiB" in reply["message"], reply
    opcode, data = frame(ws)
    assert opcode == ABNF.OPCODE_CLOSE and close_code(data) == 1009, (opcode, data)
    ws.sock.shutdown(socket.SHUT_WR)
    closed, elapsed, _ = closed_within(ws.sock, 5)
    assert closed, f"still open {elapsed:.1f} s after the close frame"


def test_a_socket_ended_by_a_tcp_fin_gives_its_place_back_at_once(tmp_path):
    server = Server(tmp_path, env={"QUIZBOX_LIVE_SOCKETS_PER_ADDRESS": "2", "QUIZBOX_IDLE_TIMEOUT_SECONDS": "60"})
    try:
        first, second = connect(server), connect(server)
        for ws in (first, second):
            ws.send(json.dumps(JOIN))
            assert message(ws)["code"] == "unknown-game"
            ws.sock.shutdown(socket.SHUT_WR)  # a FIN, no close frame
        for ws in (first, second):
            closed, elapsed, _ = closed_within(ws.sock, 2)
            assert closed, f"a socket whose client sent a FIN is still open {elapsed:.1f} s later"
        third, fourth = connect(server), connect(server)
        for ws in (third, fourth):
            ws.send(json.dumps(JOIN))
            assert message(ws)["code"] == "unknown-game"
            ws.close()
    finally:
        server.stop()
        print_log_on_failure(server)
