# Sourced by bench/mbt.sh and bench/profile.sh (not a benchmark): sets `root` (the checkout),
# `MBT` (the mbt binary: $MBT if set, else a release build of this checkout) and `out` (a
# private temporary folder, removed when the script exits).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
if [ -z "${MBT:-}" ]; then
    cargo build --release -p mbt --manifest-path "$root/Cargo.toml" >&2
    MBT=$target/release/mbt
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
