#!/usr/bin/env python3
"""The game port's web side without a browser: the strict headers, the
WebSocket's Origin check, its caps per address like TCP's, its frame and
Hello limits, and the one port's ways in (ALPN http/1.1, HTTPS without
ALPN, ttt/1)."""

import socket
import ssl
import threading
import time

import webtest as w


def error_code(payload):
    """The ErrorCode of a ServerMessage carrying an Error (field 3), or None."""
    def varint(data, i):
        result = shift = 0
        while True:
            b = data[i]
            i += 1
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result, i
            shift += 7

    i = 0
    while i < len(payload):
        key, i = varint(payload, i)
        number, kind = key >> 3, key & 7
        if kind == 0:
            _, i = varint(payload, i)
        elif kind == 2:
            length, i = varint(payload, i)
            body = payload[i:i + length]
            i += length
            if number == 3:
                j = 0
                while j < len(body):
                    k, j = varint(body, j)
                    if k >> 3 == 1 and k & 7 == 0:
                        return varint(body, j)[0]
                    if k & 7 == 0:
                        _, j = varint(body, j)
                    elif k & 7 == 2:
                        n, j = varint(body, j)
                        j += n
                return 0
        else:
            return None
    return None


def first_error(sock):
    for _ in range(5):
        opcode, payload = w.ws_recv(sock)
        if opcode is None:
            return None
        if opcode == 2:
            code = error_code(payload)
            if code is not None:
                return code
    return None


def hello(name):
    """ClientMessage{hello{protocol_version 1, name}} (a short ASCII name)."""
    body = bytes([0x08, 0x01, 0x12, len(name)]) + name.encode()
    return bytes([0x12, len(body)]) + body


HELLO = hello("sec-one")


def ws_frame(payload, opcode, fin=True):
    """One masked client frame (short payloads), FIN as asked."""
    mask = b"\x01\x02\x03\x04"
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + mask + masked


def ping(nonce):
    """ClientMessage{request_id nonce, ping{nonce}} (nonce < 128)."""
    return bytes([0x08, nonce, 0x72, 0x02, 0x08, nonce])


def pong_to(sock, nonce):
    """True once the ServerMessage{in_reply_to nonce, pong} comes (other
    messages skipped)."""
    for _ in range(50):
        opcode, payload = w.ws_recv(sock)
        if opcode is None:
            return False
        if opcode == 2 and payload[:3] == bytes([0x08, nonce, 0x62]):
            return True
    return False

ERROR_BAD_FRAME, ERROR_FRAME_TOO_LARGE, ERROR_HELLO_REQUIRED, ERROR_RATE_LIMITED = 1, 2, 3, 23
ERROR_TOO_MANY_NEW_NAMES = 16


def main():
    server = w.Server("--max-connections-per-ip", "4")
    port = server.port

    # Every answer carries the strict headers; the page has no inline script.
    status, headers, body = w.http_get(port, "/")
    assert status == 200, status
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp, csp
    assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp, csp
    assert headers["x-content-type-options"] == "nosniff"
    assert "set-cookie" not in headers
    assert b"<script type=\"module\" src=\"/js/app.js\"></script>" in body
    assert b"<script>" not in body
    status, headers, _ = w.http_get(port, "/js/app.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript"), headers
    status, headers, _ = w.http_get(port, "/game/42")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert w.http_get(port, "/etc/passwd")[0] == 404
    assert w.http_get(port, "/../index.html")[0] in (400, 404)

    # The WebSocket: the page's own Origin and clients without one (not
    # browsers) get in; another site's page does not.
    status, sock = w.ws_upgrade(port, origin=f"http://127.0.0.1:{port}")
    assert status == 101, status
    sock.close()
    status, sock = w.ws_upgrade(port, origin="https://evil.example")
    assert status == 403, status
    status, sock = w.ws_upgrade(port, origin="null")
    assert status == 403, status

    # Limits: anything but Hello first, text messages, and a message over the
    # small limit before Hello are refused, each with its Error.
    status, sock = w.ws_upgrade(port)
    w.ws_send(sock, bytes([0x1A, 0x00]))  # ListGames before Hello
    assert first_error(sock) == ERROR_HELLO_REQUIRED
    sock.close()
    status, sock = w.ws_upgrade(port)
    w.ws_send(sock, b"hello", opcode=1)
    assert first_error(sock) == ERROR_BAD_FRAME
    sock.close()
    status, sock = w.ws_upgrade(port)
    w.ws_send(sock, b"\x12" + b"\x00" * 6000)
    assert first_error(sock) == ERROR_FRAME_TOO_LARGE
    sock.close()
    status, sock = w.ws_upgrade(port)
    w.ws_send(sock, HELLO)
    opcode, payload = w.ws_recv(sock)
    assert opcode == 2 and payload[0] == 0x12, payload[:8]  # ServerMessage{welcome}
    sock.close()

    # WebSocket pings count against the message rate (--rate-limit 200, bursts
    # of 400): a flood of them is told RATE_LIMITED and closed.
    status, sock = w.ws_upgrade(port)
    w.ws_send(sock, hello("sec-pinger"))
    opcode, payload = w.ws_recv(sock)
    assert opcode == 2 and payload[0] == 0x12, payload[:8]  # a Welcome
    for _ in range(1000):
        try:
            w.ws_send(sock, b"x", opcode=9)
        except OSError:
            break
    codes = []
    for _ in range(1200):
        opcode, payload = w.ws_recv(sock)
        if opcode is None:
            break
        if opcode == 2:
            codes.append(error_code(payload))
    assert ERROR_RATE_LIMITED in codes, codes
    sock.close()

    # Every WebSocket frame counts against the message rate like a TCP frame:
    # each fragment of a message (empty ones too, which add nothing to it) and
    # each pong. A flood of either is told RATE_LIMITED and cut off, while
    # another player's pings are answered all along.
    def upgraded():
        """A WebSocket (within the cap of 4 once the closed ones are gone)."""
        return w.eventually(lambda: (lambda r: r[1] if r[0] == 101 else None)(w.ws_upgrade(port)),
                            5, "a WebSocket within the cap")
    watcher = upgraded()
    w.ws_send(watcher, hello("sec-watcher"))
    assert w.ws_recv(watcher)[1][0] == 0x12
    for kind, first, frame in (("fragments", ws_frame(b"", 2, fin=False), ws_frame(b"", 0, fin=False)),
                               ("pongs", ws_frame(b"p", 10), ws_frame(b"p", 10))):
        flooder = upgraded()
        w.ws_send(flooder, hello(f"sec-{kind}"))
        assert w.ws_recv(flooder)[1][0] == 0x12
        flood = first + frame * 19999

        def send_flood():
            try:
                for at in range(0, len(flood), 6000):
                    flooder.sendall(flood[at:at + 6000])
            except OSError:
                pass  # cut off
        sender = threading.Thread(target=send_flood)
        sender.start()
        worst = 0.0
        for nonce in range(1, 6):
            started = time.monotonic()
            w.ws_send(watcher, ping(nonce))
            assert pong_to(watcher, nonce), f"no Pong for the watcher during the {kind} flood"
            worst = max(worst, time.monotonic() - started)
        sender.join()
        codes = []
        for _ in range(2000):
            opcode, payload = w.ws_recv(flooder)
            if opcode is None or opcode == 8:
                break
            if opcode == 2:
                codes.append(error_code(payload))
        assert opcode in (None, 8), f"the {kind} flood was not cut off"
        assert ERROR_RATE_LIMITED in codes, (kind, codes)
        flooder.close()
        print(f"a flood of {kind}: cut off; the watcher's pings answered, the slowest in "
              f"{worst * 1000:.1f} ms")
    watcher.close()

    # A flood of WebSockets from one address is capped like TCP connections
    # (--max-connections-per-ip 4): the fifth is refused, the others live.
    held = []
    for _ in range(4):
        status, sock = w.eventually(lambda: (lambda r: r if r[0] == 101 else None)(w.ws_upgrade(port)),
                                    5, "a WebSocket within the cap")
        held.append(sock)
    refused = [w.ws_upgrade(port)[0] for _ in range(3)]
    assert all(s != 101 for s in refused), refused
    for n, sock in enumerate(held):
        w.ws_send(sock, hello(f"sec-held-{n}"))
        opcode, payload = w.ws_recv(sock)
        assert opcode == 2 and payload[0] == 0x12, payload[:8]
    held.pop().close()
    w.eventually(lambda: w.ws_upgrade(port)[0] == 101, 5, "a place once one closed")
    for sock in held:
        sock.close()

    # One TLS port: ALPN http/1.1 and HTTPS without ALPN get the page; a
    # client asking for ttt/1 speaks ttt.
    tls = w.Server(tls=True)
    status, headers, body = w.http_get(tls.port, "/", tls=True)
    assert status == 200 and b"app.js" in body, status
    raw = socket.create_connection(("127.0.0.1", tls.port), timeout=5)
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    plain_https = context.wrap_socket(raw)  # no ALPN at all
    assert plain_https.selected_alpn_protocol() is None
    plain_https.sendall(b"GET /style.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answer = b""
    while chunk := plain_https.recv(65536):
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer[:40]
    raw = socket.create_connection(("127.0.0.1", tls.port), timeout=5)
    context.set_alpn_protocols(["ttt/1"])
    ttt = context.wrap_socket(raw)
    assert ttt.selected_alpn_protocol() == "ttt/1"
    frame = bytes([0x0A, 0x00, 0x00, 0x00])  # a length, not HTTP: told it's too large
    ttt.sendall(frame)
    data = ttt.recv(4096)
    assert len(data) > 4 and data[:2] == b"\x00\x00", data[:8]
    ttt.close()

    # Behind a trusted reverse proxy, the lobby's limits per address count the
    # browser's address from X-Forwarded-For (here: one new name an hour).
    proxied = w.Server("--web-trusted-proxy", "127.0.0.1", "--max-new-names-per-address", "1")

    def new_name(forwarded_for, name):
        status, sock = w.ws_upgrade(proxied.port, headers={"X-Forwarded-For": forwarded_for})
        if status != 101:
            return status
        w.ws_send(sock, hello(name))
        opcode, payload = w.ws_recv(sock)
        sock.close()
        return "welcome" if opcode == 2 and payload[0] == 0x12 else error_code(payload)
    assert new_name("198.51.100.7, 203.0.113.5", "proxied-a") == "welcome"
    assert new_name("203.0.113.5", "proxied-b") == ERROR_TOO_MANY_NEW_NAMES
    assert new_name("203.0.113.6", "proxied-c") == "welcome"
    assert new_name("not an address", "proxied-d") == 400
    # A peer that is not a trusted proxy is counted by its own address.
    plain = w.Server("--max-new-names-per-address", "1")
    status, sock = w.ws_upgrade(plain.port, headers={"X-Forwarded-For": "203.0.113.9"})
    w.ws_send(sock, hello("direct-a"))
    assert w.ws_recv(sock)[1][0] == 0x12
    status, sock = w.ws_upgrade(plain.port, headers={"X-Forwarded-For": "203.0.113.10"})
    w.ws_send(sock, hello("direct-b"))
    assert error_code(w.ws_recv(sock)[1]) == ERROR_TOO_MANY_NEW_NAMES

    # --web off: the port speaks ttt only (an HTTP request is a bad frame).
    off = w.Server("--web", "off")
    status, _, _ = w.http_get(off.port, "/")
    assert status == 0
    print("headers, Origin, limits and the one port hold")


w.run(main, 60)
