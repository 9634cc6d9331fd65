#!/bin/sh
# Closes every round whose deadline has passed, commits and pushes the result, builds the site and
# copies it to DEST with rsync. Run it in the game's folder (the one holding Content/), from cron:
#
#   7 * * * *  cd /srv/tales && flock -n .publish.lock ./publish.sh >> publish.log 2>&1
#
# (flock keeps a slow run from overlapping the next.) Settings, from the environment:
#   DEST      where the site goes: rsync's destination, like www@host:/var/www/tales/ (required)
#   PROLIFIC  the prolific to run (default: prolific, from PATH)
#   REMOTE    the git remote to pull merged pull requests from and push closings to (default:
#             origin); empty to use no remote
#   BRANCH    the branch to pull and push (default: the current one)
set -eu

: "${DEST:?set DEST to where the site goes, like www@host:/var/www/tales/}"
PROLIFIC=${PROLIFIC:-prolific}
REMOTE=${REMOTE-origin}
BRANCH=${BRANCH:-$(git rev-parse --abbrev-ref HEAD)}

# Merged snippets and ballots first, so the closing counts them.
if [ -n "$REMOTE" ]; then git pull --ff-only --quiet "$REMOTE" "$BRANCH"; fi

"$PROLIFIC" close --due --commit
# A content error stops here, before anything is published.
"$PROLIFIC" check
"$PROLIFIC" build --quiet --out Site

if [ -n "$REMOTE" ]; then git push --quiet "$REMOTE" "HEAD:$BRANCH"; fi
# --delete: pages that are gone from the site (a hidden snippet's) go from the server too.
rsync -a --delete Site/ "$DEST"
