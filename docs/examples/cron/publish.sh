#!/bin/sh
# Closes every round whose deadline has passed, commits and pushes the result, builds the site and
# copies it to DEST with rsync. Run it in the game's folder (the one holding Content/), from cron,
# with lines like these in the crontab (crontab -e):
#
#   DEST=www@host:/var/www/tales/
#   PROLIFIC=/usr/local/bin/prolific
#   7 * * * *  cd /srv/tales && flock -n .publish.lock ./publish.sh >> publish.log 2>&1
#
# cron's PATH is short (/usr/bin:/bin): name prolific by its full path, as above, or set PATH there.
# flock keeps a slow run from overlapping the next. The clone needs an identity for the closing
# commits, with an email listed under `maintainers` in Content/prolific.yml:
#
#   git config user.name "prolific" && git config user.email prolific@tales.example.org
#
# Settings, from the environment:
#   DEST      where the site goes: rsync's destination, like www@host:/var/www/tales/ (required)
#   PROLIFIC  the prolific to run (default: prolific, from PATH)
#   REMOTE    the git remote to pull merged pull requests from and push closings to (default:
#             origin); empty to use no remote
#   BRANCH    the branch to pull and push (default: the current one)
#
# If the push fails (a pull request merged between the pull and the push, twice in a row, or the
# remote is down), the site is copied all the same and the script exits with 1; the next run rebases
# the closing commits on what was merged and pushes them.
set -eu

: "${DEST:?set DEST to where the site goes, like www@host:/var/www/tales/}"
PROLIFIC=${PROLIFIC:-prolific}
REMOTE=${REMOTE-origin}
BRANCH=${BRANCH:-$(git rev-parse --abbrev-ref HEAD)}

# What was merged on the remote, with this clone's own commits (closings not pushed yet) on top.
# A rebase that stops on a conflict is undone, leaving the clone as it was.
pull() {
    git pull --rebase --quiet "$REMOTE" "$BRANCH" && return 0
    git rebase --abort 2>/dev/null || true
    return 1
}

push() {
    pull && git push --quiet "$REMOTE" "HEAD:$BRANCH"
}

# Merged snippets and ballots first, so the closing counts them.
if [ -n "$REMOTE" ] && ! pull; then
    echo "publish.sh: could not pull $BRANCH from $REMOTE; nothing was closed or published" >&2
    exit 1
fi

"$PROLIFIC" close --due --commit
# A content error stops here, before anything is published.
"$PROLIFIC" check
"$PROLIFIC" build --quiet --out Site

# A pull request merged since the pull goes first, the closing commits on top of it; once more if
# another was merged in between.
pushed=yes
if [ -n "$REMOTE" ]; then push || push || pushed=no; fi

# --delete: pages that are gone from the site (a hidden snippet's) go from the server too.
rsync -a --delete Site/ "$DEST"

if [ "$pushed" = no ]; then
    echo "publish.sh: the site is published, but the closing commits were not pushed to $REMOTE $BRANCH;" \
        "the next run tries again ('git log $REMOTE/$BRANCH..HEAD' lists them)" >&2
    exit 1
fi
