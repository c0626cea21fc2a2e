"""Support for the web client's tests: a ttt-server of the test's own, real
headless Chromium (Debian's chromium and chromium-driver, driven with
python3-selenium), waiting on conditions, and cleanup however a test ends.

Every process a test starts is in a process group of its own and is killed
with it; every folder (the browser's profile, its HOME and TMPDIR, the
server's files) is one temporary folder removed at the end. A test runs
under a deadline of its own (SIGALRM) shorter than ctest's, so cleanup runs
even when it hangs.
"""

import atexit
import base64
import os
import re
import shutil
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zlib

BIN_DIR = os.environ.get("TTT_BIN_DIR", "")
OUTPUT_DIR = os.environ.get("TTT_WEB_OUTPUT", "")

_cleanups = []
_scratch = None


def scratch():
    """The test's own temporary folder (removed at exit)."""
    global _scratch
    if _scratch is None:
        _scratch = tempfile.mkdtemp(prefix="w")  # short: Chromium's socket paths live under it
    return _scratch


def on_cleanup(fn):
    _cleanups.append(fn)


def cleanup():
    while _cleanups:
        fn = _cleanups.pop()
        try:
            fn()
        except Exception:  # cleanup goes on whatever fails
            traceback.print_exc()
    global _scratch
    if _scratch:
        shutil.rmtree(_scratch, ignore_errors=True)
        _scratch = None


atexit.register(cleanup)


def _on_signal(signum, frame):
    raise TimeoutError(f"signal {signum}: the test ran out of time" if signum == signal.SIGALRM
                       else f"signal {signum}")


def run(main, deadline_s=100):
    """Runs main() under a deadline; exits 0 on success, 1 on failure."""
    signal.signal(signal.SIGALRM, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)
    signal.alarm(deadline_s)
    status = 0
    try:
        main()
        print("PASS")
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        signal.alarm(0)
        cleanup()
    sys.exit(status)


def eventually(predicate, timeout=10.0, what="a condition", interval=0.05):
    """Waits until predicate() is truthy (returning it) or fails naming what."""
    end = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = predicate()
            if value:
                return value
        except Exception as e:  # a page between states: try again
            last_error = e
        if time.monotonic() >= end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}"
                                 + (f" (last error: {last_error})" if last_error else ""))
        time.sleep(interval)


def _kill_users_of(folder, timeout=5.0):
    """Kills every process whose command line names folder (a Chromium
    process that left the browser's process group, e.g. its crash handler)
    and waits until none is left, so the folder can be removed."""
    end = time.monotonic() + timeout
    while True:
        found = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if folder.encode() in f.read():
                        found.append(int(pid))
            except OSError:
                continue
        if not found or time.monotonic() >= end:
            return
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.05)


def _kill_group(process):
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


class Server:
    """A ttt-server on loopback, port 0 unless given; stopped at cleanup."""

    def __init__(self, *args, tls=False, db=None, port=0, bind="127.0.0.1"):
        self.args = list(args)
        self.tls = tls
        self.folder = tempfile.mkdtemp(prefix="server-", dir=scratch())
        self.db = db if db is not None else ":memory:"
        self.bind = bind
        self.port = port
        self.process = None
        self.start()

    def start(self):
        self.log_path = os.path.join(self.folder, f"server-{time.monotonic_ns()}.log")
        out_path = self.log_path + ".out"
        open(out_path, "w").close()
        cmd = [os.path.join(BIN_DIR, "ttt-server"), "--bind", self.bind, "--port", str(self.port),
               "--db", self.db, "--log-level", "info"]
        cmd += ["--tls-dir", self.folder] if self.tls else ["--no-tls"]
        cmd += self.args
        self.out = open(out_path, "r")
        self.process = subprocess.Popen(cmd, stdout=open(out_path, "a"),
                                        stderr=open(self.log_path, "w"), start_new_session=True)
        on_cleanup(lambda p=self.process: _kill_group(p))
        text = ""

        def port_said():
            nonlocal text
            text += self.out.read()
            if self.process.poll() is not None:
                raise RuntimeError(f"ttt-server exited: {self.log()}")
            m = re.search(r"^listening on port (\d+)$", text, re.M)
            return m and int(m.group(1))

        self.port = eventually(port_said, 15, "ttt-server to listen")

    def log(self):
        try:
            with open(self.log_path) as f:
                return f.read()
        except OSError:
            return ""

    def url(self, host="127.0.0.1", path="/"):
        scheme = "https" if self.tls else "http"
        return f"{scheme}://{host}:{self.port}{path}"

    def kill(self):
        """SIGKILL, as a crash."""
        _kill_group(self.process)

    def restart(self):
        self.start()


class Relay:
    """A TCP relay on loopback to a port, that a test can cut (every
    connection through it closed, new ones refused) and open again on the
    same port: one page's network going away while the server stays up."""

    def __init__(self, port):
        self.target = port
        self.port = 0
        self.listener = None
        self.sockets = []
        self.lock = threading.Lock()
        self.open()
        on_cleanup(self.cut)

    def open(self):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self):
        with self.lock:
            listener, self.listener = self.listener, None
            sockets, self.sockets = self.sockets, []
        for s in ([listener] if listener else []) + sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                server = socket.create_connection(("127.0.0.1", self.target), timeout=5)
                server.settimeout(None)
            except OSError:
                client.close()
                continue
            with self.lock:
                if self.listener is not listener:
                    client.close()
                    server.close()
                    return
                self.sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        try:
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def Browser(width=1280, height=800):
    """Headless Chromium (a _Browser), started again once if it exits while
    starting (a busy machine)."""
    try:
        return _Browser(width, height)
    except Exception as e:
        print(f"Chromium did not start ({str(e).splitlines()[0]}): once more", file=sys.stderr)
        return _Browser(width, height)


class _Browser:
    """Headless Chromium through chromedriver, with a profile, HOME and
    TMPDIR of its own inside the scratch folder."""

    def __init__(self, width=1280, height=800):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.home = tempfile.mkdtemp(prefix="b", dir=scratch())
        on_cleanup(lambda home=self.home: _kill_users_of(home))
        profile = os.path.join(self.home, "profile")
        # Chromium's TMPDIR holds a UNIX socket (.../org.chromium.Chromium.XXXXXX/
        # SingletonSocket): its path must stay under the 107 bytes sockets
        # take, or Chromium exits at start. Inside the scratch folder when
        # that fits, else a short folder of its own in /tmp.
        tmp = os.path.join(self.home, "t")
        if len(tmp) + len("/org.chromium.Chromium.XXXXXX/SingletonSocket") > 100:
            tmp = tempfile.mkdtemp(prefix="tttc", dir="/tmp")
            on_cleanup(lambda folder=tmp: shutil.rmtree(folder, ignore_errors=True))
        else:
            os.makedirs(tmp)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ["--headless=new", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--disable-dev-shm-usage", "--no-default-browser-check",
                     "--disable-extensions", "--disable-features=Translate,MediaRouter",
                     "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                     "--disable-backgrounding-occluded-windows", "--ignore-certificate-errors",
                     f"--user-data-dir={profile}", f"--window-size={width},{height}",
                     "--password-store=basic", "--use-mock-keychain"]:
            options.add_argument(flag)
        if os.geteuid() == 0:
            options.add_argument("--no-sandbox")  # Chromium refuses to run as root otherwise
        env = dict(os.environ, HOME=self.home, TMPDIR=tmp, XDG_CONFIG_HOME=self.home,
                   XDG_CACHE_HOME=self.home)
        service = Service("/usr/bin/chromedriver", env=env,
                          log_path=os.path.join(self.home, "chromedriver.log"))
        # chromedriver and Chromium in a process group of their own, killed at the end.
        original = subprocess.Popen.__init__

        def in_own_group(popen, *args, **kwargs):
            kwargs["start_new_session"] = True
            original(popen, *args, **kwargs)

        subprocess.Popen.__init__ = in_own_group
        try:
            service.start()
        finally:
            subprocess.Popen.__init__ = original
        self.service = service  # its __del__ would stop chromedriver
        self.service_process = service.process
        on_cleanup(lambda p=self.service_process: _kill_group(p))
        try:
            self.driver = webdriver.Remote(service.service_url, options=options)
        except Exception:
            # What Chromium said before it went, for the test's output.
            for log in ("chromedriver.log", "profile/chrome_debug.log"):
                try:
                    with open(os.path.join(self.home, log), errors="replace") as f:
                        print(f"--- {log} (end) ---\n" + f.read()[-4000:], file=sys.stderr)
                except OSError:
                    pass
            raise
        # Chromium's DevTools commands through chromedriver (for the viewport).
        self.driver.command_executor._commands["executeCdpCommand"] = (
            "POST", "/session/$sessionId/goog/cdp/execute")
        on_cleanup(self.quit)
        self.driver.set_page_load_timeout(20)
        self.windows = {}

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass
        _kill_group(self.service_process)
        _kill_users_of(self.home)

    def open(self, key, url):
        """Opens url in a window of its own, named key (the first window is reused)."""
        if self.windows:
            self.driver.switch_to.new_window("window")
        self.windows[key] = self.driver.current_window_handle
        self.driver.get(url)
        return self

    def use(self, key):
        self.driver.switch_to.window(self.windows[key])
        return self.driver

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)


def cdp(driver, command, params):
    """A DevTools command (Emulation.* and the like) through chromedriver."""
    return driver.execute("executeCdpCommand", {"cmd": command, "params": params})["value"]


# --- what a page shows --------------------------------------------------------

def text_of(driver, element_id):
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]); return e ? e.textContent : '';", element_id)


def visible(driver, element_id):
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]); return !!e && !e.closest('[hidden]');",
        element_id)


def cells(driver):
    """The game board's marks, row-major ('X', 'O' or '')."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#board .cell')].map(b => b.dataset.mark || '');")


def cell_labels(driver, board="board"):
    return driver.execute_script(
        f"return [...document.querySelectorAll('#{board} .cell')].map(b => b.getAttribute('aria-label'));")


def click_cell(driver, name):
    driver.execute_script(
        "document.querySelector(`#board .cell[data-cell='${arguments[0]}']`).click();", name)


def click(driver, element_id):
    driver.execute_script("document.getElementById(arguments[0]).click();", element_id)


def notes(driver):
    return text_of(driver, "notes")


def wait_my_move(driver, timeout=10):
    eventually(lambda: "Your move" in text_of(driver, "game-status"), timeout, "the player's turn")


def foreign_elements(driver):
    """Elements a hostile text would have made: any img, script, style, iframe
    or b/i element other than the page's own (it has none of those)."""
    return driver.execute_script(
        "return [...document.body.querySelectorAll('img, script, style, iframe, b, i, svg, object')]"
        ".map(e => e.outerHTML);")


# --- raw HTTP and WebSocket, for what a browser won't do -----------------------

def http_get(port, path, headers=None, tls=False, host="127.0.0.1"):
    """(status, headers dict (lower-case names), body) of one request."""
    sock = socket.create_connection((host, port), timeout=5)
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        context.set_alpn_protocols(["http/1.1"])
        sock = context.wrap_socket(sock)
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
    for k, v in (headers or {}).items():
        lines.append(f"{k}: {v}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        data += chunk
    sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1."):
        return 0, {}, data  # not an HTTP answer

    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    status = int(status_line.split()[1])
    parsed = {}
    for line in header_lines:
        k, _, v = line.partition(":")
        parsed[k.strip().lower()] = v.strip()
    return status, parsed, body


def ws_upgrade(port, origin=None, host="127.0.0.1", headers=None):
    """Opens a WebSocket to /ws; returns (status, socket) (the socket open
    when status is 101)."""
    sock = socket.create_connection((host, port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = ["GET /ws HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    for k, v in (headers or {}).items():
        lines.append(f"{k}: {v}")
    try:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, BrokenPipeError, socket.timeout):
        data = b""
    if not data.startswith(b"HTTP/1.1 "):
        sock.close()
        return 0, None
    status = int(data.split()[1])
    if status != 101:
        sock.close()
        return status, None
    return status, sock


def ws_send(sock, payload, opcode=2):
    """One masked client frame."""
    mask = os.urandom(4)
    header = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 65536:
        header += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        header += bytes([0x80 | 127]) + struct.pack(">Q", n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    sock.sendall(header + mask + masked)


def ws_recv(sock):
    """(opcode, payload) of one server frame; (None, b'') when closed."""
    def exact(n):
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data
    try:
        b0, b1 = exact(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", exact(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", exact(8))[0]
        return b0 & 0x0F, exact(n)
    except (ConnectionError, ConnectionResetError, socket.timeout, OSError):
        return None, b""


# --- pictures ------------------------------------------------------------------

def png_pixels(data):
    """(width, height, rows of RGB(A) tuples) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos = 8
    idat = b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, "an unexpected PNG format"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows = []
    previous = bytearray(stride)
    i = 0
    for _ in range(height):
        kind = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + b) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


# --- flows every test uses ----------------------------------------------------

def sign_in(driver, name):
    """On a page showing the name form: signs in as name and waits for the lobby."""
    eventually(lambda: visible(driver, "signin"), 10, "the name form")
    driver.execute_script(
        "document.getElementById('signin-name').value = arguments[0];"
        "document.getElementById('signin-form').requestSubmit();", name)
    eventually(lambda: visible(driver, "lobby") or visible(driver, "game"), 10, f"{name} signed in")


def game_id(driver):
    """The number of the game the page shows."""
    title = eventually(lambda: visible(driver, "game") and text_of(driver, "game-title"), 10,
                       "a game on the page")
    return int(re.match(r"Game (\d+)", title).group(1))


def create_game(driver, size=3, private=False, clock=""):
    driver.execute_script(
        "const s = document.getElementById('ng-size'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('change'));"
        "document.getElementById('ng-clock').value = arguments[1];", str(size), clock)
    click(driver, "create-private" if private else "create-open")
    return game_id(driver)


def join_from_list(driver, game):
    """Finds the game in the lobby's list (refreshing) and joins it."""
    def joined():
        if visible(driver, "game"):
            return True
        click(driver, "games-refresh")
        time.sleep(0.2)
        return driver.execute_script(
            "for (const tr of document.querySelectorAll('#games-table tbody tr')) {"
            "  if (tr.cells[0].textContent === String(arguments[0])) {"
            "    const b = [...tr.querySelectorAll('button')].find(b => b.textContent === 'Join');"
            "    if (b) { b.click(); return true; } } } return false;", game)
    eventually(joined, 10, f"game {game} in the list")
    eventually(lambda: visible(driver, "game") and game_id(driver) == game, 10, f"joined game {game}")


def play(driver, cell_name, expect_moves):
    """Waits for the turn, plays cell_name, and waits for it on the board."""
    wait_my_move(driver)
    click_cell(driver, cell_name)
    eventually(lambda: sum(1 for c in cells(driver) if c) >= expect_moves, 10,
               f"{cell_name} on the board")


def shot(driver, name):
    """A screenshot under the test's output folder (the build tree); its path."""
    os.makedirs(OUTPUT_DIR, exist_ok=True)
    path = os.path.join(OUTPUT_DIR, name)
    driver.save_screenshot(path)
    return path
