#!/usr/bin/env bash
# Builds kubewhy's container image without a Docker engine: a statically linked binary, packed
# with umoci into an OCI image layout (the way ../shared/realcluster/images.sh builds its images).
#
#   deploy/image.sh                              build target/oci (tag: the crate version)
#   deploy/image.sh --push localhost:5000/kubewhy:0.1.0 [--insecure]
#                                                also push it with skopeo (--insecure: plain HTTP)
#   deploy/image.sh --archive kubewhy.tar        also write a docker-archive (ctr images import)
#
# Needs cargo, umoci, and skopeo for --push/--archive. The binary is linked statically against
# glibc (-C target-feature=+crt-static): it runs in an empty image. It resolves no host names
# (in a pod it reaches the API server by KUBERNETES_SERVICE_HOST, an IP address).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -1)
OUT=${OUT:-$ROOT/target/oci}
TAG=${TAG:-$VERSION}
PUSH="" ARCHIVE="" INSECURE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --push) PUSH=$2; shift 2 ;;
    --archive) ARCHIVE=$2; shift 2 ;;
    --insecure) INSECURE=1; shift ;;
    --out) OUT=$2; shift 2 ;;
    --tag) TAG=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "image.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
for tool in cargo umoci; do
  command -v "$tool" >/dev/null || { echo "image.sh: $tool is needed" >&2; exit 2; }
done

TRIPLE=x86_64-unknown-linux-gnu
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
echo "image.sh: building a static kubewhy ($TRIPLE, crt-static)" >&2
# --target keeps build scripts and proc macros dynamic; only the binary is static.
(cd "$ROOT" && RUSTFLAGS="-C target-feature=+crt-static" \
  cargo build --release --locked --target "$TRIPLE" -p kubewhy)
BIN="$TARGET_DIR/$TRIPLE/release/kubewhy"
if ldd "$BIN" 2>&1 | grep -q "=>"; then
  echo "image.sh: $BIN is dynamically linked; an empty image cannot run it" >&2
  exit 1
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
rm -rf "$OUT"
umoci init --layout "$OUT"
umoci new --image "$OUT:$TAG"
umoci unpack --image "$OUT:$TAG" "$WORK/bundle" >/dev/null
R="$WORK/bundle/rootfs"
install -m 0755 "$BIN" "$R/kubewhy"
strip "$R/kubewhy"   # the release profile keeps line tables for backtraces; the image need not
mkdir -p "$R/etc" "$R/tmp"
chmod 1777 "$R/tmp"
printf 'root:x:0:0:root:/root:/sbin/nologin\nkubewhy:x:65532:65532:kubewhy:/nonexistent:/sbin/nologin\n' >"$R/etc/passwd"
printf 'root:x:0:\nkubewhy:x:65532:\n' >"$R/etc/group"
umoci repack --image "$OUT:$TAG" "$WORK/bundle"
umoci config --image "$OUT:$TAG" \
  --config.entrypoint /kubewhy \
  --config.cmd watch --config.cmd --listen --config.cmd 0.0.0.0:9090 \
  --config.user 65532:65532 --config.exposedports 9090/tcp \
  --config.label org.opencontainers.image.title=kubewhy \
  --config.label "org.opencontainers.image.version=$VERSION" \
  --config.label org.opencontainers.image.description="Why is this pod (or namespace) stuck, and what is the safe fix?" \
  --author kubewhy --history.comment "kubewhy $VERSION (deploy/image.sh)"
umoci gc --layout "$OUT"
echo "image.sh: built oci:$OUT:$TAG ($(du -sh "$OUT" | cut -f1))" >&2

if [ -n "$PUSH" ] || [ -n "$ARCHIVE" ]; then
  command -v skopeo >/dev/null || { echo "image.sh: skopeo is needed to push or archive" >&2; exit 2; }
fi
if [ -n "$PUSH" ]; then
  skopeo --insecure-policy copy -q ${INSECURE:+--dest-tls-verify=false} "oci:$OUT:$TAG" "docker://$PUSH"
  echo "image.sh: pushed $PUSH" >&2
fi
if [ -n "$ARCHIVE" ]; then
  rm -f "$ARCHIVE"
  skopeo --insecure-policy copy -q "oci:$OUT:$TAG" "docker-archive:$ARCHIVE:kubewhy:$TAG"
  echo "image.sh: wrote $ARCHIVE" >&2
fi
