#!/usr/bin/python3
"""A small stand-in for the Hugging Face Hub, for pe-viz's tests and benchmarks (Python's
standard library only). It serves repositories from a folder the way the Hub answers
huggingface_hub (file_download.py, utils/_http.py):

  GET  /ORG/NAME/resolve/REVISION/PATH
       small files (.json, anything not weights): 307, Location: /api/resolve-cache/models/
       ORG/NAME/COMMIT/PATH (a relative redirect), X-Repo-Commit, ETag (the git blob sha1);
       large files (.safetensors, .gguf, .bin): 302 to the second port (another host for the
       client: the token must not follow), X-Repo-Commit, X-Linked-Etag, X-Linked-Size.
  GET  /api/resolve-cache/models/ORG/NAME/COMMIT/PATH   (main port)  the file; Range → 206
  GET  /cdn/ORG/NAME/COMMIT/PATH?sig=...                 (second port) the file; Range → 206
  Errors with X-Error-Code: RepoNotFound (404; 401 for a private repo without its token),
  GatedRepo (401 without a token, 403 with one not granted), RevisionNotFound, EntryNotFound.
  Every answer carries CORS headers (Access-Control-Allow-Origin: *, the Hub's headers
  exposed); OPTIONS answers a preflight (counted: a browser sends one only for a token).

A repository is the folder ROOT/ORG/NAME; its commit is the first line of ROOT/ORG/NAME/.commit
(else the sha1 of its name); ".gated" lists the tokens granted access (one a line), ".private"
the tokens that may read it. Revisions: "main" and the commit.

Faults, by option or at run time (GET /_control?NAME=1 on the main port):
  rate_limit_once   the next resolve request answers 429, RateLimit: "resolvers";r=0;t=1
  ignore_range      the file ports answer a Range request with 200 and the whole file
  cut_once          the next ranged answer of the file ports sends half its body, then closes
  server_error_once the next resolve request answers 503
GET /_stats (main port) gives, as JSON, the bytes of file bodies served (per port and in all),
the requests, the preflights and the faults served; GET /_control?reset=1 zeroes them.

  tests/hub/test_hub.py ROOT [--port 0] [--ready FILE] [--stats FILE] [--slow BYTES_PER_S]
                             [--rate-limit-once] [--ignore-range] [--cut-once] [--server-error-once]
prints "hub http://127.0.0.1:PORT cdn http://127.0.0.1:PORT2" (also written to --ready FILE)
once both ports listen, then serves until killed.
"""
import argparse
import hashlib
import json
import os
import posixpath
import re
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LARGE_SUFFIXES = (".safetensors", ".gguf", ".bin", ".pt", ".pth")
EXPOSED = ("X-Repo-Commit, X-Linked-Size, X-Linked-Etag, ETag, X-Error-Code, X-Error-Message, Content-Range, "
           "Content-Length, RateLimit, Retry-After, Location, Accept-Ranges")


class State:
    def __init__(self, root, faults, stats_file=None, slow=0):
        self.root = os.path.realpath(root)
        self.stats_file = stats_file
        self.slow = slow  # bytes per second of file bodies (0: as fast as it goes)
        self.lock = threading.RLock()
        self.faults = dict(faults)
        self.cdn_origin = ""
        self.reset()

    def reset(self):
        with self.lock:
            self.bytes = {"hub": 0, "cdn": 0}
            self.requests = []
            self.preflights = 0
            self.faults_served = []

    def count(self, port_name, n):
        with self.lock:
            self.bytes[port_name] += n

    def log(self, entry):
        with self.lock:
            self.requests.append(entry)

    def take_fault(self, name):
        with self.lock:
            if self.faults.get(name):
                if name.endswith("_once"):
                    self.faults[name] = False
                self.faults_served.append(name)
                return True
            return False

    def stats(self):
        with self.lock:
            return {"bytes": dict(self.bytes), "total_bytes": sum(self.bytes.values()), "requests": list(self.requests),
                    "preflights": self.preflights, "faults_served": list(self.faults_served)}

    def write_stats(self):
        if not self.stats_file:
            return
        with self.lock:  # the newest numbers are the last written
            text = json.dumps(self.stats())
            tmp = f"{self.stats_file}.{threading.get_ident()}.tmp"
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, self.stats_file)


def repo_commit(repo_dir, repo_id):
    try:
        with open(os.path.join(repo_dir, ".commit")) as f:
            c = f.readline().strip()
            if c:
                return c
    except OSError:
        pass
    return hashlib.sha1(repo_id.encode()).hexdigest()


def token_list(path):
    try:
        with open(path) as f:
            return {line.strip() for line in f if line.strip()}
    except OSError:
        return None


def git_blob_sha1(path):
    h = hashlib.sha1()
    size = os.path.getsize(path)
    h.update(b"blob %d\0" % size)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def large_etag(path):
    # The Hub's is the file's sha256; hashing a sparse 16 GB file would take minutes, so the
    # stand-in is a hash of its size, time and name (stable while the file is).
    st = os.stat(path)
    return hashlib.sha256(f"{path}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "test-hub/1"
    state = None       # State
    port_name = "hub"  # or "cdn"

    def log_message(self, fmt, *args):  # quiet: the tests read /_stats
        pass

    # ---- answers
    def cors(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Expose-Headers", EXPOSED)

    def plain(self, status, headers=(), body=b""):
        self.send_response(status)
        self.cors()
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)

    def error(self, status, code, message, commit=None):
        headers = [("X-Error-Code", code), ("X-Error-Message", message), ("Content-Type", "application/json")]
        if commit:
            headers.append(("X-Repo-Commit", commit))
        self.plain(status, headers, json.dumps({"error": message}).encode())

    def do_OPTIONS(self):
        with self.state.lock:
            self.state.preflights += 1
        self.send_response(204)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Headers", "Authorization, Range")
        self.send_header("Access-Control-Allow-Methods", "GET, HEAD")
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(url.path)
        self.state.log({"port": self.port_name, "path": self.path, "range": self.headers.get("Range"),
                        "authorization": bool(self.headers.get("Authorization")), "user_agent": self.headers.get("User-Agent")})
        try:
            self.answer(url, path)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            self.state.write_stats()

    def answer(self, url, path):
        if self.port_name == "hub":
            if path == "/_stats":
                return self.plain(200, [("Content-Type", "application/json")], json.dumps(self.state.stats()).encode())
            if path == "/_control":
                return self.control(urllib.parse.parse_qs(url.query))
            if path.startswith("/api/resolve-cache/models/"):
                return self.resolve_cache(path[len("/api/resolve-cache/models/"):])
            return self.resolve(url.path)
        if path.startswith("/cdn/"):
            return self.cdn(path[len("/cdn/"):])
        self.error(404, "EntryNotFound", "no such path")

    def control(self, query):
        if query.get("reset"):
            self.state.reset()
        for name in ("rate_limit_once", "ignore_range", "cut_once", "server_error_once"):
            if name in query:
                with self.state.lock:
                    self.state.faults[name] = query[name][0] not in ("0", "false", "")
        self.plain(200, [("Content-Type", "application/json")], json.dumps(self.state.faults).encode())

    # ---- the Hub's layout
    def repo(self, org, name):
        """(folder, commit) of ORG/NAME, or answers the error (None)."""
        repo_id = f"{org}/{name}"
        folder = os.path.join(self.state.root, org, name)
        token = (self.headers.get("Authorization") or "")
        token = token[7:] if token.startswith("Bearer ") else ""
        if not re.fullmatch(r"[\w.-]+", org) or not re.fullmatch(r"[\w.-]+", name) or not os.path.isdir(folder):
            self.error(401 if not token else 404, "RepoNotFound", f"Repository Not Found for url: {self.path}.")
            return None
        private = token_list(os.path.join(folder, ".private"))
        if private is not None and token not in private:
            self.error(401 if not token else 404, "RepoNotFound", f"Repository Not Found for url: {self.path}.")
            return None
        gated = token_list(os.path.join(folder, ".gated"))
        if gated is not None and token not in gated:
            if not token:
                self.error(401, "GatedRepo", f"Access to model {repo_id} is restricted. You must have access to it and be authenticated.")
            else:
                self.error(403, "GatedRepo", f"Access to model {repo_id} is restricted and you are not in the authorized list.")
            return None
        return folder, repo_commit(folder, repo_id)

    def file_in(self, folder, rel):
        full = os.path.realpath(os.path.join(folder, rel))
        if not full.startswith(folder + os.sep) or os.path.basename(full).startswith(".") or not os.path.isfile(full):
            return None
        return full

    def resolve(self, raw_path):
        m = re.fullmatch(r"/([^/]+)/([^/]+)/resolve/([^/]+)/(.+)", raw_path)
        if not m:
            return self.error(404, "EntryNotFound", "not a resolve URL")
        org, name, revision, rel = (urllib.parse.unquote(g) for g in m.groups())
        if self.state.take_fault("rate_limit_once"):
            return self.plain(429, [("RateLimit", '"resolvers";r=0;t=1'), ("RateLimit-Policy", '"fixed window";"resolvers";q=3000;w=300')],
                              b'{"error": "rate limited"}')
        if self.state.take_fault("server_error_once"):
            return self.error(503, "", "try again")
        found = self.repo(org, name)
        if not found:
            return
        folder, commit = found
        if revision not in ("main", commit):
            return self.error(404, "RevisionNotFound", f"Invalid rev id: {revision}")
        full = self.file_in(folder, posixpath.normpath(rel))
        if not full:
            return self.error(404, "EntryNotFound", f"{rel} does not exist on \"{revision}\"", commit)
        quoted = urllib.parse.quote(rel)
        if full.endswith(LARGE_SUFFIXES):
            self.plain(302, [("Location", f"{self.state.cdn_origin}/cdn/{org}/{name}/{commit}/{quoted}?sig=test"),
                             ("X-Repo-Commit", commit), ("X-Linked-Etag", f'"{large_etag(full)}"'),
                             ("X-Linked-Size", str(os.path.getsize(full)))])
        else:
            self.plain(307, [("Location", f"/api/resolve-cache/models/{org}/{name}/{commit}/{quoted}"),
                             ("X-Repo-Commit", commit), ("ETag", f'"{git_blob_sha1(full)}"')])

    def resolve_cache(self, rest):
        parts = rest.split("/", 3)
        if len(parts) < 4:
            return self.error(404, "EntryNotFound", "not a file")
        org, name, commit, rel = parts
        found = self.repo(org, name)
        if not found:
            return
        folder, real_commit = found
        if commit != real_commit:
            return self.error(404, "RevisionNotFound", f"Invalid rev id: {commit}")
        full = self.file_in(folder, posixpath.normpath(rel))
        if not full:
            return self.error(404, "EntryNotFound", f"{rel} does not exist", commit)
        self.send_file(full, [("X-Repo-Commit", commit), ("ETag", f'"{git_blob_sha1(full)}"')])

    def cdn(self, rest):
        parts = rest.split("/", 3)
        if len(parts) < 4:
            return self.error(404, "EntryNotFound", "not a file")
        org, name, commit, rel = parts
        folder = os.path.join(self.state.root, org, name)
        full = self.file_in(os.path.realpath(folder), posixpath.normpath(rel)) if os.path.isdir(folder) else None
        if not full:
            return self.error(404, "EntryNotFound", "no such blob")
        self.send_file(full, [("ETag", f'"{large_etag(full)}"')])

    # ---- bodies
    def send_file(self, full, headers):
        size = os.path.getsize(full)
        wanted = self.headers.get("Range")
        first, last = 0, size - 1
        status = 200
        if wanted and not self.state.faults.get("ignore_range"):
            m = re.fullmatch(r"bytes=(\d+)-(\d*)", wanted.strip())
            if not m or int(m.group(1)) >= size:
                return self.plain(416, [("Content-Range", f"bytes */{size}")])
            first = int(m.group(1))
            last = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
            if last < first:
                return self.plain(416, [("Content-Range", f"bytes */{size}")])
            status = 206
        elif wanted:
            self.state.take_fault("ignore_range")
        length = last - first + 1
        cut = status == 206 and self.state.take_fault("cut_once")
        self.send_response(status)
        self.cors()
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(length))
        if status == 206:
            self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
        self.end_headers()
        if self.command == "HEAD":
            return
        send = length // 2 if cut else length
        self.wfile.flush()
        with open(full, "rb") as f:
            sent = 0
            step = 64 << 20
            if self.state.slow:
                step = max(1, self.state.slow // 10)
            while sent < send:
                if self.state.slow:
                    time.sleep(0.1)
                n = self.connection.sendfile(f, offset=first + sent, count=min(send - sent, step))
                if n == 0:
                    break
                sent += n
                self.state.count(self.port_name, n)
        if cut:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)


def serve(server):
    server.serve_forever(poll_interval=0.2)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--cdn-port", type=int, default=0)
    ap.add_argument("--ready")
    ap.add_argument("--stats", help="rewrite this file with the /_stats JSON after every request")
    ap.add_argument("--slow", type=int, default=0, help="send file bodies at this many bytes per second")
    for fault in ("rate-limit-once", "ignore-range", "cut-once", "server-error-once"):
        ap.add_argument("--" + fault, action="store_true")
    a = ap.parse_args()
    state = State(a.root, {"rate_limit_once": a.rate_limit_once, "ignore_range": a.ignore_range, "cut_once": a.cut_once,
                           "server_error_once": a.server_error_once}, a.stats, a.slow)
    servers = []
    for name, port in (("hub", a.port), ("cdn", a.cdn_port)):
        handler = type(f"{name}Handler", (Handler,), {"state": state, "port_name": name})
        srv = ThreadingHTTPServer(("127.0.0.1", port), handler)
        srv.daemon_threads = True
        servers.append(srv)
    hub = f"http://127.0.0.1:{servers[0].server_address[1]}"
    state.cdn_origin = f"http://127.0.0.1:{servers[1].server_address[1]}"
    threading.Thread(target=serve, args=(servers[1],), daemon=True).start()
    line = f"hub {hub} cdn {state.cdn_origin}"
    if a.ready:
        tmp = a.ready + ".tmp"
        with open(tmp, "w") as f:
            f.write(line + "\n")
        os.replace(tmp, a.ready)
    print(line, flush=True)
    try:
        serve(servers[0])
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
