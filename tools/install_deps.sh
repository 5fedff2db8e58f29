#!/usr/bin/env bash
# Installs the Debian 12 packages that pgnbase needs to build, test and run its demo.
# Idempotent: when every package is already installed it does not touch apt at all, so it
# also works for a user who is not root on a machine that has them.
set -euo pipefail

packages=(
  g++ cmake make pkg-config           # the C++20 toolchain and build system
  libsqlite3-dev                      # the database file
  libzstd-dev zstd                    # .pgn.zst input, compressed move and index blocks
  zlib1g-dev libarchive-dev           # .pgn.gz input (zlib); .pgn.bz2, .pgn.xz, .zip (libarchive)
  libsnappy-dev                       # .parquet input: SNAPPY, the codec most Parquet writers use by default
  libboost-program-options-dev        # command-line parsing of pgn-index / pgn-query
  libjemalloc-dev                     # pgn-index's allocator: 8-10% faster imports than glibc malloc
  libcpp-httplib-dev                  # pgn-query serve's HTTP server (cpp-httplib 0.11, MIT; Debian-kept, TLS unused)
  libgtest-dev                        # tests
  libbenchmark-dev                    # bench/
)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#packages[@]} packages already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install_deps: missing packages: ${missing[*]}" >&2
  echo "install_deps: run as root (or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi

echo "install_deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}"
echo "install_deps: done"
