#!/usr/bin/env python3
"""`make bench`: times Prolific's build and commands on synthetic content, small → large.

    scripts/bench.py [--sizes small,medium,large] [--runs 3] [--smoke] [--out docs/performance.md]

Content comes from `prolific-generate` (deterministic, cached in .build/bench/<size>/Content).
Beside the builds it times the floor, scripts/floor.c: every file read and every body rendered
with libcmark on every core, as plainly as C allows (issue 7 sets the target "within 3× of it").
Every timing is a fresh process measured by /usr/bin/time: wall and CPU seconds and peak memory,
the median of --runs runs. Each run times the floor, a full build, a no-op and the rebuilds after
a ballot and after a `close` in turn, and the lines under the table give each rebuild as a share of
its own run's full build. Commands that change content run on a fresh copy each time. With
--out, the table replaces the block between the BENCH markers of that file.
"""
import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOW = "2026-11-22T12:00:00Z"
WORK = os.path.join(ROOT, ".build", "bench")


def binary(name):
    return os.path.join(ROOT, os.environ.get("SCRATCH", ".build"), "release", name)


def timed(args, cwd=None):
    """Runs args; returns (wall s, cpu s, peak MB).

    Dirty pages left by the harness (a 1.5 GB copy of the content, the previous build's site)
    are written out first, so the kernel's writeback doesn't run during the timing: a `vote`
    right after copying the large content took 50–60 ms instead of 20–30.
    """
    os.sync()
    out = subprocess.run(
        ["/usr/bin/time", "-f", "BENCH %e %U %S %M", *args], cwd=cwd, capture_output=True, text=True)
    match = re.search(r"BENCH ([\d.]+) ([\d.]+) ([\d.]+) (\d+)", out.stderr)
    if out.returncode != 0 or not match:
        sys.exit(f"bench: {' '.join(args)} failed ({out.returncode}):\n{out.stderr[-2000:]}")
    wall, user, system, kb = match.groups()
    return float(wall), float(user) + float(system), int(kb) / 1024


def cpu_ticks():
    """(steal, total) jiffies of all CPUs from /proc/stat, or None where there is none.

    On a virtual machine the host may run other guests on our cores ("steal"): wall times then
    grow while CPU times do not. The table says how much was stolen during the run.
    """
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal (guest time is already inside user).
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def steal_share(start, end):
    if not start or not end or end[1] <= start[1]:
        return None
    return (end[0] - start[0]) / (end[1] - start[1])


# What the generator writes, named: content generated before a change here is generated again.
# 2: closed rounds sealed, as `close` seals them.
GENERATED = "3"


def generate(size):
    content = os.path.join(WORK, size, "Content")
    marker = os.path.join(WORK, size, "generated")
    current = False
    if os.path.exists(marker):
        with open(marker) as f:
            current = f.read().strip() == GENERATED
    if not current or not os.path.exists(os.path.join(content, "prolific.yml")):
        shutil.rmtree(os.path.join(WORK, size), ignore_errors=True)
        os.makedirs(os.path.join(WORK, size))
        started = time.time()
        subprocess.run([binary("prolific-generate"), size, content], check=True)
        with open(marker, "w") as f:
            f.write(GENERATED + "\n")
        print(f"bench: generated {size} in {time.time() - started:.1f} s", file=sys.stderr)
    return content


def discard(path):
    """Moves `path` into the trash, emptied when all timings are done.

    Deleting tens of thousands of files just before a timed build would time the file system:
    ext4 without a journal (as on this machine) skips inodes freed in the last minutes when it
    allocates new ones, reading the inode tables to find them, which tripled a large build's
    system time. Real builds are minutes apart; `prolific build` itself only deletes the
    previous site after the new one is in place.
    """
    if os.path.lexists(path):
        trash = os.path.join(WORK, "trash")
        os.makedirs(trash, exist_ok=True)
        # A name no earlier run used: a trash left half-emptied (by an interrupted run, or one
        # still emptying it) has gaps, so counting its entries could name one that exists.
        moved = os.path.join(trash, f"{time.time_ns()}-{os.getpid()}-{os.path.basename(path)}")
        os.rename(path, moved)
        DISCARDED.append(moved)


# What this run put in the trash: only that is emptied at its end, so a smoke run (`make test`)
# doesn't spend minutes deleting what a full `make bench` left behind (tens of GB).
DISCARDED = []


def fresh_copy(content, size):
    """A scratch copy of the content (and of its site, when built), for commands that change it."""
    scratch = os.path.join(WORK, size, "scratch")
    discard(scratch)
    os.makedirs(scratch)
    subprocess.run(["cp", "-a", content, os.path.join(scratch, "Content")], check=True)
    return os.path.join(scratch, "Content")


def open_round(content):
    """(slug, round folder, snippet ids, voters, authors) of the first project's open round."""
    slug = "p0"
    rounds = os.path.join(content, "projects", slug, "rounds")
    last = sorted(os.listdir(rounds))[-1]
    folder = os.path.join(rounds, last)
    with open(os.path.join(folder, "round.md")) as f:
        if "closed:" in f.read():
            sys.exit("bench: the generated content has no open round in p0")
    ids = sorted(n[:-3] for n in os.listdir(os.path.join(folder, "submissions")))
    voters = {n[:-4] for n in os.listdir(os.path.join(folder, "votes"))} if os.path.isdir(os.path.join(folder, "votes")) else set()
    authors = {i.rsplit("-", 1)[0] for i in ids}
    return slug, ids, voters, authors


def outsider(content, *taken):
    used = set().union(*taken)
    for name in sorted(os.listdir(os.path.join(content, "users")), key=lambda n: (len(n), n)):
        handle = name[:-3]
        if name.endswith(".md") and handle not in used:
            return handle
    sys.exit("bench: no free user")


FLOOR = "floor: every file read, every body rendered (C, libcmark)"


def floor_binary():
    """scripts/floor.c compiled into .build/bench/floor: the floor of a full build, timed beside
    it (it reads every file and renders every body with libcmark on every core)."""
    source = os.path.join(ROOT, "scripts", "floor.c")
    target = os.path.join(WORK, "floor")
    if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(source):
        os.makedirs(WORK, exist_ok=True)
        # Swift's toolchain brings clang, where there is no cc.
        compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("clang") or "cc"
        # Built aside and renamed: an interrupted compile leaves no newer, broken binary.
        partial = target + ".partial"
        try:
            made = subprocess.run([compiler, "-O2", "-o", partial, source, "-lcmark", "-lpthread"],
                                  capture_output=True, text=True)
        except OSError as error:
            sys.exit(f"bench: cannot run {compiler} to build {source}: {error.strerror}")
        if made.returncode != 0:
            sys.exit(f"bench: {compiler} could not build {source}:\n{made.stderr[-2000:]}")
        os.replace(partial, target)
    return target


def warm_floor(floor, content):
    """Runs the floor once, untimed, so that it reads the content from memory as the builds do;
    exits with its message if it fails or finds no file (a wrong folder would time nothing)."""
    out = subprocess.run([floor, content], capture_output=True, text=True)
    files = out.stdout.split(" ", 1)[0]
    if out.returncode != 0 or not files.isdigit() or int(files) == 0:
        sys.exit(f"bench: {floor} {content} failed ({out.returncode}): {(out.stderr or out.stdout).strip()[-2000:]}")


def shares(timings):
    """The median, over the runs, of each rebuild's wall time divided by its run's full build's,
    and of the full build's divided by its run's floor: the targets' terms, each taken within a
    few minutes, where medians of all runs of each row can come from different hours. Only runs
    whose full build takes a second or more (and whose floor a tenth or more) count:
    `/usr/bin/time` counts in hundredths, which say little against less."""
    full = [t[0] for t in timings["full build"]]
    result = {}
    for name in ("no-op rebuild", "rebuild after one ballot", "rebuild after one closed round"):
        pairs = [(t[0], f) for t, f in zip(timings[name], full) if f >= 1.0]
        if pairs:
            result[name] = statistics.median(w / f for w, f in pairs)
    floors = [(f, t[0]) for f, t in zip(full, timings[FLOOR]) if t[0] >= 0.1]
    if floors:
        result[FLOOR] = statistics.median(f / t for f, t in floors)
    return result


# When the bench last freed many inodes (`settle`'s second build links the site's files over the
# spare's, freeing a site's worth), for `quiet_inodes`.
LAST_FREED = None
# ext4 without a journal passes over inodes freed in the last 60 s (`RECENTCY_MIN`, once `sync`
# has written their table) when it allocates new ones; a little more, to be sure.
INODE_QUIET = 65


# Off for the smoke run (`--smoke`), whose timings nobody reads: it would wait a minute in CI.
WAIT_FOR_INODES = True


def quiet_inodes():
    """Waits until no inode freed by the bench is recent enough to slow a full build down: the
    full builds of the second and later runs would come seconds after a `settle`, where the first
    comes after none, and the rebuilds' shares of them would look better than they are."""
    if WAIT_FOR_INODES and LAST_FREED is not None:
        time.sleep(max(0.0, INODE_QUIET - (time.monotonic() - LAST_FREED)))


def build(content, site):
    """A timed build of `content` into `site`."""
    return timed([binary("prolific"), "build", "--content", content, "--out", site, "--now", NOW, "--quiet"])


def settle(content, site):
    """Readies a copy for a timed rebuild, as a maintainer meets one in a series of builds: the
    copy is built twice first (untimed), so its build stamp, project cache and page fingerprints
    describe its own files (a copy has new inodes and times, so those of the original describe
    nothing), and the spare the timed build rewrites is the site the second build replaced,
    which shares every unchanged file with the site (after the first build it shares none: it
    is the copied site). Between the two, one profile gets a trailing newline, so the second
    build is a real one. Each build comes past the racy window: files changed less than 2 s
    before a build never count as unchanged."""
    users = os.path.join(content, "users")
    profile = os.path.join(users, min(n for n in os.listdir(users) if n.endswith(".md")))
    for step in range(2):
        if step == 1:
            with open(profile, "a") as f:
                f.write("\n")
        time.sleep(2.5)
        subprocess.run([binary("prolific"), "build", "--content", content, "--out", site, "--now", NOW, "--quiet"], check=True)
    global LAST_FREED
    LAST_FREED = time.monotonic()
    time.sleep(2.5)


def measure(size, runs):
    content = generate(size)
    prolific = binary("prolific")
    slug, ids, voters, authors = open_round(content)
    voter = outsider(content, voters, authors)
    author = outsider(content, authors)
    site = os.path.join(WORK, size, "Site")
    rows = {}

    def record(name, samples):
        rows[name] = tuple(statistics.median(s[i] for s in samples) for i in range(3))

    def after(change):
        """A timed rebuild after `change`, on a copy readied by `settle`."""
        copy = fresh_copy(content, size)
        copy_site = os.path.join(os.path.dirname(copy), "Site")
        subprocess.run(["cp", "-a", site, copy_site], check=True)
        settle(copy, copy_site)
        subprocess.run([prolific, *change, "--content", copy, "--now", NOW], check=True, capture_output=True)
        return build(copy, copy_site)

    # Run by run, each run's floor, full build, no-op and rebuilds one after the other, within a
    # few minutes: the machine's speed drifts within an hour (the floor took 1.07 s in place, then
    # 1.17 s in the bench that followed), and the shares the targets are stated in (`shares`)
    # compare each rebuild with its own run's full build.
    floor = floor_binary()
    timings = {name: [] for name in (FLOOR, "full build", "no-op rebuild", "rebuild after one ballot",
                                     "rebuild after one closed round")}
    for _ in range(runs):
        quiet_inodes()
        # Read once untimed, so that the floor and the full build read the content from memory
        # (the copies of the run before may have pushed it out of the page cache).
        warm_floor(floor, content)
        timings[FLOOR].append(timed([floor, content]))
        # From nothing, as a first build: no site, no spare to rewrite, no caches.
        discard(site)
        discard(os.path.join(os.path.dirname(site), ".Site.spare"))
        discard(os.path.join(content, ".prolific"))
        timings["full build"].append(build(content, site))
        # Past the racy window, as a maintainer's next build comes: files written less than 2 s
        # before a build are looked at again.
        time.sleep(2.5)
        timings["no-op rebuild"].append(build(content, site))
        timings["rebuild after one ballot"].append(after(["vote", slug, "--voter", voter, ids[0]]))
        timings["rebuild after one closed round"].append(after(["close", slug]))
    for name, samples in timings.items():
        record(name, samples)

    def command(args, stdin=None):
        result = []
        for _ in range(runs):
            copy = fresh_copy(content, size)
            full = [prolific, *args, "--content", copy, "--now", NOW]
            if stdin is not None:
                path = os.path.join(os.path.dirname(copy), "snippet.md")
                with open(path, "w") as f:
                    f.write(stdin)
                full += ["--file", path]
            result.append(timed(full))
        return result

    record("submit", command(["submit", slug, "--author", author], stdin="A benchmark snippet.\n"))
    record("vote", command(["vote", slug, "--voter", voter, ids[0]]))
    record("close", command(["close", slug]))
    # The hourly command of the example workflows: every round is open until 2100, so none is due.
    record("close --due, nothing due", command(["close", "--due"]))
    record("check", [timed([prolific, "check", "--content", content, "--now", NOW]) for _ in range(runs)])
    measure_git(size, runs, record, slug, ids, voters | authors | {voter, author})
    return rows, shares(timings)


def git_repository(size):
    """The content with a git history (scripts/git_history.py), made once per content."""
    repository = os.path.join(WORK, size, "git")
    if not os.path.exists(os.path.join(repository, "Content", "prolific.yml")):
        discard(repository)
        started = time.time()
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "git_history.py"), generate(size), repository], check=True)
        print(f"bench: made the git history of {size} in {time.time() - started:.1f} s", file=sys.stderr)
    return repository


def git(repository, *args, env=None, input=None):
    out = subprocess.run(
        ["git", "-C", repository, *args], check=True, capture_output=True, text=True, input=input,
        env={**os.environ, **(env or {})})
    return out.stdout.strip()


def commit_files(repository, paths, parents, who, when, message):
    """A commit of `parents`[0]'s tree with the files at `paths` as the work tree has them, made
    with plumbing and a scratch index: the large content's 310,000 files are never stat-ed."""
    index = os.path.join(repository, ".git", "bench-index")
    env = {
        "GIT_INDEX_FILE": index, "GIT_AUTHOR_NAME": who, "GIT_AUTHOR_EMAIL": f"{who}@example.org",
        "GIT_COMMITTER_NAME": who, "GIT_COMMITTER_EMAIL": f"{who}@example.org",
        "GIT_AUTHOR_DATE": f"{when} +0000", "GIT_COMMITTER_DATE": f"{when} +0000"}
    git(repository, "read-tree", parents[0], env=env)
    for path in paths:
        blob = git(repository, "hash-object", "-w", "--", path)
        git(repository, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=env)
    tree = git(repository, "write-tree", env=env)
    os.remove(index)
    return git(repository, "commit-tree", tree, *[a for p in parents for a in ("-p", p)], "-m", message, env=env)


def merge_pull_request(repository, slug, choice, player, other):
    """`player` votes in a pull request, `other` votes on main meanwhile, and a maintainer merges
    the pull request with a merge commit, as GitHub's merge button does."""
    # Cast an hour before --now (a round closes after its last ballot), committed a minute later.
    cast = "2026-11-22T11:00:00Z"
    when = 1_795_345_260
    def vote(voter):
        subprocess.run(
            [binary("prolific"), "vote", slug, "--voter", voter, choice, "--content", os.path.join(repository, "Content"),
             "--now", cast], check=True, capture_output=True)
        folder = os.path.join("Content", "projects", slug, "rounds")
        last = sorted(os.listdir(os.path.join(repository, folder)))[-1]
        return os.path.join(folder, last, "votes", f"{voter}.yml")
    main = git(repository, "rev-parse", "main")
    ballot = vote(player)
    branch = commit_files(repository, [ballot], [main], player, when, "A ballot")
    moved = commit_files(repository, [vote(other)], [main], other, when + 60, "Another ballot")
    merged = commit_files(repository, [ballot], [moved, branch], "keeper", when + 120, "Merge pull request")
    git(repository, "update-ref", "refs/heads/main", merged)


def measure_git(size, runs, record, slug, ids, taken):
    """The same content in a git repository, as a real game is: `build`, `close` and `check`
    read who committed each profile and ballot. A first build reads the whole history; after a
    pull request is merged, they read only the commits it added."""
    repository = git_repository(size)
    content = os.path.join(repository, "Content")
    prolific = binary("prolific")
    site = os.path.join(repository, "Site")
    samples = []
    for _ in range(runs):
        quiet_inodes()
        discard(site)
        discard(os.path.join(repository, ".Site.spare"))
        discard(os.path.join(content, ".prolific"))
        samples.append(build(content, site))
    record("git: full build (history read whole)", samples)

    players = sorted((n[:-3] for n in os.listdir(os.path.join(content, "users")) if n.endswith(".md")), key=lambda n: (len(n), n))
    free = [p for p in players if p not in taken]
    rebuilds, closes = [], []
    for run in range(runs):
        scratch = os.path.join(WORK, size, "git-scratch")
        discard(scratch)
        os.makedirs(scratch)
        copy = os.path.join(scratch, "repository")
        subprocess.run(["cp", "-a", repository, copy], check=True)
        copy_content, copy_site = os.path.join(copy, "Content"), os.path.join(copy, "Site")
        settle(copy_content, copy_site)
        merge_pull_request(copy, slug, ids[0], free[4 * run], free[4 * run + 1])
        time.sleep(2.5)
        rebuilds.append(build(copy_content, copy_site))
        merge_pull_request(copy, slug, ids[0], free[4 * run + 2], free[4 * run + 3])
        time.sleep(2.5)
        closes.append(timed([prolific, "close", slug, "--content", copy_content, "--now", NOW]))
    record("git: rebuild after a merged pull request", rebuilds)
    record("git: close after a merged pull request", closes)
    record("git: check", [timed([prolific, "check", "--content", content, "--now", NOW]) for _ in range(runs)])


def table(results, runs, stolen=None, shares=None):
    """The Markdown table of `results` (each size's rows), with the machine and, from `shares`
    (each size's `shares(...)`), the full build against its floor and the rebuilds' shares."""
    shares = shares or {}
    sizes = list(results)
    head = "| operation | " + " | ".join(f"{s}: wall s / CPU s / peak MB" for s in sizes) + " |"
    lines = [head, "| --- |" + " --- |" * len(sizes)]
    for op in results[sizes[0]]:
        cells = [f"{results[s][op][0]:.2f} / {results[s][op][1]:.2f} / {results[s][op][2]:.0f}" for s in sizes]
        lines.append(f"| {op} | " + " | ".join(cells) + " |")
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = re.search(r"model name\s*:\s*(.*)", f.read())
            cpu = model.group(1) if model else cpu
    except OSError:
        pass
    machine = f"{os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}; median of {runs} run(s), `--now {NOW}`"
    if stolen is not None:
        machine += f"; the hypervisor took {stolen * 100:.0f} % of the CPU time during the run (steal)"
    text = "\n".join(lines) + f"\n\nMachine: {machine}.\n"
    # Where `shares` found runs long enough to tell (none on small).
    ratios = [f"{s} {shares[s][FLOOR]:.1f}×" for s in sizes if FLOOR in shares.get(s, {})]
    if ratios:
        text += f"\nFull build against the floor of its run (wall, median of the runs): {', '.join(ratios)}.\n"
    names = {"no-op rebuild": "no-op", "rebuild after one ballot": "after a ballot",
             "rebuild after one closed round": "after a `close`"}
    for s in sizes:
        parts = [f"{label} {shares[s][name] * 100:.1f} %" for name, label in names.items() if name in shares.get(s, {})]
        if parts:
            text += f"\nRebuilds of {s} against the full build of their run (wall, median of the runs): {', '.join(parts)}.\n"
    return text


# Free disk a run needs: its copies and the sites it moves aside are deleted only once every
# timing is done. A large run that started with 55 GB free ran out in its `git:` rows.
NEEDED_GB = {"small": 1, "medium": 10, "large": 60}


def check_space(sizes):
    """Stops before timing anything when the disk can't hold the run (a full disk fails it midway,
    after many minutes, and leaves every program on the machine unable to write)."""
    needed = max(NEEDED_GB.get(size, NEEDED_GB["large"]) for size in sizes)
    os.makedirs(WORK, exist_ok=True)
    stats = os.statvfs(WORK)
    free = stats.f_bavail * stats.f_frsize / 1e9
    if free < needed:
        sys.exit(f"bench: {free:.0f} GB free in {WORK}; --sizes {','.join(sizes)} needs about {needed} GB "
                 "(copies and moved-aside sites are deleted only at the end)")


BENCH_BEGIN, BENCH_END = "<!-- BENCH:BEGIN -->", "<!-- BENCH:END -->"


def bench_block(path):
    """The text of `path`, which must hold a BENCH block for the table; else exits with one line
    saying why. Asked before anything is timed: a run takes half an hour, and failing at its end
    left its moved-aside copies (44 GB with large) undeleted."""
    try:
        with open(path) as f:
            doc = f.read()
    except OSError as error:
        sys.exit(f"bench: {path}: {error.strerror}")
    if BENCH_BEGIN not in doc or BENCH_END not in doc:
        sys.exit(f"bench: {path} has no {BENCH_BEGIN} … {BENCH_END} block")
    return doc


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="small,medium,large")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="small only, one run: for CI")
    parser.add_argument("--out", help="a Markdown file whose BENCH block gets the table")
    args = parser.parse_args()
    sizes = ["small"] if args.smoke else args.sizes.split(",")
    global WAIT_FOR_INODES
    WAIT_FOR_INODES = not args.smoke
    runs = 1 if args.smoke else args.runs
    if args.out:
        bench_block(args.out)
    check_space(sizes)
    try:
        start = cpu_ticks()
        measured = {size: measure(size, runs) for size in sizes}
        results = {size: rows for size, (rows, _) in measured.items()}
        text = table(results, runs, steal_share(start, cpu_ticks()), {size: s for size, (_, s) in measured.items()})
        print(text)
        if args.out:
            before, rest = bench_block(args.out).split(BENCH_BEGIN, 1)
            _, after = rest.split(BENCH_END, 1)
            with open(args.out, "w") as f:
                f.write(before + BENCH_BEGIN + "\n" + text + BENCH_END + after)
    finally:
        # Last, whatever happened: removing millions of files takes minutes. The last scratch
        # copies go too: left in place, the next run's space check counted them as used (5 GB
        # with large) until that run moved them aside and deleted them at its end.
        for size in sizes:
            for leftover in ("scratch", "git-scratch"):
                discard(os.path.join(WORK, size, leftover))
        for moved in DISCARDED:
            shutil.rmtree(moved, ignore_errors=True)


if __name__ == "__main__":
    main()
