#!/bin/sh
# The documentation sends readers only to files that are in the repository.
# Scans README.md and docs/*.md for
#  1. relative Markdown links [text](target): the target (without its
#     #anchor) must exist, relative to the file that links it, inside the
#     repository;
#  2. repository paths anywhere in the text (prose, `code`, code blocks):
#     words starting with src/ docs/ include/ examples/ tests/ scripts/
#     bench/ tools/ .ci/ that are not the tail of a longer path (so
#     build/tests/tmp or $PREFIX/share/vt are not taken). `*` is a wildcard
#     and an all-capitals component (NAME, NAME.md) a placeholder; at least
#     one file must match;
#  3. bare file names in backticks (`disasm.c`, `run.md`): a file of that
#     name must exist in the repository (outside build folders).
# Rule for material outside the repository: the Ventus specifications and
# official cases beside the checkout (../shared/spec, ../shared/cases) may be
# named in text, as `../shared/...` or by document and section without
# backticks ("formats-and-launch.md 6.1"), so that readers see they are
# external; they must not be linked, since such a link leaves the
# repository, and a bare backticked name would read as a repository file. Web links
# (http:, https:, mailto:) and in-page anchors (#...) are not checked.
# Usage: doc_links_test.sh SOURCE_DIR TMP_ROOT
set -eu
cd "$1"
ROOT=$(pwd -P)
mkdir -p "$2"
T=$(mktemp -d "$2/doc_links.XXXXXX")
trap 'rm -rf "$T"' EXIT
bad=0
refs=0

# does the repository path $1 (wildcards, placeholders) match a file?
path_exists() {
  pattern=$(printf '%s\n' "$1" |
    sed -E 's#(^|/)[A-Z][A-Z0-9_]+(/|$)#\1*\2#g; s#(^|/)[A-Z][A-Z0-9_]+(\.[a-z]+)$#\1*\2#')
  for m in $pattern; do
    [ -e "$m" ] && return 0
  done
  return 1
}

for f in README.md docs/*.md; do
  grep -noE '\]\([^) ]+( "[^"]*")?\)' "$f" | sed "s#^#$f:#" >>"$T/links" || true
  grep -noE '(^|[^A-Za-z0-9_./$~-])(src|docs|include|examples|tests|scripts|bench|tools|\.ci)/[A-Za-z0-9_.*/-]*' "$f" |
    sed "s#^#$f:#" >>"$T/paths" || true
  grep -noE '`[A-Za-z0-9_-]+\.(c|h|s|sh|def|cmake|md|in)`' "$f" | sed "s#^#$f:#" >>"$T/names" || true
done
find . -path './build*' -prune -o -path './.git' -prune -o -type f -print | sed 's#.*/##' | sort -u >"$T/repo_names"

# 1. relative links: FILE:LINE:](target)
while IFS= read -r hit; do
  f=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  target=$(printf '%s\n' "${rest#*:}" | sed -E 's/^\]\(//; s/\)$//; s/ ".*"$//')
  case $target in http:* | https:* | mailto:* | '#'*) continue ;; esac
  refs=$((refs + 1))
  file=${target%%#*}
  dir=$(dirname "$f")
  case $(cd "$dir" && realpath -m "$file") in
    "$ROOT"/*) ;;
    *)
      echo "$f:$line: the link to '$target' leaves the repository (name external material in text, not as a link)"
      bad=$((bad + 1))
      continue
      ;;
  esac
  if [ ! -e "$dir/$file" ]; then
    echo "$f:$line: link to '$target', which does not exist"
    bad=$((bad + 1))
  fi
done <"$T/links"

# 2. repository paths: FILE:LINE:<one character or none>path
while IFS= read -r hit; do
  f=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  p=$(printf '%s\n' "${rest#*:}" | sed -E 's#^[^A-Za-z.]##; s#[.]+$##')
  refs=$((refs + 1))
  if ! path_exists "$p"; then
    echo "$f:$line: '$p' is not in the repository"
    bad=$((bad + 1))
  fi
done <"$T/paths"

# 3. bare file names: FILE:LINE:`name`
while IFS= read -r hit; do
  f=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  name=$(printf '%s\n' "${rest#*:}" | tr -d '`')
  refs=$((refs + 1))
  if ! grep -qxF -- "$name" "$T/repo_names"; then
    echo "$f:$line: no file named '$name' in the repository"
    bad=$((bad + 1))
  fi
done <"$T/names"

echo "checked $refs references in README.md and docs/*.md"
if [ "$bad" -eq 0 ]; then
  echo "1 passed, 0 failed"
else
  echo "$bad references to missing files"
  echo "0 passed, 1 failed"
  exit 1
fi
