#!/usr/bin/env python3
# ===- advice_reasons_check.py - every advice says why it has no rewrite ---===#
#
# Usage: advice_reasons_check.py OMPDP REPORT.json
# (OMPDP renders the report as text, SARIF and HTML with `ompdp report`).
#
# Every finding whose verdict is advice and that has no rewrite must say
# why ompdp made none: its suggestion ends with "No rewrite: <why>." or
# says "ompdp does not ..." / "ompdp did not ..." itself. The reason must be
# specific: a reason that names no fact ("ompdp has no rule for this case",
# "not supported", a few words) is as bad as none. And the words must be
# the same in every format: the text report, a SARIF result's message and
# the HTML page's data each carry the JSON's suggestion.
#
# Prints one line per advice finding ("advice KIND: <why>") and "ok N", or
# "FAIL ..." lines and exits 1.
#
# advice_reasons_check.py --vague IN.json OUT.json writes a copy of a report
# whose first advice finding that ends with "No rewrite: ..." has lost it
# and whose second has a generic one instead, for the negative case.
#
# ===----------------------------------------------------------------------===#
import json
import re
import subprocess
import sys

# Words that explain nothing: ompdp's own last resort when no fact explains
# the missing rewrite (analysis/verdict.c), and the usual vague ones.
GENERIC = [
    r"no rule for this case",
    r"\bnot supported\b",
    r"\bunsupported\b",
    r"\bfor (some|other) reasons?\b",
    r"^unknown\b",
    r"^(it )?cannot be rewritten\b",
    r"^no rewrite (applies|is possible)\b",
    r"^ompdp (cannot|could not)( rewrite (it|this))?$",
]
MIN_WORDS = 8


def reason_of(s):
    m = re.search(r"No rewrite: (.*)\.$", s)
    if m:
        return m.group(1)
    # Words that say it themselves: the sentence that holds them.
    for sentence in re.split(r"(?<=\.) ", s):
        if re.search(r"\bompdp (does|did) not\b", sentence):
            return sentence.strip()
    return None


def generic(why):
    if len(why.split()) < MIN_WORDS:
        return True
    return any(re.search(p, why) for p in GENERIC)


def render(ompdp, path, fmt):
    return subprocess.run([ompdp, "report", "--format=" + fmt, path], check=True,
                          capture_output=True, text=True).stdout


def main():
    ompdp, path = sys.argv[1], sys.argv[2]
    rep = json.load(open(path))
    txt = render(ompdp, path, "text")
    sarif = json.loads(render(ompdp, path, "sarif"))
    messages = [res["message"]["text"] for run in sarif["runs"] for res in run.get("results", [])]
    m = re.search(r'<script id="ompdp-data" type="application/json">(.*?)</script>',
                  render(ompdp, path, "html"), re.S)
    page = json.loads(m.group(1))["findings"] if m else None
    page_words = {f.get("suggestion") for f in page} if page is not None else set()
    fails = []
    n = 0
    for f in rep["findings"]:
        if f.get("verdict") != "advice" or f.get("rewrites"):
            continue
        n += 1
        s = f.get("suggestion") or ""
        where = "%s:%s %s %s" % (f.get("file", "?").split("/")[-1], f.get("line", "?"), f["kind"],
                                 f.get("variable") or f.get("call") or "")
        why = reason_of(s)
        if not why:
            fails.append("FAIL %s: advice without a reason: %s" % (where, s))
            continue
        if generic(why):
            fails.append("FAIL %s: a generic reason: %s" % (where, why))
        if s not in txt:
            fails.append("FAIL %s: the text report does not say: %s" % (where, s))
        if not any(s in m for m in messages):
            fails.append("FAIL %s: no SARIF result says: %s" % (where, s))
        if page is None or s not in page_words:
            fails.append("FAIL %s: the HTML page does not say: %s" % (where, s))
        print("advice %s: %s" % (f["kind"], why))
    for x in fails:
        print(x)
    if fails:
        return 1
    print("ok %d" % n)
    return 0


def vague(src, dst):
    rep = json.load(open(src))
    advice = [f for f in rep["findings"] if f.get("verdict") == "advice" and not f.get("rewrites")
              and "No rewrite: " in f.get("suggestion", "")]
    cut = lambda s: re.sub(r"(\. )?No rewrite: .*$", "", s)
    advice[0]["suggestion"] = cut(advice[0]["suggestion"])
    advice[1]["suggestion"] = cut(advice[1]["suggestion"]) + ". No rewrite: ompdp has no rule for this case."
    json.dump(rep, open(dst, "w"))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--vague":
        sys.exit(vague(sys.argv[2], sys.argv[3]))
    sys.exit(main())
