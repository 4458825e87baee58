#!/usr/bin/env bash
# Runs one night on Kubernetes: the Indexed Job of shards, then, once it has finished
# (complete or failed: a failed shard is left out of the merge), the merge job.
#
#   NIGHT=$(date +%F) SEED=$(date +%s) SHARDS=16 scale/k8s/run.sh
set -euo pipefail
: "${NIGHT:?set NIGHT, e.g. \$(date +%F)}" "${SEED:?set SEED}"
shards=${SHARDS:-16}
here=$(cd "$(dirname "$0")" && pwd)
fill() { sed -e "s|@NIGHT@|$NIGHT|g" -e "s|@SEED@|$SEED|g" -e "s|@SHARDS@|$shards|g" "$1"; }
fill "$here/shards.yaml" | kubectl apply -f -
until kubectl get job "mbt-shards-$NIGHT" \
    -o jsonpath='{.status.conditions[?(@.status=="True")].type}' | grep -qE 'Complete|Failed'; do
    sleep 60
done
fill "$here/merge.yaml" | kubectl apply -f -
kubectl wait --for=condition=complete --timeout=2h "job/mbt-merge-$NIGHT"
echo "report: /results/$NIGHT/all/report.html on the mbt-results volume"
