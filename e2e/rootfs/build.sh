#!/usr/bin/env bash
# Builds one Debian root filesystem for the modern-editor e2e tests, once: into DIR.partial, then renamed.
# usage: build.sh DIR SUITE PACKAGES [DEBOOTSTRAP_SCRIPT]   (needs root and debootstrap)
set -euo pipefail
dir=$1 suite=$2 packages=$3 script=${4:-}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
partial="$dir.partial"

# unmount_under PATH: lazily unmounts everything mounted at or below PATH, deepest first
# (debootstrap mounts /proc and /sys inside the tree and leaves them when it is interrupted).
unmount_under() {
  local base
  base=$(realpath -m "$1")
  awk -v base="$base" '$5 == base || index($5, base "/") == 1 { print $5 }' /proc/self/mountinfo |
    sort -r | while read -r mnt; do umount -l "$mnt" || true; done
}

if [ -x "$dir/usr/bin/nvim" ]; then
  echo "rootfs: $dir is present ($suite)"
  exit 0
fi
for leftover in "$partial" "$dir"; do
  if [ -e "$leftover" ]; then
    echo "rootfs: removing the incomplete $leftover"
    unmount_under "$leftover"
    rm -rf --one-file-system "$leftover"
  fi
done
mkdir -p "$(dirname "$dir")"
echo "rootfs: debootstrap $suite with $packages into $partial"
trap 'unmount_under "$partial"' EXIT
debootstrap --variant=minbase --include="$packages" "$suite" "$partial" "$mirror" $script
unmount_under "$partial"
rm -rf "$partial"/var/cache/apt/archives/*.deb "$partial"/var/lib/apt/lists/*_Packages
test -x "$partial/usr/bin/nvim"
mv "$partial" "$dir"
echo "rootfs: $dir ready: $(chroot "$dir" nvim --version | head -1)"
