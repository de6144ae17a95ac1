#!/usr/bin/env bash
# Fetches the large Moving AI benchmark maps the `speed` benchmark adds to its fixtures, into
# bench/maps/ (or $TILENAV_BENCH_MAPS_DIR): two 1024 x 1024 maps of different kinds,
#   ost100d       Dragon Age: Origins (dao set), 1024 x 1025, dense: rooms and narrow corridors
#   TheFrozenSea  StarCraft (sc1 set), 1024 x 1024, open: wide areas between cliffs
# each with its .map.scen scenario. The folder is git-ignored and outside the npm package: the maps
# come from Nathan Sturtevant's Moving AI benchmark sets (https://movingai.com/benchmarks/), whose
# game maps are published for research use; the project does not redistribute them.
#
# usage: bench/fetch-maps.sh
# Sources, first that works:
#   1. https://movingai.com/benchmarks/{dao,sc1}/{dao,sc1}-{map,scen}.zip (needs curl and unzip)
#   2. a git dir of a snapshot of github:nathansttt/hog2 (HOG2 ships the same benchmark sets in
#      maps/ and scenarios/): $HOG2_GIT, default $MIRROR_ROOT/nathansttt+hog2/repo
set -euo pipefail

DIR=${TILENAV_BENCH_MAPS_DIR:-$(cd "$(dirname "$0")" && pwd)/maps}
HOG2=${HOG2_GIT:-${MIRROR_ROOT:-.}/nathansttt+hog2/repo}
# name  set  (the map file is NAME.map, its scenario NAME.map.scen)
MAPS=("ost100d dao" "TheFrozenSea sc1")
mkdir -p "$DIR"

have() { [[ -s $DIR/$1.map && -s $DIR/$1.map.scen ]]; }

from_movingai() { # set name
  command -v curl >/dev/null && command -v unzip >/dev/null || return 1
  local set=$1 name=$2 tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  for kind in map scen; do
    curl -fsSL --connect-timeout 10 -o "$tmp/$kind.zip" "https://movingai.com/benchmarks/$set/$set-$kind.zip" || return 1
    unzip -q -o "$tmp/$kind.zip" -d "$tmp/$kind" || return 1
  done
  local m s
  m=$(find "$tmp/map" -name "$name.map" | head -1)
  s=$(find "$tmp/scen" -name "$name.map.scen" | head -1)
  [[ -n $m && -n $s ]] || return 1
  cp "$m" "$DIR/$name.map" && cp "$s" "$DIR/$name.map.scen"
}

from_hog2() { # set name
  local set=$1 name=$2
  git --git-dir="$HOG2" rev-parse -q --verify HEAD^{commit} >/dev/null 2>&1 || return 1
  git --git-dir="$HOG2" cat-file blob "HEAD:maps/$set/$name.map" >"$DIR/$name.map.tmp" &&
    git --git-dir="$HOG2" cat-file blob "HEAD:scenarios/$set/$name.map.scen" >"$DIR/$name.map.scen.tmp" || return 1
  mv "$DIR/$name.map.tmp" "$DIR/$name.map" && mv "$DIR/$name.map.scen.tmp" "$DIR/$name.map.scen"
}

status=0
for entry in "${MAPS[@]}"; do
  read -r name set <<<"$entry"
  if have "$name"; then echo "$name: already in $DIR"; continue; fi
  if from_movingai "$set" "$name"; then echo "$name: fetched from movingai.com into $DIR"
  elif from_hog2 "$set" "$name"; then echo "$name: copied from the hog2 snapshot at $HOG2 into $DIR"
  else
    rm -f "$DIR/$name.map.tmp" "$DIR/$name.map.scen.tmp"
    echo "$name: not fetched (movingai.com unreachable and no hog2 snapshot at $HOG2; set HOG2_GIT)" >&2
    status=1
  fi
done
exit $status
