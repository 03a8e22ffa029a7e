#!/usr/bin/env bash
#===- scripts/fresh-machine.sh - the README's commands on a fresh Debian -===#
#
# Checks that a newcomer with nothing installed can run the README's two
# commands: makes a minimal Debian bookworm tree (debootstrap minbase plus
# git and ca-certificates, nothing of ompdp's package table), clones the
# current commit into it with ../shared beside the clone, and inside a
# chroot runs `bash scripts/demo.sh` (which must print findings naming a
# variable) and `bash scripts/test.sh` with OMPDP_TEST_STAGES (default:
# normal), then says pass or fail with the time of each. Needs root, mount
# and chroot, and http://deb.debian.org; the tree is made from the pristine
# BASE (debootstrapped there when it does not exist yet) by a copy that is
# removed afterwards unless --keep.
#
#   sudo bash scripts/fresh-machine.sh [--keep] [BASE]
#        BASE default: /var/tmp/ompdp-bookworm-base (made on the first run)
#   OMPDP_TEST_STAGES="normal asan" ... other stages of test.sh
#   OMPDP_FRESH_MIRROR=URL              Debian mirror (deb.debian.org)
#
# Only committed work is checked (a clone of HEAD).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
keep=0
if [ "${1:-}" = "--keep" ]; then keep=1; shift; fi
base="${1:-/var/tmp/ompdp-bookworm-base}"
mirror="${OMPDP_FRESH_MIRROR:-http://deb.debian.org/debian}"
stages="${OMPDP_TEST_STAGES:-normal}"

[ "$(id -u)" -eq 0 ] || { echo "fresh-machine: run as root (debootstrap, mount, chroot)" >&2; exit 2; }
case "$base" in "$root"|"$root"/*) echo "fresh-machine: BASE must be outside the checkout" >&2; exit 2 ;; esac
commit="$(git -C "$root" rev-parse HEAD)"
[ -z "$(git -C "$root" status --porcelain --untracked-files=no)" ] ||
  echo "fresh-machine: uncommitted changes are not checked, only $commit" >&2

if [ ! -e "$base/etc/debian_version" ]; then
  command -v debootstrap >/dev/null ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }
  echo "fresh-machine: debootstrap bookworm into $base"
  debootstrap --variant=minbase --include=git,ca-certificates bookworm "$base" "$mirror" >"$base.log" 2>&1 ||
    { tail -n 20 "$base.log" >&2; exit 1; }
fi

tree="$(mktemp -d "${base%/}.run.XXXXXX")"
mounts=()
cleanup() {
  local pid i
  # Whatever the check started and left running inside the tree.
  for pid in /proc/[0-9]*; do
    [ "$(readlink "$pid/root" 2>/dev/null)" = "$tree" ] && kill -9 "${pid#/proc/}" 2>/dev/null
  done
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" || umount -l "${mounts[i]}" || true
  done
  if findmnt -rn -o TARGET | grep -q "^$tree/"; then
    echo "fresh-machine: $tree still has mounts; not removed" >&2
  elif [ $keep -eq 0 ]; then
    rm -rf --one-file-system "$tree"
  else
    echo "fresh-machine: kept $tree"
  fi
}
trap cleanup EXIT
echo "fresh-machine: copying $base to $tree"
cp -a "$base/." "$tree/"
mount -t proc proc "$tree/proc" && mounts+=("$tree/proc")
mount --bind /sys "$tree/sys" && mounts+=("$tree/sys")
mount --bind /dev "$tree/dev" && mounts+=("$tree/dev")
mount --bind /dev/pts "$tree/dev/pts" && mounts+=("$tree/dev/pts")
cp -L /etc/resolv.conf "$tree/etc/resolv.conf"

git clone -q --bare "$root" "$tree/srv/ompdp.git"
git -C "$tree/srv/ompdp.git" fetch -q "$root" "$commit"
mkdir -p "$tree/root/work"
[ -d "$root/../shared" ] && cp -a "$root/../shared" "$tree/root/work/shared"

# A login-like environment: nothing of the caller's leaks in.
in_tree() {
  chroot "$tree" /usr/bin/env -i HOME=/root TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin bash -c "$1"
}
in_tree "cd /root/work && git clone -q /srv/ompdp.git ompdp && git -C ompdp checkout -q $commit"

fail=0
t=$SECONDS
if in_tree "cd /root/work/ompdp && bash scripts/demo.sh" 2>&1 | tee "$tree/root/work/demo.log"; then
  if grep -q "variable: " "$tree/root/work/demo.log"; then
    demo="passed in $((SECONDS - t)) s"
  else
    demo="FAILED: the report names no variable"; fail=1
  fi
else
  demo="FAILED after $((SECONDS - t)) s"; fail=1
fi
t=$SECONDS
if in_tree "cd /root/work/ompdp && OMPDP_TEST_STAGES='$stages' bash scripts/test.sh"; then
  tests="passed in $((SECONDS - t)) s"
else
  tests="FAILED after $((SECONDS - t)) s"; fail=1
fi
echo "fresh-machine: $commit on debootstrap bookworm ($(nproc) cores)"
echo "fresh-machine:   bash scripts/demo.sh: $demo"
echo "fresh-machine:   OMPDP_TEST_STAGES=\"$stages\" bash scripts/test.sh: $tests"
[ $fail -eq 0 ] && echo "fresh-machine: PASS" || echo "fresh-machine: FAIL"
exit $fail
