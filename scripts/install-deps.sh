#!/bin/sh
# Install the Debian packages that building and testing gpusc need (Debian 12). Run as root.
# Does nothing when everything is already installed.
set -eu
PKGS="libsystemc-dev libglib2.0-dev autoconf automake libtool autoconf-archive pkg-config gcc g++ make
      gtkwave clang libclang-rt-14-dev python3 valgrind gnuplot-nox munge slurmctld slurmd slurm-client"
missing=
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing:$missing"
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
