#!/usr/bin/env python3
"""Times Hugo 0.111 building a site equivalent to Prolific's, from a Prolific content directory.

    python3 scripts/hugo_reference.py CONTENT_DIR WORK_DIR [--runs N]

Why: the performance issue quotes Hugo 0.111 as a reference ("measured on this machine class,
2 cores": medium 7.2 s and 0.97 GB, large 84 s and 4.3 GB, 27,000 pages, 152 MB). This script
measures the same on this machine and on our own bench corpus, so Prolific's figures can be set
beside a Hugo build of exactly the same content rather than beside figures taken elsewhere.

"Equivalent" means: the same Markdown rendered, one page per project, per round and per user, a
home page and a users page, with the plainest layouts that link them together.

  content/_index.md                         the home page: the site's title; lists every project
  content/projects/<slug>/_index.md         a project: the starter text, then the winning snippet
                                            of each closed round in order (the story so far);
                                            lists its rounds
  content/projects/<slug>/rounds/NNNN.md    a round: its note (round.md's body, if any), then
                                            every snippet not hidden, each as `## <id>` and its body
  content/users/_index.md                   the users page: lists every user
  content/users/<handle>.md                 a user: name, bio, and a `snippets` count

Bodies are copied verbatim; only `title`, `name`, `winner`, `closed`, `visibility` and hidden
ids are read from front matter, by line matching (no PyYAML). Draft projects are left out, as
Prolific leaves them out; ballots are not read. Hugo's RSS and sitemap stay at their defaults
(so every section also gets an index.xml), taxonomies are disabled, raw HTML is not rendered.

Each run is a full build from nothing: `public`, `resources` and the Hugo cache (and, before the
first, the last site source) are moved out of the way first (into WORK_DIR/trash, emptied after
the last run or a failure: deleting tens of thousands of
files just before a build would time the file system's inode reuse, see scripts/bench.py), and
dirty pages are written out (sync). Each build is timed by /usr/bin/time: wall, user + system
CPU, peak RSS. Sizes are in MB of 2^20 bytes (as `du -h` and bench.py count); the output's
size in the summary is the sum of its files' sizes (du's apparent size is printed beside it).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

from bench import cpu_ticks, steal_share, timed  # scripts/bench.py, beside this file

HUGO = "hugo"

BASEOF = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{{ .Title }} · {{ .Site.Title }}</title></head>
<body>
<header><a href="{{ "/" | relURL }}">{{ .Site.Title }}</a> · <a href="{{ "/users/" | relURL }}">Users</a></header>
<main>{{ block "main" . }}{{ end }}</main>
</body>
</html>
"""

LIST = """{{ define "main" }}
<h1>{{ .Title }}</h1>
{{ .Content }}
<ul>
{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>
{{ end }}</ul>
{{ end }}
"""

SINGLE = """{{ define "main" }}
<h1>{{ .Title }}</h1>
{{ with .Params.snippets }}<p>{{ . }} snippets</p>{{ end }}
{{ .Content }}
{{ end }}
"""

INDEX = """{{ define "main" }}
<h1>{{ .Site.Title }}</h1>
<ul>
{{ with .Site.GetPage "/projects" }}{{ range .Sections }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>
{{ end }}{{ end }}</ul>
{{ end }}
"""


def fail(message):
    sys.exit(f"hugo_reference: {message}")


# --- Reading Prolific content -------------------------------------------------------------------

def read_markdown(path):
    """(front matter lines, body) of a Markdown file with `---` front matter.

    A byte-order mark and CRLF line ends are accepted, as Prolific accepts them; the body is
    returned with LF line ends, otherwise verbatim.
    """
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        fail(f"{path}: no front matter (the first line is not ---)")
    for i in range(1, len(lines)):
        if lines[i].rstrip() == "---":
            return lines[1:i], "\n".join(lines[i + 1:]).lstrip("\n")
    fail(f"{path}: front matter is not closed by a --- line")


def scalar(value):
    """A YAML scalar as text: plain, 'single-quoted' or "double-quoted" (common escapes)."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        try:
            return json.loads(value)
        except ValueError:
            return value[1:-1]
    return re.sub(r"\s+#.*$", "", value)


def key(front, name):
    """The value of a top-level `name:` key, or None."""
    prefix = name + ":"
    for line in front:
        if line.startswith(prefix):
            return scalar(line[len(prefix):])
    return None


def hidden_ids(front):
    """Ids of the snippets listed under round.md's `hidden:` (items `- id: <id>` or `id: <id>`)."""
    ids, inside = set(), False
    for line in front:
        if line.startswith("hidden:"):
            inside = True
            continue
        if inside:
            if line and not line[0].isspace() and not line.startswith("-"):
                break
            match = re.match(r"^[\s-]*id:\s*(.+)$", line)
            if match:
                ids.add(scalar(match.group(1)))
    return ids


def visible_names(folder, suffix):
    """Sorted names ending in `suffix` in `folder` (none if it doesn't exist), dot-files left out."""
    if not os.path.isdir(folder):
        return []
    return sorted(n for n in os.listdir(folder) if n.endswith(suffix) and not n.startswith("."))


def snippet_order(snippet_id):
    """Snippets in order of submission: the id ends in the second it was submitted."""
    author, _, stamp = snippet_id.rpartition("-")
    return stamp, author


def read_content(content):
    """The corpus: site title, users and projects, with only what the Hugo site needs."""
    settings = os.path.join(content, "prolific.yml")
    if not os.path.isfile(settings):
        fail(f"{content} is not a Prolific content directory (it has no prolific.yml)")
    with open(settings, encoding="utf-8") as f:
        title = key(f.read().lstrip("\ufeff").replace("\r\n", "\n").split("\n"), "title") or "Prolific"

    users = []
    for name in visible_names(os.path.join(content, "users"), ".md"):
        front, bio = read_markdown(os.path.join(content, "users", name))
        handle = name[:-3]
        users.append({"handle": handle, "name": key(front, "name") or handle, "bio": bio})

    projects = []
    projects_dir = os.path.join(content, "projects")
    for slug in sorted(os.listdir(projects_dir)) if os.path.isdir(projects_dir) else []:
        path = os.path.join(projects_dir, slug, "project.md")
        if slug.startswith(".") or not os.path.isfile(path):
            continue
        front, starter = read_markdown(path)
        if key(front, "visibility") == "draft":
            continue
        rounds = []
        rounds_dir = os.path.join(projects_dir, slug, "rounds")
        for number in visible_names(rounds_dir, ""):
            folder = os.path.join(rounds_dir, number)
            if not number.isdigit() or not os.path.isfile(os.path.join(folder, "round.md")):
                continue
            round_front, note = read_markdown(os.path.join(folder, "round.md"))
            hidden = hidden_ids(round_front)
            snippets = []
            for name in visible_names(os.path.join(folder, "submissions"), ".md"):
                snippet_id = name[:-3]
                _, body = read_markdown(os.path.join(folder, "submissions", name))
                snippets.append({"id": snippet_id, "body": body, "hidden": snippet_id in hidden})
            snippets.sort(key=lambda s: snippet_order(s["id"]))
            closed = key(round_front, "closed") is not None
            rounds.append({"number": int(number), "folder": number, "note": note,
                           "winner": key(round_front, "winner") if closed else None,
                           "snippets": snippets})
        projects.append({"slug": slug, "title": key(front, "title") or slug,
                         "starter": starter, "rounds": rounds})
    return title, users, projects


# --- Writing the Hugo site ----------------------------------------------------------------------

def yaml_text(value):
    """A YAML double-quoted scalar (JSON's escapes are a subset of YAML's)."""
    return json.dumps(value, ensure_ascii=False)


def write_page(path, front, body):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = ["---"] + [f"{k}: {v}" for k, v in front.items()] + ["---", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + body.rstrip("\n") + "\n")


def write_site(src, trash, title, users, projects):
    """Writes the Hugo site source into `src` (removed first). Returns the count of pages."""
    move_aside(src, trash)  # not deleted: that would time the file system's inode reuse
    os.makedirs(src)
    with open(os.path.join(src, "hugo.toml"), "w", encoding="utf-8") as f:
        f.write(f'baseURL = "https://example.org/"\n'
                f"title = {yaml_text(title)}\n"
                f'disableKinds = ["taxonomy", "term"]\n\n'
                f"[markup.goldmark.renderer]\n  unsafe = false\n")
    for name, text in {"_default/baseof.html": BASEOF, "_default/list.html": LIST,
                       "_default/single.html": SINGLE, "index.html": INDEX}.items():
        path = os.path.join(src, "layouts", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    content = os.path.join(src, "content")
    write_page(os.path.join(content, "_index.md"), {"title": yaml_text(title)}, "")
    write_page(os.path.join(content, "projects", "_index.md"), {"title": '"Projects"'}, "")
    write_page(os.path.join(content, "users", "_index.md"), {"title": '"Users"'}, "")
    pages = 3

    snippet_counts = {}
    for project in projects:
        folder = os.path.join(content, "projects", project["slug"])
        story = [project["starter"].rstrip("\n")]
        for round_ in project["rounds"]:
            by_id = {s["id"]: s for s in round_["snippets"]}
            if round_["winner"] in by_id:
                story.append(by_id[round_["winner"]]["body"].rstrip("\n"))
            parts = [round_["note"].rstrip("\n")] if round_["note"].strip() else []
            for snippet in round_["snippets"]:
                author = snippet["id"].rpartition("-")[0]
                snippet_counts[author] = snippet_counts.get(author, 0) + 1
                if not snippet["hidden"]:
                    parts.append(f"## {snippet['id']}\n\n{snippet['body'].rstrip(chr(10))}")
            write_page(os.path.join(folder, "rounds", round_["folder"] + ".md"),
                       {"title": yaml_text(f"Round {round_['number']} of {project['title']}"),
                        "weight": round_["number"]},
                       "\n\n".join(parts))
            pages += 1
        write_page(os.path.join(folder, "_index.md"), {"title": yaml_text(project["title"])},
                   "\n\n".join(story))
        pages += 1

    for user in users:
        write_page(os.path.join(content, "users", user["handle"] + ".md"),
                   {"title": yaml_text(user["name"]),
                    "snippets": snippet_counts.get(user["handle"], 0)},
                   user["bio"])
        pages += 1
    return pages


# --- Timing -------------------------------------------------------------------------------------

def load_average():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def move_aside(path, trash):
    if os.path.lexists(path):
        os.makedirs(trash, exist_ok=True)
        os.rename(path, os.path.join(trash, f"{time.time_ns()}-{os.path.basename(path)}"))


def build_once(src, public, cache, trash):
    """One full Hugo build from nothing: (wall s, CPU s, peak MB)."""
    move_aside(public, trash)
    move_aside(os.path.join(src, "resources"), trash)
    move_aside(cache, trash)
    os.makedirs(cache)
    # bench.py's timing: dirty pages written out first, then /usr/bin/time; exits on a failure.
    return timed([HUGO, "--source", src, "--destination", public, "--cacheDir", cache, "--quiet"])


def output_counts(public):
    """(HTML files, MB in files, MB by `du --apparent-size`) of the built site.

    The files' bytes are what copying the site moves; du's apparent size also counts each
    directory's own size (4 KiB on ext4, one directory per page here), about 100 MB more at large.
    """
    html, files = 0, 0
    for folder, _, names in os.walk(public):
        for name in names:
            html += name.endswith(".html")
            files += os.lstat(os.path.join(folder, name)).st_size
    du = subprocess.run(["du", "-s", "--apparent-size", "--block-size=1", public],
                        capture_output=True, text=True, check=True).stdout.split()[0]
    return html, files / 2**20, int(du) / 2**20


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("content", metavar="CONTENT_DIR")
    parser.add_argument("work", metavar="WORK_DIR")
    parser.add_argument("--runs", type=int, default=3, help="timed builds (default 3)")
    args = parser.parse_args()
    if args.runs < 1:
        fail("--runs must be at least 1")

    if shutil.which(HUGO) is None:
        fail("no `hugo` binary on PATH; install Hugo 0.111.3 with `apt-get install -y hugo` "
             "(Debian bookworm's package)")
    if not os.path.exists("/usr/bin/time"):
        fail("no /usr/bin/time; install it with `apt-get install -y time`")
    version = subprocess.run([HUGO, "version"], capture_output=True, text=True).stdout.strip()
    short = re.search(r"v(\d+\.\d+\.\d+)", version)
    short = short.group(1) if short else version
    if not short.startswith("0.111."):
        print(f"warning: this is Hugo {short}, not 0.111 as in the issue's reference", file=sys.stderr)

    content = os.path.abspath(args.content)
    work = os.path.abspath(args.work)
    src, public = os.path.join(work, "src"), os.path.join(work, "public")
    cache, trash = os.path.join(work, "hugo-cache"), os.path.join(work, "trash")

    try:
        measure(args, version, short, content, src, public, cache, trash)
    finally:
        shutil.rmtree(trash, ignore_errors=True)


def measure(args, version, short, content, src, public, cache, trash):
    """Writes the Hugo site, times `args.runs` builds and prints the figures."""
    started = time.time()
    title, users, projects = read_content(content)
    pages = write_site(src, trash, title, users, projects)
    rounds = sum(len(p["rounds"]) for p in projects)
    snippets = sum(len(r["snippets"]) for p in projects for r in p["rounds"])
    print(f"{version}")
    print(f"corpus {content}: {len(projects)} projects, {rounds} rounds, {snippets} snippets, "
          f"{len(users)} users")
    print(f"site source {src}: {pages} pages written in {time.time() - started:.1f} s")

    results = []
    before_load, before_steal = load_average(), cpu_ticks()
    for run in range(args.runs):
        wall, cpu, peak = build_once(src, public, cache, trash)
        results.append((wall, cpu, peak))
        print(f"run {run + 1}: wall {wall:.2f} s, CPU {cpu:.2f} s, peak {peak:.0f} MB", flush=True)
    share = steal_share(before_steal, cpu_ticks())
    steal = "" if share is None else f", CPU stolen by the host {share:.1%}"
    print(f"load average before {before_load}, after {load_average()}{steal}")

    html, size, du_size = output_counts(public)
    wall = statistics.median(r[0] for r in results)
    cpu = statistics.median(r[1] for r in results)
    peak = statistics.median(r[2] for r in results)
    if html < pages:
        print(f"warning: {html} HTML files for {pages} pages: some pages were not rendered")
    print(f"output {public}: {html} HTML files, {size:.1f} MB in files "
          f"({du_size:.1f} MB by du --apparent-size, which counts directories too)")
    print(f"hugo {short} {args.content}: wall {wall:.2f} s (median of {args.runs}), "
          f"CPU {cpu:.2f} s, peak {peak:.0f} MB, {html} pages, {size:.1f} MB")


if __name__ == "__main__":
    main()
