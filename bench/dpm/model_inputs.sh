#!/bin/bash
# The per-message costs model.py needs beside the suite's own measurements: the datagram
# facility's reliable request/response at the link's MTU and at InfiniBand's 2 KB
# (bench/dgram/dgram_rr, no loss), and TCP's connection set-up and exchange on loopback
# (tcp_rr.c). Writes RAW/dgram_link.csv, RAW/dgram_small.csv and RAW/tcp.csv.
# usage: model_inputs.sh BUILD_DIR WORK_DIR RAW_DIR QUICK(0|1)
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$1 work=$2 raw=$3 quick=$4
if [ "$quick" = 1 ]; then sizes=0,1024,65536,1048576 iters=100; else sizes=0,64,1024,16384,65536,262144,1048576,4194304 iters=300; fi
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
dgram=$build/bench/dgram/dgram_rr
[ -x "$dgram" ] || { echo "no $dgram: make bench/dgram/dgram_rr in the build first"; exit 1; }
timeout -k 5 300 "$dgram" --loss 0 --sizes "$sizes" --csv "$raw/dgram_link.csv" || { echo "dgram_rr failed"; exit 1; }
timeout -k 5 300 "$dgram" --loss 0 --mtu 2048 --sizes "$sizes" --csv "$raw/dgram_small.csv" ||
  { echo "dgram_rr --mtu 2048 failed"; exit 1; }
cc -O2 -Wall -o "$work/tcp_rr" "$here/tcp_rr.c" || { echo "tcp_rr does not build"; exit 1; }
timeout -k 5 120 "$work/tcp_rr" --sizes "$sizes" --iters "$iters" >"$raw/tcp.csv" || { echo "tcp_rr failed"; exit 1; }
cat "$raw/tcp.csv"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
