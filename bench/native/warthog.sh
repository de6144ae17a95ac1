#!/usr/bin/env bash
# Native anchor for grid pathfinding speed: Daniel Harabor's warthog (C++), run on Moving AI scenarios
# (octile: straight 1, diagonal sqrt 2, no corner cutting).
# Origin: the tilenav team's shared benchmark script, vendored here; `npm run bench speed` runs it
# (bench/native.ts) for the JPS and JPS2+ rows when a warthog snapshot or build is available.
#
# usage: bench/native/warthog.sh build                 build (once) into $WARTHOG_BUILD and print the binary
#        bench/native/warthog.sh MAP SCEN ALG           run ALG over every query of SCEN on MAP
#   ALG: jps | jps2 | jps+ | jps2+ | astar      (warthog's names; dijkstra also works; cpg and jpg
#        segfault in this snapshot)
#
# Prints the built commit, the query count, correct=N/M (warthog's path cost against the scenario's
# optimal length, relative tolerance 1e-4; an optimal length of 0 with start != goal means "no path"),
# and, as its LAST line, mean_us=<mean search microseconds per query>, i.e. the sum over all queries
# of warthog's own per-query timer divided by the query count. Exit status 1 if any answer is wrong.
#
# What warthog's timer covers (flexible_astar::search): clock_gettime(CLOCK_MONOTONIC) from the start
# of search() (clearing the open list, making start/target nodes) to the end of the main loop.
# NOT included: path extraction (walking back-pointers; for the JPS variants the path is the list of
# jump points, never expanded to single cells), map loading, and the jps+/jps2+ preprocessing (jump
# tables are built in the expander's constructor, before the first query).
#
# Diagonal cost: warthog's DBL_ROOT_TWO is the float literal 1.414213562f = 1.41421353817 (sqrt 2
# to float precision; relative error 1.7e-8), far inside the 1e-4 tolerance.
# The build applies small patches to a private copy of the sources (see build() below): two
# missing #includes for g++ 12, jps2+ never running its queries, jps2/jps2+ keeping a stale
# parent direction on the start node (wrong answers), the timer ignoring whole seconds, and
# full-precision output. The patched sources stay in $WARTHOG_BUILD/src.
#
# Environment: WARTHOG_GIT   git dir of the github:krnbatta/warthog snapshot
#                            (default $MIRROR_ROOT/krnbatta+warthog/repo, MIRROR_ROOT being the folder
#                            that holds fetched repository snapshots as owner+name/repo; the classic
#                            warthog lives in its warthog/src folder)
#              WARTHOG_BUILD build folder (default /tmp/warthog-build); delete it to force a rebuild
#              WARTHOG_REPS  run the whole scenario this many times (default 1) and report the best
#                            (lowest) mean: each run's mean is printed before the last line
#              WARTHOG_CPU   if set, pin the run to that CPU with taskset
set -euo pipefail

GITDIR=${WARTHOG_GIT:-${MIRROR_ROOT:-.}/krnbatta+warthog/repo}
BUILD=${WARTHOG_BUILD:-/tmp/warthog-build}
REPS=${WARTHOG_REPS:-1}
BIN=$BUILD/bin/warthog
TAG=patches-v1 # bump when the patches or flags below change: forces a rebuild

die() { echo "warthog.sh: $*" >&2; exit 2; }

build() {
  [[ -x $BIN && -s $BUILD/COMMIT && "$(cat "$BUILD/TAG" 2>/dev/null)" == "$TAG" ]] && return 0
  if ! git --git-dir="$GITDIR" rev-parse -q --verify HEAD^{commit} >/dev/null 2>&1; then
    die "no warthog snapshot at $GITDIR.
  Fetch a snapshot of github:krnbatta/warthog (a bare clone works: git clone --bare
  https://github.com/krnbatta/warthog \$MIRROR_ROOT/krnbatta+warthog/repo), or set WARTHOG_GIT to a git dir
  whose HEAD has warthog/src (programs/warthog.cpp, Makefile)."
  fi
  command -v g++ >/dev/null || die "g++ is needed"
  local commit tmp src
  commit=$(git --git-dir="$GITDIR" rev-parse HEAD)
  tmp=$(mktemp -d "${BUILD%/}.tmp.XXXXXX")
  src=$tmp/src
  echo "building warthog $commit into $BUILD (g++ -O3 -DNDEBUG, about a minute on 2 cores)" >&2
  # Export only warthog/src sources: the snapshot lacks some large blobs (binaries, .dSYM), so
  # `git archive` of the whole tree fails; read the tree and copy blob by blob instead.
  git --git-dir="$GITDIR" ls-tree -r -z HEAD warthog/src | while IFS= read -r -d '' line; do
    local meta=${line%%$'\t'*} path=${line#*$'\t'} sha
    case $path in *.cpp|*.h) ;; *) continue ;; esac
    sha=${meta##* }
    mkdir -p "$tmp/$(dirname "$path")"
    git --git-dir="$GITDIR" cat-file blob "$sha" >"$tmp/$path" || die "blob missing for $path"
  done
  mv "$tmp/warthog/src" "$src" && rmdir "$tmp/warthog"
  [[ -f $src/programs/warthog.cpp ]] || die "$commit has no warthog/src/programs/warthog.cpp"

  # Minimal patches, applied here so the snapshot stays untouched:
  # 1. g++ 12: labelled_gridmap.h uses strcpy and assert without including their headers.
  sed -i 's|^#include <climits>$|#include <climits>\n#include <cstring>\n#include <cassert>|' \
    "$src/domains/labelled_gridmap.h"
  # 2. bug: run_jps2plus builds the searcher but never calls run_experiments (prints nothing).
  python3 - "$src/programs/warthog.cpp" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
i = s.index("run_jps2plus(warthog::scenario_manager& scenmgr")
j = s.index('std::cerr << "done. total memory', i)
if "run_experiments" not in s[i:j]:
    s = s[:j] + "run_experiments(&astar, alg_name, scenmgr, verbose, checkopt, std::cout);\n\t" + s[j:]
# 3. print costs and times with full precision (the default 6 significant digits rounds them)
s = s.replace('\tstd::cout \n        << "id\\talg', '\tstd::cout.precision(15);\n\tstd::cout \n        << "id\\talg', 1)
open(p, "w").write(s)
PY
  grep -q 'cout.precision(15)' "$src/programs/warthog.cpp" || die "patch 3 did not apply"
  # 4. bug: timer::elapsed_time_nano ignores tv_sec (a search over 1 s would wrap); use both fields.
  python3 - "$src/util/timer.cpp" <<'PY'
import re, sys
p = sys.argv[1]; s = open(p).read()
old = re.search(r"if \(\(stop_time\.tv_nsec-start_time\.tv_nsec\)<0\).*?else\s*return[^;]*;\n", s, re.S)
assert old, "timer patch: pattern not found"
new = ("return (double)(stop_time.tv_sec - start_time.tv_sec) * 1e9 +\n"
       "\t\t(double)(stop_time.tv_nsec - start_time.tv_nsec);\n")
s = s[:old.start()] + new + s[old.end():]
open(p, "w").write(s)
PY

  # 5. bug: jps2 / jps2+ keep each node's parent direction in the node (set by the relax callback),
  #    but search_node::init does not clear it, so a start node that was reached in an earlier query
  #    keeps that query's direction and is expanded as if it had a parent: some queries then find
  #    no path or a longer one. Clear it when the start node is made.
  python3 - "$src/jps/jps2_expansion_policy.cpp" "$src/jps/jps2plus_expansion_policy.cpp" <<'PY'
import sys
for p in sys.argv[1:]:
    s = open(p).read()
    i = s.index("::generate_start_node(")
    old = "return generate(padded_id);"
    j = s.index(old, i)
    s = s[:j] + ("{ warthog::search_node* start = generate(padded_id);\n"
                 "      start->set_pdir(warthog::jps::NONE); return start; }") + s[j + len(old):]
    open(p, "w").write(s)
PY

  local inc=(-I"$src" -I"$src/domains" -I"$src/util" -I"$src/search" -I"$src/experimental"
    -I"$src/heuristics" -I"$src/jps" -I"$src/contraction" -I"$src/label" -I"$src/memory"
    -I"$src/mapf" -I"$src/sys")
  local flags=(-std=c++11 -O3 -DNDEBUG -pthread -w)
  mkdir -p "$tmp/obj" "$tmp/bin"
  (cd "$src" && ls domains/*.cpp util/*.cpp search/*.cpp experimental/*.cpp heuristics/*.cpp \
    jps/*.cpp contraction/*.cpp label/*.cpp memory/*.cpp mapf/*.cpp) |
    xargs -P "$(nproc)" -I{} sh -c 'src=$1 f=$2 out=$3; shift 3
      cd "$src" && exec g++ "$@" -c "$f" -o "$out/obj/$(echo "$f" | tr / _).o"' \
      sh "$src" {} "$tmp" "${flags[@]}" "${inc[@]}" >"$tmp/compile.log" 2>&1 ||
    { cat "$tmp/compile.log" >&2; die "compile failed (sources kept in $src)"; }
  ar -crs "$tmp/libwarthog.a" "$tmp"/obj/*.o
  g++ "${flags[@]}" "${inc[@]}" "$src/programs/warthog.cpp" -o "$tmp/bin/warthog" \
    "$tmp/libwarthog.a" -lrt || die "link failed"
  echo "$commit" >"$tmp/COMMIT"
  echo "$TAG" >"$tmp/TAG"
  g++ --version | head -1 >"$tmp/COMPILER"
  rm -rf "$tmp/obj"
  rm -rf "$BUILD" && mv "$tmp" "$BUILD"
}

locked_build() {
  mkdir -p "$(dirname "$BUILD")"
  exec 9>"${BUILD%/}.lock"
  flock 9
  build
  flock -u 9
}

if [[ ${1:-} == build || ${1:-} == BUILD ]]; then
  locked_build
  echo "$BIN ($(cat "$BUILD/COMMIT"))"
  exit 0
fi
[[ $# -eq 3 ]] || { sed -n '2,16p' "$0" >&2; exit 2; }
MAP=$1 SCEN=$2 ALG=$3
[[ -f $MAP ]] || die "map not found: $MAP"
[[ -f $SCEN ]] || die "scenario not found: $SCEN"
locked_build

work=$(mktemp -d /tmp/warthog-run.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Warthog reads the map named in the scen file and treats S (swamp) as blocked; Moving AI counts
# S and G as passable. Give it a copy of MAP with S -> '.' and a scen naming that copy.
awk 'NR <= 4 { print; next } { gsub(/S/, "."); print }' "$MAP" >"$work/map.map"
read -r mw mh < <(awk '$1 == "width" { w = $2 } $1 == "height" { h = $2 } $1 == "map" { print w, h; exit }' "$MAP")
awk -v m="$work/map.map" -v base="$(basename "$MAP")" -v mw="$mw" -v mh="$mh" -v f="$SCEN" '
  NR == 1 { if ($0 !~ /^version/) { print "warthog.sh: " f ": line 1: expected \"version 1\"" > "/dev/stderr"; exit 3 } print "version 1"; next }
  NF == 0 { next }
  NF != 9 { print "warthog.sh: " f ": line " NR ": expected 9 tab-separated fields" > "/dev/stderr"; exit 3 }
  {
    n = split($2, parts, "/")
    if (parts[n] != base && !warned) { print "warthog.sh: warning: " f " names map " $2 ", running it on " base > "/dev/stderr"; warned = 1 }
    if ($3 != mw || $4 != mh) { print "warthog.sh: " f ": line " NR ": size " $3 "x" $4 " but map is " mw "x" mh > "/dev/stderr"; exit 3 }
    print $1 "\t" m "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 "\t" $8 "\t" $9
  }' "$SCEN" >"$work/scen.scen"
nq=$(($(wc -l <"$work/scen.scen") - 1))
[[ $nq -gt 0 ]] || die "$SCEN has no queries"

pin=()
[[ -n ${WARTHOG_CPU:-} ]] && pin=(taskset -c "$WARTHOG_CPU")
echo "warthog $(cat "$BUILD/COMMIT") ($(cat "$BUILD/COMPILER" 2>/dev/null)) alg=$ALG map=$(basename "$MAP") queries=$nq"
best=
for ((r = 1; r <= REPS; r++)); do
  "${pin[@]}" "$BIN" --scen "$work/scen.scen" --alg "$ALG" >"$work/out.tsv" 2>"$work/err.txt" ||
    { cat "$work/err.txt" >&2; die "warthog failed (alg $ALG)"; }
  [[ -s $work/out.tsv ]] || { cat "$work/err.txt" >&2; die "warthog printed no results (alg $ALG)"; }
  # out.tsv: header, then id alg expanded inserted updated touched nanos pcost plen map
  res=$(awk -F'\t' -v nq="$nq" '
    FNR == NR { if (FNR > 1) { q++; sx[q-1] = $5; sy[q-1] = $6; gx[q-1] = $7; gy[q-1] = $8; opt[q-1] = $9 } next }
    FNR == 1 { next }
    {
      id = $1; cost = $8 + 0; o = opt[id] + 0; n++; ns += $7; ex += $3
      nopath = (o == 0 && (sx[id] != gx[id] || sy[id] != gy[id]))
      if (nopath) ok = (cost >= 2147483647)
      else { d = cost - o; if (d < 0) d = -d; ok = (d <= 1e-4 * (o > 1 ? o : 1)) }
      if (ok) good++
      else if (bad++ < 5) printf "wrong: query %d (%s,%s)->(%s,%s) optimal %s warthog %s\n", id, sx[id], sy[id], gx[id], gy[id], opt[id], $8 > "/dev/stderr"
    }
    END { if (n != nq) printf "warthog.sh: warthog answered %d of %d queries\n", n, nq > "/dev/stderr"
          printf "%d %d %.3f %.1f\n", good, nq, (n ? ns / n / 1000 : 0), (n ? ex / n : 0) }' \
    "$work/scen.scen" "$work/out.tsv")
  read -r good total mean expd <<<"$res"
  [[ $REPS -gt 1 ]] && echo "run $r: mean_us=$mean"
  if [[ -z $best ]] || awk -v a="$mean" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$mean; fi
done
echo "mean_expanded=$expd"
echo "correct=$good/$total"
status=0
[[ $good -eq $total ]] || status=1
echo "mean_us=$best"
exit $status
