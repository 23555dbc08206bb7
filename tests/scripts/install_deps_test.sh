#!/bin/sh
# scripts/install-deps.sh and what README says about it agree, and CI uses
# it: for every profile row of README's table the packages it names are what
# `install-deps.sh --list PROFILE` adds to the essentials; `all` is every
# profile; an unknown profile is refused; .ci/run installs with `all`.
# Usage: install_deps_test.sh SOURCE_DIR TMP_ROOT
set -eu
cd "$1"
mkdir -p "$2"
T=$(mktemp -d "$2/install_deps.XXXXXX")
trap 'rm -rf "$T"' EXIT
S=scripts/install-deps.sh
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
words() { tr ', ' '\n\n' | sed '/^$/d' | sort; }

sh $S --list >"$T/essentials"
rows=$(grep -E '^\| `[a-z]+` \| ' README.md || true)
profiles=
while IFS='|' read -r _ prof pkgs _; do
  prof=$(echo "$prof" | tr -d ' `')
  profiles="$profiles $prof"
  want=$(echo "$pkgs" | words)
  got=$(sh $S --list "$prof" | grep -vxF -f "$T/essentials" | sort)
  if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "readme_profile_$prof"
  else fail "readme_profile_$prof: README lists '$(echo $want)', the script '$(echo $got)'"; fi
done <<EOF
$rows
EOF
[ -n "$profiles" ] || fail "readme_has_profile_table"

all=$(sh $S --list all | sort -u)
union=$(for p in $profiles; do sh $S --list "$p"; done | sort -u)
if [ "$all" = "$union" ]; then ok all_is_every_profile; else fail all_is_every_profile; fi
if sh $S --list no-such-profile >/dev/null 2>&1; then fail unknown_profile_refused
else ok unknown_profile_refused; fi
if grep -q '^sh scripts/install-deps.sh all$' .ci/run && ! grep -q 'apt-get' .ci/run; then
  ok ci_installs_through_the_script
else fail ci_installs_through_the_script; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
