#!/usr/bin/env python3
# ===- page_check.py - what an ompdp HTML page holds, without a browser -----===#
#
# Parses the page with the standard library's HTML parser and prints, for
# FileCheck:
#   csp: <the Content-Security-Policy of the page>
#   external: none | <each reference to something outside the file>
#   scripts: <n> inline, data <n> bytes
#   program: <argv>   partial: <bool>
#   summary: <kind>=<count> ...   time_saved_ns=<n>
#   findings: <n>
#   finding <i> <kind> <variable> shown=<n> count=<n> rewrites=<n> verdict=<v> saves=<bool>
#   diff <i>.<r> <file> source=<bool> -<n> +<n>   (then each diff line with --diffs)
#   group <variable> <kinds> saves=<ns> | saves=<at least>-<at most>   (by variable and construct)
#   timeline: none | ops=<n> events=<n> folded=<n> rest=<n>
#   memory device <d> peak=<bytes> at=<ns> saved=<bytes> holders=<var>:<bytes>,... series=<n>
# Exits 1 with "error: ..." when the page is not what ompdp writes: no data
# script, data that is not JSON, markup from the data, an external
# reference.
# ===------------------------------------------------------------------------===#
import html.parser
import json
import re
import sys

REF_ATTRS = {"src", "href", "action", "formaction", "poster", "data", "srcset", "xlink:href"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.csp = None
        self.external = []
        self.scripts = []
        self.tags = []
        self._in = None
        self._buf = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = a.get("content")
        for k, v in attrs:
            if k in REF_ATTRS and v is not None:
                self.external.append("<%s %s=%s>" % (tag, k, v))
            if k == "style" and v and re.search(r"url\(|@import", v):
                self.external.append("<%s style=%s>" % (tag, v))
        if tag in ("script", "style"):
            self._in = (tag, a)
            self._buf = []

    def handle_endtag(self, tag):
        if self._in and tag == self._in[0]:
            text = "".join(self._buf)
            if tag == "script":
                self.scripts.append((self._in[1], text))
            elif re.search(r"url\(\s*['\"]?(https?:|//)|@import", text):
                self.external.append("<style> with a url() or @import")
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._buf.append(data)


def main():
    show_diffs = "--diffs" in sys.argv
    path = [a for a in sys.argv[1:] if not a.startswith("--")][0]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    p = Page()
    p.feed(text)
    p.close()
    data = [s for a, s in p.scripts if a.get("id") == "ompdp-data"]
    if len(data) != 1:
        print("error: %d data scripts" % len(data))
        return 1
    if any(a.get("src") for a, _ in p.scripts):
        print("error: a script with src")
        return 1
    try:
        d = json.loads(data[0])
    except ValueError as e:
        print("error: the data is not JSON: %s" % e)
        return 1
    if re.search(r"<|>", data[0]):
        print("error: '<' or '>' in the data script")
        return 1
    print("csp: %s" % p.csp)
    print("external: %s" % (" ".join(p.external) if p.external else "none"))
    print("scripts: %d inline, data %d bytes" % (len(p.scripts), len(data[0])))
    print("program: %s" % " ".join(d["program"]["argv"]))
    print("partial: %s" % str(d["partial"]).lower())
    print("summary: " + " ".join("%s=%d" % (c["kind"], c["count"]) for c in d["summary"]) +
          " time_saved_ns=%d excluded_time_ns=%d" % (d["time_saved_ns"], d["excluded_time_ns"]))
    print("warnings: %d" % len(d["warnings"]))
    print("findings: %d" % len(d["findings"]))
    for f in d["findings"]:
        print("finding %d %s %s shown=%d count=%d rewrites=%d verdict=%s saves=%s" % (
            f["index"], f["kind"], f["variable"] or "-", f["shown"], f["count"], len(f["rewrites"]),
            f.get("verdict"), str(f.get("saves")).lower()))
        for r, rw in enumerate(f["rewrites"]):
            for df in rw["diffs"]:
                lines = [l for h in df["hunks"] for l in h["lines"]]
                print("diff %d.%d %s source=%s -%d +%d%s" % (
                    f["index"], r, df["file"].rsplit("/", 1)[-1], str(df["source"]).lower(),
                    sum(1 for l in lines if l[0] == "-"), sum(1 for l in lines if l[0] == "+"),
                    "" if df["source"] else " (%s)" % df["why"]))
                if show_diffs:
                    for h in df["hunks"]:
                        print("  @@ %d" % h["start"])
                        for tag, line in h["lines"]:
                            print("  %s %s" % (tag, line))
    for g in d["groups"]:
        saves = "%d" % g["saved_ns"] if g["saved_max_ns"] == g["saved_ns"] else \
            "%d-%d" % (g["saved_ns"], g["saved_max_ns"])
        fs = [d["findings"][i] for i in g["findings"]]
        print("group %s %s saves=%s" % (fs[0]["variable"] or "-",
                                        ",".join(sorted(f["kind"] for f in fs)), saves))
    t = d["timeline"]
    if t is None:
        print("timeline: none")
    else:
        rest = sum(l["count"] for l in t["rest"])
        print("timeline: ops=%d events=%d folded=%d rest=%d kept=%s" % (
            len(t["ops"]), t["events"], t["folded"], rest, "all" if t["full"] else "bounded"))
        for i, f in enumerate(d["findings"]):
            ops = sum(1 for o in t["ops"] if i in o[8] and o[1] != "delete")
            if ops != f["shown"] and not t["folded"]:
                print("error: finding %d shows %d operations, %d are linked" % (i, f["shown"], ops))
                return 1
    for m in d.get("device_memory") or []:
        print("memory device %d peak=%d at=%d saved=%d holders=%s series=%d" % (
            m["device"], m["peak_bytes"], m["peak_time_ns"], m["peak_saved_bytes"],
            ",".join("%s:%d" % (h["variable"] or "-", h["bytes"]) for h in m["holders"]),
            len(m["series"])))
        if any(m["series"][k][0] < m["series"][k - 1][0] for k in range(1, len(m["series"]))) \
                or max([p[1] for p in m["series"]] or [0]) != m["peak_bytes"]:
            print("error: the memory series of device %d is out of order or misses the peak"
                  % m["device"])
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
