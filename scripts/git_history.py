#!/usr/bin/env python3
"""Gives a content directory the git history a real game would have: `make bench` times Prolific
on it, because `build`, `close` and `check` read who committed each profile and ballot.

    scripts/git_history.py CONTENT REPOSITORY

Makes REPOSITORY a git repository whose `Content/` is a copy of CONTENT, committed one file a
commit, as players and maintainers add them: prolific.yml and each round.md by the maintainer,
a profile by its player when they joined, a project by its owner when it was created, a snippet
by its author when submitted, a ballot by its voter when cast (each round.md at its closing, or
its opening while open). Every time is the file's own, so the evidence agrees with what the
content records and the recorded tallies stand. Written with `git fast-import` (the large
benchmark: about 310,000 commits), then the index is filled so that `git add`, `commit` and
`merge` work in it.
"""
import os
import re
import shutil
import subprocess
import sys
from datetime import datetime, timezone

MAINTAINER = "keeper@example.org"
FIELD = re.compile(rb"^(joined|created|submitted|cast|closed|opened|voter|author|owner): *'?([^'\n]*)'?$", re.M)


def seconds(text):
    return int(datetime.strptime(text.decode(), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())


def commits(content):
    """(time, order, path, identity) of every file, the maintainer's prolific.yml first."""
    found = []
    for folder, dirs, files in os.walk(content):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, content)
            with open(path, "rb") as f:
                head = f.read(4096)
            fields = dict(FIELD.findall(head))
            parts = relative.split(os.sep)
            if relative == "prolific.yml":
                found.append((0, 0, relative, MAINTAINER))
            elif parts[0] == "users" and b"joined" in fields:
                found.append((seconds(fields[b"joined"]), 1, relative, f"{name[:-3]}@example.org"))
            elif name == "project.md" and b"created" in fields:
                found.append((seconds(fields[b"created"]), 2, relative, f"{fields[b'owner'].decode()}@example.org"))
            elif "submissions" in parts and b"submitted" in fields:
                found.append((seconds(fields[b"submitted"]), 3, relative, f"{fields[b'author'].decode()}@example.org"))
            elif "votes" in parts and b"cast" in fields:
                found.append((seconds(fields[b"cast"]), 4, relative, f"{fields[b'voter'].decode()}@example.org"))
            elif name == "round.md":
                at = fields.get(b"closed") or fields.get(b"opened")
                found.append((seconds(at) if at else 0, 5, relative, MAINTAINER))
            else:
                found.append((0, 6, relative, MAINTAINER))
    found.sort()
    return found


def stream(content, found, out):
    for mark, (time, _, relative, identity) in enumerate(found, start=1):
        with open(os.path.join(content, relative), "rb") as f:
            data = f.read()
        message = f"Add {relative}\n".encode()
        out.write(b"commit refs/heads/main\nmark :%d\n" % mark)
        for role in (b"author", b"committer"):
            out.write(b"%s %s <%s> %d +0000\n" % (role, identity.encode(), identity.encode(), time))
        out.write(b"data %d\n%s" % (len(message), message))
        if mark > 1:
            out.write(b"from :%d\n" % (mark - 1))
        else:
            out.write(b"M 100644 inline .gitignore\ndata 19\nContent/.prolific/\n\n")
        out.write(b"M 100644 inline Content/%s\ndata %d\n%s\n" % (relative.encode(), len(data), data))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    content, repository = sys.argv[1], sys.argv[2]
    if os.path.exists(repository):
        sys.exit(f"git_history: {repository} exists")
    found = commits(content)
    os.makedirs(repository)
    git = ["git", "-C", repository, "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "--quiet"], check=True)
    importer = subprocess.Popen([*git, "fast-import", "--quiet"], stdin=subprocess.PIPE)
    stream(content, found, importer.stdin)
    importer.stdin.close()
    if importer.wait() != 0:
        sys.exit("git_history: git fast-import failed")
    subprocess.run(["cp", "-a", content, os.path.join(repository, "Content")], check=True)
    shutil.rmtree(os.path.join(repository, "Content", ".prolific"), ignore_errors=True)
    with open(os.path.join(repository, ".gitignore"), "w") as f:
        f.write("Content/.prolific/\n")
    # The index, so that porcelain commands see a clean tree.
    subprocess.run([*git, "read-tree", "HEAD"], check=True)
    subprocess.run([*git, "update-index", "-q", "--refresh"], check=False)
    print(f"git_history: {len(found)} commits in {repository}", file=sys.stderr)


if __name__ == "__main__":
    main()
