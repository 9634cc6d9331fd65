#!/usr/bin/env bash
# The libFuzzer harnesses of Sources/Fuzz/ (docs/reliability.md).
#
#   scripts/fuzz.sh run RUNS [TARGET...]  build, then run each target for RUNS executions; prints
#                                         executions, exec/s, time and coverage; exits 1 on a finding
#   scripts/fuzz.sh corpus [TARGET...]    rebuild the seed corpora in Tests/Fuzz/Corpus/ from Content/
#                                         and Tests/Fixtures/, minimized with -merge=1
#
# FUZZ_SCRATCH (default .build-fuzz) holds the build, the corpus each target grows (libFuzzer writes
# new inputs into its first corpus folder; the repo's is second, so it is only read) and any
# crash-, timeout-, oom- or leak- input under fuzz/artifacts/. Tests/Fuzz/<target>.dict, if there,
# is the target's libFuzzer dictionary.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SCRATCH=${FUZZ_SCRATCH:-.build-fuzz}
REPO_CORPUS=Tests/Fuzz/Corpus
ALL_TARGETS=(FuzzContent FuzzIdentifiers)
# A slow input (10 s) or a big allocation (2 GB) is a finding, like a crash.
FLAGS=(-max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1)
# Let libFuzzer handle a crash: Swift's own backtracer would take minutes to symbolize one first.
export SWIFT_BACKTRACE=enable=no

# Release (-O keeps every overflow and bounds check; the harnesses run 2-3 times faster than in debug).
# Not `--sanitize=fuzzer --sanitize=address`: SwiftPM passes swiftc one `-sanitize=` per sanitizer,
# in no fixed order, and swiftc keeps only the last, so a build got coverage or ASan, not both.
# `-Xswiftc` comes after SwiftPM's own flags, so Swift gets both; `-Xcc` gives libyaml ASan too.
build() {
    echo "building $1 (release, -sanitize=fuzzer,address) in $SCRATCH"
    PROLIFIC_FUZZ=1 "$SWIFT" build -c release --scratch-path "$SCRATCH" --sanitize=fuzzer \
        -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=address --product "$1" >"$SCRATCH/fuzz/build-$1.log" 2>&1 || {
        tail -40 "$SCRATCH/fuzz/build-$1.log"
        return 1
    }
}

binary() { echo "$SCRATCH/release/$1"; }

# Tests/Fuzz/<target>.dict: tokens the mutator splices in (YAML syntax, keys, edge values).
dictionary() { [ ! -f "Tests/Fuzz/$1.dict" ] || echo "-dict=Tests/Fuzz/$1.dict"; }

# Runs one target; prints one line of figures, and the finding if there was one.
run_target() {
    local target=$1 runs=$2
    local corpus=$SCRATCH/fuzz/corpus/$target artifacts=$SCRATCH/fuzz/artifacts/$target/
    local log=$SCRATCH/fuzz/$target.log status=0
    mkdir -p "$corpus" "$artifacts"
    local start=$SECONDS
    "$(binary "$target")" "${FLAGS[@]}" -runs="$runs" -artifact_prefix="$artifacts" $(dictionary "$target") \
        "$corpus" "$REPO_CORPUS/$target" >"$log" 2>&1 || status=$?
    local seconds=$((SECONDS - start))
    local execs rate coverage
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    coverage=$(grep -aE '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9]+[a-zA-Z]*' || true)
    printf '%-16s %10s execs  %6s exec/s  %5ss  %s\n' "$target" "${execs:-?}" "${rate:-?}" "$seconds" "$coverage"
    if [ "$status" -ne 0 ]; then
        echo "$target: FAILED (exit $status); the finding, from $log:"
        grep -aE -A30 '^(==[0-9]+==ERROR|property failed|Fatal error|ALARM|==[0-9]+== ERROR|SUMMARY|MS:|artifact_prefix|Test unit written)' "$log" | head -60
        return 1
    fi
}

run() {
    local runs=$1
    shift
    local targets=("$@") failed=0
    [ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")
    mkdir -p "$SCRATCH/fuzz"
    for target in "${targets[@]}"; do build "$target"; done
    for target in "${targets[@]}"; do run_target "$target" "$runs" || failed=1; done
    return $failed
}

# The seeds of one target, one file each, into $2: real files under their real paths for
# FuzzContent (see ContentInput), and those paths, their parts and the files' values for FuzzIdentifiers.
candidates() {
    local target=$1 out=$2 root file relative
    for root in Content Tests/Fixtures/check/*/Content; do
        while IFS= read -r file; do
            relative=${file#"$root"/}
            case $target in
            FuzzContent)
                { printf '%s\n' "$relative"; cat "$file"; } >"$out/$(echo "$root-$relative" | tr '/' '_')"
                ;;
            FuzzIdentifiers)
                { printf '%s\n' "$relative"; tr '/' '\n' <<<"$relative"; sed -nE 's/^ *[a-z-]+: +"?([^"]+)"?$/\1/p; s/^ *- +"?([^"]+)"?$/\1/p' "$file"; } |
                    while IFS= read -r value; do
                        [ -n "$value" ] || continue
                        printf '%s' "$value" >"$out/$(printf '%s' "$value" | tr -c 'A-Za-z0-9.-' '_' | cut -c1-80)"
                    done
                ;;
            esac
        done < <(find "$root" -type f \( -name '*.md' -o -name '*.yml' \) | sort)
    done
}

# Replaces Tests/Fuzz/Corpus/<target> with the smallest set of seeds that covers what they all cover,
# under readable names; `regression-*` inputs (past findings) are always kept.
corpus() {
    local targets=("$@")
    [ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")
    mkdir -p "$SCRATCH/fuzz"
    for target in "${targets[@]}"; do
        build "$target"
        local work
        work=$(mktemp -d "$SCRATCH/fuzz/corpus-$target.XXXXXX")
        mkdir -p "$work/candidates" "$work/merged" "$REPO_CORPUS/$target"
        candidates "$target" "$work/candidates"
        cp "$REPO_CORPUS/$target"/* "$work/candidates/" 2>/dev/null || true
        "$(binary "$target")" "${FLAGS[@]}" -merge=1 "$work/merged" "$work/candidates" >"$work/merge.log" 2>&1 || {
            tail -30 "$work/merge.log"
            return 1
        }
        # -merge names what it keeps by SHA-1; give each back the name it had.
        (cd "$work/candidates" && sha1sum -- *) >"$work/names"
        find "$REPO_CORPUS/$target" -type f ! -name 'regression-*' -delete
        for kept in "$work/merged"/*; do
            local name
            name=$(grep -m1 "^$(basename "$kept")  " "$work/names" | cut -c43-)
            cp "$kept" "$REPO_CORPUS/$target/${name:-$(basename "$kept")}"
        done
        echo "$target: $(ls "$REPO_CORPUS/$target" | wc -l) seeds, $(du -sh "$REPO_CORPUS/$target" | cut -f1)"
        rm -rf "$work"
    done
}

case ${1:-} in
run) shift; run "$@" ;;
corpus) shift; corpus "$@" ;;
*) sed -n '2,13p' "$0"; exit 2 ;;
esac
