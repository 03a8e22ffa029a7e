#!/usr/bin/env python3
# ===- lsp_session.py - play a recorded LSP session against a server ------===#
#
# usage: lsp_session.py [--var NAME=VALUE]... SESSION -- SERVER [ARGS...]
#
# Starts the server, sends it the client's side of a session and prints
# what it answers, one summary line per message (and the JSON of the rest),
# for FileCheck. SESSION holds one step per line ('#' starts a comment;
# @NAME@ is replaced by a --var, @URI:path@ by the path's file: URI,
# @TEXT:path@ by the path's contents as a JSON string):
#
#   send {JSON}           a message ("jsonrpc" is added); a request waits
#                         for its response
#   raw "PYTHON STRING"   bytes sent as they are (a broken frame); waits
#                         for the error the server answers with
#   wait METHOD           waits for a notification of METHOD
#   apply N URI PATH      applies the edits for URI of the N-th (from 0)
#                         action of the last code action response to
#                         PATH's text and writes it there (the text that
#                         `change` then sends)
#   change URI PATH V     didChange with the whole text of PATH, version V
#   copy SRC DST          copies a file (a report that changes), as ompdp
#                         writes reports: to a temporary file renamed over DST
#   close-stdin           ends the input without "exit"
#   expect-exit           waits for the server to end; prints its status
#
# Every wait gives up after 20 s (the test fails). Messages the server
# sends on its own (publishDiagnostics, showMessage) are printed when they
# arrive, before the response they came with.
#
# ===----------------------------------------------------------------------===#
import ast
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import urllib.parse

TIMEOUT = 20


def uri_of(path):
    return "file://" + urllib.parse.quote(os.path.abspath(path), safe="/")


def path_of(uri):
    assert uri.startswith("file://"), uri
    return urllib.parse.unquote(uri[len("file://"):])


def substitute(line, vars_):
    for k, v in vars_.items():
        line = line.replace("@%s@" % k, v)
    while "@URI:" in line:
        a = line.index("@URI:")
        b = line.index("@", a + 1)
        line = line[:a] + uri_of(line[a + 5:b]) + line[b + 1:]
    while "@TEXT:" in line:
        a = line.index("@TEXT:")
        b = line.index("@", a + 1)
        with open(line[a + 6:b], encoding="utf-8") as f:
            line = line[:a] + json.dumps(f.read()) + line[b + 1:]
    return line


class Server:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.p.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.q.put(None)
                    return
                line = line.rstrip(b"\r\n")
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            body = out.read(length)
            self.q.put(json.loads(body))

    def send_raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        msg.setdefault("jsonrpc", "2.0")
        body = json.dumps(msg).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def next(self):
        try:
            m = self.q.get(timeout=TIMEOUT)
        except queue.Empty:
            print("TIMEOUT")
            sys.exit(1)
        if m is None:
            print("<- (the server closed its output)")
        return m


def pos(p):
    return "%d:%d" % (p["line"], p["character"])


def rng(r):
    return "%s-%s" % (pos(r["start"]), pos(r["end"]))


def short_uri(uri):
    return os.path.basename(path_of(uri)) if uri.startswith("file://") else uri


def show_edit(edit):
    """Lines describing a WorkspaceEdit."""
    lines = []
    for uri, edits in sorted((edit.get("changes") or {}).items()):
        for e in edits:
            lines.append("    edit %s %s %s" % (short_uri(uri), rng(e["range"]), json.dumps(e["newText"])))
    for dc in edit.get("documentChanges") or []:
        td = dc["textDocument"]
        for e in dc["edits"]:
            lines.append("    edit %s v%s %s %s" % (short_uri(td["uri"]), td.get("version"), rng(e["range"]),
                                                   json.dumps(e["newText"])))
    return lines


def show(m, last):
    """Prints one message of the server; returns code actions, if it held some."""
    if m is None:
        return None
    if "method" in m and "id" not in m:
        params = m.get("params") or {}
        if m["method"] == "textDocument/publishDiagnostics":
            diags = params["diagnostics"]
            print("<- diagnostics %s v%s: %d" % (short_uri(params["uri"]), params.get("version"), len(diags)))
            for d in diags:
                msg = d["message"].split("\n")
                print("  diag %s sev=%d %s %s: %s" % (rng(d["range"]), d["severity"], d.get("source"),
                                                      d.get("code"), msg[0]))
                for extra in msg[1:]:
                    print("    | " + extra)
                for ri in d.get("relatedInformation") or []:
                    print("    related %s %s: %s" % (short_uri(ri["location"]["uri"]),
                                                     rng(ri["location"]["range"]), ri["message"]))
            return None
        if m["method"] == "window/showMessage":
            print("<- showMessage type=%d %s" % (params["type"], params["message"]))
            return None
        print("<- notification " + json.dumps(m, sort_keys=True))
        return None
    if "method" in m:
        print("<- request " + json.dumps(m, sort_keys=True))
        return None
    if "error" in m:
        print("<- error id=%s code=%d %s" % (json.dumps(m.get("id")), m["error"]["code"],
                                            m["error"]["message"]))
        return None
    result = m.get("result")
    if last == "textDocument/codeAction" and isinstance(result, list):
        print("<- %d action(s)" % len(result))
        for i, a in enumerate(result):
            print("  action %d %s%s: %s" % (i, a.get("kind"), " preferred" if a.get("isPreferred") else "",
                                            a["title"]))
            if "disabled" in a:
                print("    disabled: " + a["disabled"]["reason"])
            for d in a.get("diagnostics") or []:
                print("    fixes %s %s" % (rng(d["range"]), d.get("code")))
            for line in show_edit(a.get("edit") or {}):
                print(line)
        return result
    if last == "textDocument/hover" and isinstance(result, dict):
        print("<- hover %s %s" % (result["contents"]["kind"], rng(result["range"]) if "range" in result else ""))
        for line in result["contents"]["value"].split("\n"):
            print("  | " + line)
        return None
    print("<- result " + json.dumps(result, sort_keys=True))
    return None


def apply_edit(edit, target, text):
    """text with the edits of edit for URI target (LSP positions in UTF-16)."""
    edits = []
    for uri, es in (edit.get("changes") or {}).items():
        if uri == target:
            edits += es
    for dc in edit.get("documentChanges") or []:
        if dc["textDocument"]["uri"] == target:
            edits += dc["edits"]
    lines = text.splitlines(keepends=True) or [""]

    def offset(p):
        off = sum(len(l) for l in lines[:p["line"]])
        line = lines[p["line"]] if p["line"] < len(lines) else ""
        units = 0
        i = 0
        while i < len(line) and units < p["character"] and line[i] not in "\r\n":
            units += 2 if ord(line[i]) > 0xFFFF else 1
            i += 1
        return off + i

    placed = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
                    reverse=True)
    for a, b, new in placed:
        text = text[:a] + new + text[b:]
    return text


def main():
    args = sys.argv[1:]
    vars_ = {}
    while args and args[0] == "--var":
        k, _, v = args[1].partition("=")
        vars_[k] = v
        args = args[2:]
    script, sep, argv = args[0], args[1], args[2:]
    assert sep == "--"
    server = Server(argv)
    pending = {}  # id -> method
    actions = None
    with open(script, encoding="utf-8") as f:
        steps = [l.rstrip("\n") for l in f]
    for raw_line in steps:
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        line = substitute(line, vars_)
        cmd, _, rest = line.partition(" ")
        if cmd == "send":
            msg = json.loads(rest)
            print("-> %s%s" % (msg.get("method", "response"), " #%s" % msg["id"] if "id" in msg else ""))
            server.send(msg)
            if "id" in msg and "method" in msg:
                while True:
                    m = server.next()
                    if m is None:
                        break
                    got = show(m, msg["method"] if m.get("id") == msg["id"] else None)
                    if got is not None:
                        actions = got
                    if m.get("id") == msg["id"] and "method" not in m:
                        break
        elif cmd == "raw":
            data = ast.literal_eval(rest).encode("latin-1")
            print("-> raw %d bytes" % len(data))
            server.send_raw(data)
            while True:
                m = server.next()
                show(m, None)
                if m is None or ("error" in m and m.get("id") is None):
                    break
        elif cmd == "wait":
            while True:
                m = server.next()
                show(m, None)
                if m is None or m.get("method") == rest:
                    break
        elif cmd == "apply":
            n, uri, path = rest.split(" ", 2)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            text = apply_edit(actions[int(n)]["edit"], uri, text)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("-- applied action %s to %s" % (n, os.path.basename(path)))
        elif cmd == "change":
            uri, path, version = rest.split(" ")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            print("-> textDocument/didChange (whole text of %s)" % os.path.basename(path))
            server.send({"method": "textDocument/didChange",
                         "params": {"textDocument": {"uri": uri, "version": int(version)},
                                    "contentChanges": [{"text": text}]}})
        elif cmd == "copy":
            src, dst = rest.split(" ")
            shutil.copyfile(src, dst + ".tmp")
            os.replace(dst + ".tmp", dst)
            print("-- copied %s to %s" % (os.path.basename(src), os.path.basename(dst)))
        elif cmd == "close-stdin":
            server.p.stdin.close()
        elif cmd == "expect-exit":
            try:
                server.p.stdin.close()
            except BrokenPipeError:
                pass
            rc = server.p.wait(timeout=TIMEOUT)
            while True:
                try:
                    m = server.q.get(timeout=1)
                except queue.Empty:
                    break
                if m is None:
                    break
                show(m, None)
            print("-- exit status %d" % rc)
        else:
            print("bad step: " + raw_line)
            sys.exit(2)
    if server.p.poll() is None:
        server.p.kill()
        server.p.wait()


if __name__ == "__main__":
    main()
